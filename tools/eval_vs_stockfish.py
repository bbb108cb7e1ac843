#!/usr/bin/env python3
"""Sanity check of the static evaluation against Stockfish's search scores.

Samples positions from a `FEN | result` file (tools/texel_positions.py), scores each
with `sable eval --fen` and with Stockfish at a fixed depth (mates skipped, both
clamped to +/-1500), and prints the Pearson correlation and how often both put the
position in the same band (White better by >50 cp, Black better, or level).

Usage: eval_vs_stockfish.py SABLE_BINARY POSITIONS [COUNT] [DEPTH]
"""
import random
import statistics
import subprocess
import sys

import chess
import chess.engine


def main():
    sable, path = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    depth = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    random.seed(1)
    lines = [l for l in open(path, encoding="utf-8").read().splitlines() if l.strip()]
    sample = random.sample(lines, min(count, len(lines)))
    sf = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    ours, theirs = [], []
    for line in sample:
        fen = line.split("|")[0].strip()
        score = sf.analyse(chess.Board(fen), chess.engine.Limit(depth=depth))["score"].white()
        if score.is_mate():
            continue
        out = subprocess.run([sable, "eval", "--fen", fen], capture_output=True, text=True, check=True).stdout
        white = int(out.strip().splitlines()[-1].split()[1])
        ours.append(max(-1500, min(1500, white)))
        theirs.append(max(-1500, min(1500, score.score())))
    sf.quit()
    band = lambda v: (v > 50) - (v < -50)
    agree = sum(band(a) == band(b) for a, b in zip(ours, theirs))
    print(f"{len(ours)} positions, Stockfish depth {depth}: Pearson r = {statistics.correlation(ours, theirs):.3f}, "
          f"same band {agree}/{len(ours)}")


if __name__ == "__main__":
    main()
