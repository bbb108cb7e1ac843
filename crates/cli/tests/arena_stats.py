#!/usr/bin/env python3
"""Independent reference values for the arena's statistics tests (stats.rs, sprt.rs).

Written from the formulas (cutechess-cli's Elo/LOS; fishtest's LLRcalc for the
normalized-Elo SPRT), using Python's math module and scipy's brentq. Run it and compare
with the constants in crates/cli/src/arena/{stats,sprt}.rs.
"""
import math

from scipy.optimize import brentq

Z = 1.959963984540054
C = 800 / math.log(10)


def elo(s):
    return -400 * math.log10(1 / s - 1)


def stats(pdf):
    n = sum(p for _, p in pdf)
    mu = sum(a * p for a, p in pdf) / n
    var = sum(p * (a - mu) ** 2 for a, p in pdf) / n
    return mu, var


def secular(pdf):
    v = min(a for a, _ in pdf)
    w = max(a for a, _ in pdf)
    f = lambda x: sum(p * a / (1 + x * a) for a, p in pdf)
    return brentq(f, -1 / w + 1e-9, -1 / v - 1e-9, xtol=1e-15)


def mle_tvalue(pdfhat, ref, s):
    pdf = [(a, 1 / len(pdfhat)) for a, _ in pdfhat]
    for _ in range(50):
        prev = pdf
        mu, var = stats(pdf)
        sigma = var ** 0.5
        pdf1 = [(a - ref - s * sigma * (1 + ((mu - a) / sigma) ** 2) / 2, p) for a, p in pdfhat]
        x = secular(pdf1)
        pdf = [(pdfhat[i][0], pdfhat[i][1] / (1 + x * pdf1[i][0])) for i in range(len(pdfhat))]
        if max(abs(prev[i][1] - pdf[i][1]) for i in range(len(pdf))) < 1e-12:
            break
    return pdf


def llr_normalized(nelo0, nelo1, results):
    results = [max(1e-3, r) for r in results]
    n = sum(results)
    k = len(results)
    pdfhat = [(i / (k - 1), r / n) for i, r in enumerate(results)]
    scale = math.sqrt(2) if k == 5 else 1
    t0, t1 = nelo0 / C * scale, nelo1 / C * scale
    p0 = mle_tvalue(pdfhat, 0.5, t0)
    p1 = mle_tvalue(pdfhat, 0.5, t1)
    return n * sum(p * (math.log(q1) - math.log(q0)) for (_, p), (_, q0), (_, q1) in zip(pdfhat, p0, p1))


if __name__ == "__main__":
    print("bounds", math.log(0.05 / 0.95), math.log(0.95 / 0.05))
    print("penta LLR [10,40,100,60,20] 0..5:", llr_normalized(0, 5, [10, 40, 100, 60, 20]))
    print("trino LLR L80 D200 W120 0..5:", llr_normalized(0, 5, [80, 200, 120]))
    print("penta LLR [0,12,30,25,8] -1..3:", llr_normalized(-1, 3, [0, 12, 30, 25, 8]))
    print("penta LLR [3,150,700,140,2] 0..2:", llr_normalized(0, 2, [3, 150, 700, 140, 2]))
