#!/usr/bin/env python3
"""Move-matching accuracy: how often an engine limited to a player's rating plays the
move that player played.

This is the measure of human-likeness the Maia project uses: from ply 10 on (the
opening is book knowledge, not skill), each position of a set of rated games is given
to each engine with `UCI_LimitStrength` on and `UCI_Elo` set to the rating of the side
to move (clamped to the engine's range), and its move is compared with the game's.
Every engine sees the same positions, with the moves that led there (so repetitions
are known), in one run, so the engines' figures can be compared directly; the table
also gives the positions where exactly one engine matched (the paired difference).

The positions are a seeded uniform sample of all eligible positions (reservoir
sampling), so a run is reproducible and its error bars are binomial: the 95% interval
printed is Wilson's.

Usage:
  tools/move-matching.py [--positions N] [--seed S] [--movetime MS|--depth D|--nodes N] [--from-ply P]
      [--engine NAME=CMD]... [--option NAME:OPT=VALUE]... GAMES.pgn|DIR...

Defaults: 2,000 positions, seed 1, 100 ms a move, from ply 10, and the engines
`sable=target/release/sable` and `stockfish=stockfish` (or /usr/games/stockfish).
Each engine gets Threads=1 and Hash=16 unless `--option` says otherwise. Ratings
outside an engine's `UCI_Elo` range are clamped to it; the table counts them.

Needs python-chess (`pip install chess`).
"""

import argparse
import math
import os
import random
import shutil
import sys
from collections import defaultdict

import chess
import chess.engine
import chess.pgn

BANDS = [(0, 1599, "<1600"), (1600, 1799, "1600-1799"), (1800, 1999, "1800-1999"), (2000, 9999, "2000+")]


def wilson(k, n, z=1.96):
    """The 95% Wilson score interval of k successes in n trials, as (low, high)."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def pgn_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for name in sorted(os.listdir(p)):
                if name.endswith(".pgn"):
                    yield os.path.join(p, name)
        else:
            yield p


def sample_positions(paths, count, seed, from_ply):
    """A seeded reservoir sample of (moves so far, move played, mover's rating, game id)."""
    rng = random.Random(seed)
    sample, seen, skipped_games = [], 0, 0
    for path in pgn_files(paths):
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                if game.errors or game.headers.get("Variant", "Standard") != "Standard":
                    skipped_games += 1
                    continue
                try:
                    ratings = {
                        chess.WHITE: int(game.headers["WhiteElo"]),
                        chess.BLACK: int(game.headers["BlackElo"]),
                    }
                except (KeyError, ValueError):
                    skipped_games += 1
                    continue
                gid = game.headers.get("Site", path) + "#" + str(seen)
                moves = list(game.mainline_moves())
                board = game.board()
                for ply, mv in enumerate(moves):
                    if ply >= from_ply:
                        seen += 1
                        item = (board.fen(), tuple(moves[:ply]), mv, ratings[board.turn], gid)
                        if len(sample) < count:
                            sample.append(item)
                        else:
                            j = rng.randrange(seen)
                            if j < count:
                                sample[j] = item
                    board.push(mv)
    return sample, seen, skipped_games


def default_stockfish():
    return shutil.which("stockfish") or "/usr/games/stockfish"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="+", help="PGN files or folders of them")
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--movetime", type=int, default=100, help="milliseconds a move")
    ap.add_argument("--depth", type=int, help="a depth limit instead of --movetime")
    ap.add_argument("--nodes", type=int, help="a node limit instead of --movetime")
    ap.add_argument("--from-ply", type=int, default=10)
    ap.add_argument("--engine", action="append", default=[], metavar="NAME=CMD")
    ap.add_argument("--option", action="append", default=[], metavar="NAME:OPT=VALUE")
    args = ap.parse_args()

    engines = [e.split("=", 1) for e in args.engine] or [
        ["sable", "target/release/sable"],
        ["stockfish", default_stockfish()],
    ]
    extra = defaultdict(dict)
    for o in args.option:
        name, rest = o.split(":", 1)
        key, value = rest.split("=", 1)
        extra[name][key] = value

    if args.depth:
        limit, how = chess.engine.Limit(depth=args.depth), f"depth {args.depth}"
    elif args.nodes:
        limit, how = chess.engine.Limit(nodes=args.nodes), f"{args.nodes} nodes a move"
    else:
        limit, how = chess.engine.Limit(time=args.movetime / 1000), f"{args.movetime} ms a move"
    sample, eligible, skipped = sample_positions(args.games, args.positions, args.seed, args.from_ply)
    if not sample:
        sys.exit("no eligible positions (rated standard games with WhiteElo/BlackElo tags)")
    print(f"{len(sample)} positions sampled from {eligible} (ply >= {args.from_ply}); "
          f"{skipped} games skipped (unrated, variant or unreadable); {how}")

    hits = {}
    clamped = {}
    for name, cmd in engines:
        try:
            eng = chess.engine.SimpleEngine.popen_uci(cmd.split(), timeout=20)
        except (OSError, chess.engine.EngineError, TimeoutError) as e:
            sys.exit(f"{name}: '{cmd}' did not start as a UCI engine: {e!r}")
        try:
            if "UCI_Elo" not in eng.options:
                sys.exit(f"{name} ({cmd}) has no UCI_Elo option to limit it with")
            lo = eng.options["UCI_Elo"].min
            hi = eng.options["UCI_Elo"].max
            base = {"Threads": 1, "Hash": 16, "UCI_LimitStrength": True}
            base.update(extra[name])
            eng.configure({k: v for k, v in base.items() if k in eng.options})
            row, out_of_range = [], 0
            for i, (fen, history, played, rating, gid) in enumerate(sample):
                elo = min(max(rating, lo), hi)
                out_of_range += elo != rating
                eng.configure({"UCI_Elo": elo})
                board = chess.Board()
                for m in history:
                    board.push(m)
                assert board.fen() == fen
                result = eng.play(board, limit, game=gid)
                if result.move is None or result.move not in board.legal_moves:
                    sys.exit(f"{name} answered {result.move} in {fen}")
                row.append(result.move == played)
                if (i + 1) % 200 == 0:
                    print(f"  {name}: {i + 1}/{len(sample)}, {sum(row) / len(row):.1%} so far", file=sys.stderr)
            hits[name] = row
            clamped[name] = (out_of_range, lo, hi)
        finally:
            eng.quit()

    n = len(sample)
    print()
    print("| engine | matched | accuracy | 95% interval | ratings clamped |")
    print("| --- | ---: | ---: | --- | --- |")
    for name, _ in engines:
        k = sum(hits[name])
        lo, hi = wilson(k, n)
        c, elo_lo, elo_hi = clamped[name]
        print(f"| {name} | {k} / {n} | {k / n:.1%} | {lo:.1%} - {hi:.1%} | {c} outside {elo_lo}-{elo_hi} |")

    print()
    print("| rating of the mover | positions | " + " | ".join(name for name, _ in engines) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in engines) + " |")
    for lo_r, hi_r, label in BANDS:
        idx = [i for i, s in enumerate(sample) if lo_r <= s[3] <= hi_r]
        if not idx:
            continue
        cells = [f"{sum(hits[name][i] for i in idx) / len(idx):.1%}" for name, _ in engines]
        print(f"| {label} | {len(idx)} | " + " | ".join(cells) + " |")

    if len(engines) >= 2:
        (a, _), (b, _) = engines[0], engines[1]
        only_a = sum(x and not y for x, y in zip(hits[a], hits[b]))
        only_b = sum(y and not x for x, y in zip(hits[a], hits[b]))
        # The paired difference and its 95% interval (normal approximation over the
        # discordant positions, as in McNemar's test).
        diff = (only_a - only_b) / n
        se = math.sqrt(only_a + only_b - (only_a - only_b) ** 2 / n) / n
        print()
        print(f"only {a} matched: {only_a}; only {b} matched: {only_b}; "
              f"{a} - {b} = {diff:+.1%} ± {1.96 * se:.1%} (95%)")


if __name__ == "__main__":
    main()
