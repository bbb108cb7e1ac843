#!/usr/bin/env python3
"""Static evaluations (the HCE and any number of nets) against Stockfish's search.

Samples positions from the lichess games in testdata/pgn/lichess (plies 16-90, not in
check), or with --fens from a file of `FEN | ...` lines (tools/texel_positions.py writes
them), scores each with Stockfish at a fixed depth and with `sable eval --fen`, once
with the hand-crafted evaluation and once per net (`--eval-file NET`, endgame knowledge
included), all for the side to move, mates left out, clamped to +/-1500 cp. Prints for
each evaluator the Pearson correlation with Stockfish, the mean absolute difference, how
often both put the position in the same band (side to move better by more than 50 cp,
worse, or level), and k in `Stockfish ~ k * eval` (least squares through 0): k well
below the HCE's means the net's centipawns are larger than the HCE's, which the search's
margins were tuned for.

Usage: tools/nets_vs_stockfish.py [--positions N] [--depth D] [--seed S] [--fens FILE]
       [NET.nnue...]
Needs python-chess and Stockfish (`stockfish` on PATH or /usr/games/stockfish), and
target/release/sable (`cargo build --release`).
"""

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess

import chess
import chess.engine
import chess.pgn

GAMES = "testdata/pgn/lichess"
SABLE = "target/release/sable"


def sample_fens(count, seed):
    rng = random.Random(seed)
    fens = []
    for name in sorted(os.listdir(GAMES)):
        with open(os.path.join(GAMES, name), encoding="utf-8") as f:
            while len(fens) < 20 * count:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                board = game.board()
                for ply, move in enumerate(game.mainline_moves()):
                    board.push(move)
                    if 16 <= ply <= 90 and not board.is_check() and rng.random() < 0.03:
                        fens.append(board.fen())
    return rng.sample(fens, min(count, len(fens)))


def fens_from_file(path, count, seed):
    lines = [l.split("|")[0].strip() for l in open(path, encoding="utf-8") if l.strip()]
    lines = [f for f in lines if not chess.Board(f).is_check()]
    return random.Random(seed).sample(lines, min(count, len(lines)))


def sable_eval(fen, net):
    args = [SABLE, "eval", "--fen", fen] + (["--eval-file", net] if net else [])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    if net:
        m = re.search(r"with endgame knowledge ([-+]?\d+) cp", out)
    else:
        m = re.search(r"([-+]?\d+) cp for the side to move", out)
    if m is None:
        raise SystemExit(f"unexpected `sable eval` output for {fen}:\n{out}")
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("nets", nargs="*")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--fens", help="positions from this `FEN | ...` file instead of the games")
    args = ap.parse_args()
    clamp = lambda v: max(-1500, min(1500, v))
    stockfish = shutil.which("stockfish") or "/usr/games/stockfish"
    evaluators = [None] + args.nets
    columns = {e: [] for e in evaluators}
    reference = []
    with chess.engine.SimpleEngine.popen_uci(stockfish) as sf:
        fens = (
            fens_from_file(args.fens, args.positions, args.seed)
            if args.fens
            else sample_fens(args.positions, args.seed)
        )
        for fen in fens:
            board = chess.Board(fen)
            score = sf.analyse(board, chess.engine.Limit(depth=args.depth))["score"].pov(board.turn)
            if score.is_mate():
                continue
            reference.append(clamp(score.score()))
            for e in evaluators:
                columns[e].append(clamp(sable_eval(fen, e)))
    band = lambda v: (v > 50) - (v < -50)
    print(f"{len(reference)} positions, Stockfish depth {args.depth}")
    for e, values in columns.items():
        r = statistics.correlation(values, reference)
        mad = statistics.mean(abs(a - b) for a, b in zip(values, reference))
        same = sum(band(a) == band(b) for a, b in zip(values, reference))
        k = sum(a * b for a, b in zip(values, reference)) / sum(a * a for a in values)
        print(f"{e or 'hce'}: pearson {r:.3f}, mean |diff| {mad:.0f} cp, "
              f"same band {same}/{len(values)}, stockfish ~ {k:.2f} * eval")


if __name__ == "__main__":
    main()
