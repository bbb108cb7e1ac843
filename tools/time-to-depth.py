#!/usr/bin/env python3
"""Time to depth of `sable` with different thread counts: the quick check that helper
threads speed the search up (Lazy SMP), before games say whether they make it stronger.

For each thread count, in turn and repeated, searches every position with `go depth D`
after `ucinewgame` (a fresh table), and prints the wall time summed over the positions
(measured from `go` to `bestmove`) and the nodes of the last info lines. Run it on an
otherwise idle machine.

Usage: tools/time-to-depth.py [--engine CMD] [--depth 16] [--threads 1,2] [--repeat 2]
       [--hash 64] [--fens FILE]
The default positions are eight middlegame and endgame positions (below).
No dependencies beyond Python 3.
"""

import argparse
import subprocess
import time

POSITIONS = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pb1nbppp/1p2pn2/2pp4/3P4/1P1BPN2/PB1N1PPP/R2Q1RK1 w - - 0 10",
    "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 w - - 0 25",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
]


def run(engine, threads, depth, hash_mb, fens):
    """Seconds and nodes summed over `fens` at `threads` threads."""
    p = subprocess.Popen(engine.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        last_info = ""
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit(f"{engine} exited before '{prefix}'")
            if line.startswith(prefix):
                return last_info
            if " nodes " in line:
                last_info = line

    send("uci")
    until("uciok")
    send(f"setoption name Threads value {threads}")
    send(f"setoption name Hash value {hash_mb}")
    seconds, nodes = 0.0, 0
    for fen in fens:
        send("ucinewgame")
        send("position fen " + fen)
        send("isready")
        until("readyok")
        start = time.monotonic()
        send(f"go depth {depth}")
        info = until("bestmove")
        seconds += time.monotonic() - start
        nodes += int(info.split(" nodes ")[1].split()[0]) if info else 0
    send("quit")
    p.wait()
    return seconds, nodes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="target/release/sable")
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--fens", help="one FEN per line (text after `|` or `;` ignored)")
    args = ap.parse_args()
    fens = POSITIONS
    if args.fens:
        fens = [l.split("|")[0].split(";")[0].strip() for l in open(args.fens) if l.strip()]
    counts = [int(t) for t in args.threads.split(",")]
    times = {t: [] for t in counts}
    for _ in range(args.repeat):
        for t in counts:
            seconds, nodes = run(args.engine, t, args.depth, args.hash, fens)
            times[t].append(seconds)
            print(f"threads {t}, depth {args.depth}, {len(fens)} positions: {seconds:.2f} s, {nodes} nodes")
    base = sum(times[counts[0]]) / len(times[counts[0]])
    for t in counts[1:]:
        mean = sum(times[t]) / len(times[t])
        print(f"time to depth, {counts[0]} thread(s) over {t}: {base / mean:.2f}x")


if __name__ == "__main__":
    main()
