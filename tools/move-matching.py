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

Besides the whole sample, the results are given by the mover's rating band
(`--bands LOW:HIGH:WIDTH`, 1100:2200:100 by default, with the ratings below and above
as bands of their own) and by the phase of the game, each with every engine's
accuracy, its Wilson interval and the first two engines' paired difference:
  opening     ply below 30 and not yet an endgame;
  endgame     at most 26 points of pieces other than pawns and kings left on the board
              (N and B 3, R 5, Q 9; two rooks and a minor a side is 26);
  middlegame  the rest.
`--json FILE` writes every sampled position with each engine's move, for other cuts;
`--compare NEW.json OLD.json [--compare-engine NAME]` reads two such files of runs on the
same positions and gives one engine's (default `sable`) accuracy in each, paired, in the
same tables, without running anything.

Needs python-chess (`pip install chess`).
"""

import argparse
import math
import os
import random
import shlex
import shutil
import sys
from collections import defaultdict

import chess
import chess.engine
import chess.pgn

PIECE_POINTS = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def bands(spec):
    """Rating bands from `LOW:HIGH:WIDTH`: below LOW, LOW..HIGH in steps, HIGH and up."""
    try:
        low, high, width = (int(x) for x in spec.split(":"))
    except ValueError:
        sys.exit(f"--bands {spec!r}: expected LOW:HIGH:WIDTH, three integers")
    if width <= 0 or high <= low:
        sys.exit(f"--bands {spec!r}: WIDTH must be positive and HIGH above LOW")
    out = [(-10**9, low - 1, f"<{low}")]
    for lo in range(low, high, width):
        hi = min(lo + width, high) - 1
        out.append((lo, hi, f"{lo}-{hi}"))
    out.append((high, 10**9, f"{high}+"))
    return out


def phase(board, ply):
    """The game's phase at a position (see the module comment)."""
    points = sum(PIECE_POINTS.get(p.piece_type, 0) for p in board.piece_map().values())
    if points <= 26:
        return "endgame"
    return "opening" if ply < 30 else "middlegame"


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
                        item = (board.fen(), tuple(moves[:ply]), mv, ratings[board.turn], gid,
                                phase(board, ply))
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
    ap.add_argument("games", nargs="*", help="PGN files or folders of them")
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--movetime", type=int, default=100, help="milliseconds a move")
    ap.add_argument("--depth", type=int, help="a depth limit instead of --movetime")
    ap.add_argument("--nodes", type=int, help="a node limit instead of --movetime")
    ap.add_argument("--from-ply", type=int, default=10)
    ap.add_argument("--engine", action="append", default=[], metavar="NAME=CMD")
    ap.add_argument("--option", action="append", default=[], metavar="NAME:OPT=VALUE")
    ap.add_argument("--bands", default="1100:2200:100", metavar="LOW:HIGH:WIDTH")
    ap.add_argument("--json", metavar="FILE", help="write every position and each engine's move")
    ap.add_argument("--compare", nargs=2, metavar=("NEW.json", "OLD.json"),
                    help="compare two runs' --json files (gzipped or not) instead of running engines")
    ap.add_argument("--compare-engine", default="sable", metavar="NAME")
    args = ap.parse_args()
    rating_bands = bands(args.bands)
    if args.compare:
        compare(*args.compare, args.compare_engine, rating_bands)
        return
    if not args.games:
        ap.error("give PGN files or folders, or --compare NEW.json OLD.json")

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
    answers = {}
    clamped = {}
    for name, cmd in engines:
        try:
            eng = chess.engine.SimpleEngine.popen_uci(shlex.split(cmd), timeout=20)
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
            row, moves, out_of_range = [], [], 0
            for i, (fen, history, played, rating, gid, _) in enumerate(sample):
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
                moves.append(result.move.uci())
                if (i + 1) % 200 == 0:
                    print(f"  {name}: {i + 1}/{len(sample)}, {sum(row) / len(row):.1%} so far", file=sys.stderr)
            hits[name] = row
            answers[name] = moves
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

    names = [name for name, _ in engines]
    report(names, hits, [s[3] for s in sample], [s[5] for s in sample], rating_bands)

    if args.json:
        import json
        rows = [{"fen": s[0], "played": s[2].uci(), "rating": s[3], "game": s[4], "phase": s[5],
                 "moves": {name: answers[name][i] for name in names}}
                for i, s in enumerate(sample)]
        with open(args.json, "w") as f:
            json.dump({"how": how, "positions": rows}, f)


def report(names, hits, ratings, phases, rating_bands):
    """The tables by rating band and by phase, and the first two engines' paired
    difference over all positions."""
    groups = [(label, [i for i, r in enumerate(ratings) if lo_r <= r <= hi_r])
              for lo_r, hi_r, label in rating_bands]
    table("rating of the mover", groups, names, hits)
    table("phase", [(p, [i for i, q in enumerate(phases) if q == p])
                    for p in ["opening", "middlegame", "endgame"]], names, hits)
    if len(names) >= 2:
        a, b = names[0], names[1]
        diff, half, only_a, only_b = paired(hits[a], hits[b], range(len(ratings)))
        print()
        print(f"only {a} matched: {only_a}; only {b} matched: {only_b}; "
              f"{a} - {b} = {diff:+.1%} ± {half:.1%} (95%)")


def compare(new_path, old_path, engine, rating_bands):
    """Two runs' `--json` files on the same positions: one engine's moves in the newer
    run against the older, paired, by band and phase."""
    import gzip
    import json

    def load(path):
        with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
            return json.load(f)["positions"]

    new, old = load(new_path), load(old_path)
    if [r["fen"] for r in new] != [r["fen"] for r in old]:
        sys.exit(f"{new_path} and {old_path} are not runs on the same positions")
    if any(engine not in r["moves"] for r in new + old):
        sys.exit(f"engine {engine!r} is not in both runs")
    names = [f"{engine} (new)", f"{engine} (old)"]
    hits = {names[0]: [r["moves"][engine] == r["played"] for r in new],
            names[1]: [r["moves"][engine] == r["played"] for r in old]}
    n = len(new)
    print(f"{n} positions; {new_path} against {old_path}")
    print()
    print("| run | matched | accuracy | 95% interval |")
    print("| --- | ---: | ---: | --- |")
    for name in names:
        k = sum(hits[name])
        lo, hi = wilson(k, n)
        print(f"| {name} | {k} / {n} | {k / n:.1%} | {lo:.1%} - {hi:.1%} |")
    report(names, hits, [r["rating"] for r in new], [r["phase"] for r in new], rating_bands)


def paired(x, y, idx):
    """The paired difference x - y over positions `idx` and its 95% half-width (normal
    approximation over the discordant positions, as in McNemar's test), with the counts
    of positions only x and only y matched."""
    idx = list(idx)
    n = len(idx)
    only_x = sum(x[i] and not y[i] for i in idx)
    only_y = sum(y[i] and not x[i] for i in idx)
    if n == 0:
        return 0.0, 0.0, 0, 0
    se = math.sqrt(max(only_x + only_y - (only_x - only_y) ** 2 / n, 0)) / n
    return (only_x - only_y) / n, 1.96 * se, only_x, only_y


def table(what, groups, names, hits):
    """One row per non-empty group: positions, each engine's accuracy with its Wilson
    interval, and the first two engines' paired difference."""
    print()
    pair = len(names) >= 2
    head = f"| {what} | positions | " + " | ".join(names) + (f" | {names[0]} - {names[1]} |" if pair else " |")
    print(head)
    print("| --- | ---: | " + " | ".join("---:" for _ in names) + (" | ---: |" if pair else " |"))
    for label, idx in groups:
        if not idx:
            continue
        cells = []
        for name in names:
            k = sum(hits[name][i] for i in idx)
            lo, hi = wilson(k, len(idx))
            cells.append(f"{k / len(idx):.1%} ({lo:.0%}-{hi:.0%})")
        row = f"| {label} | {len(idx)} | " + " | ".join(cells)
        if pair:
            d, h, _, _ = paired(hits[names[0]], hits[names[1]], idx)
            row += f" | {d:+.1%} ± {h:.1%}"
        print(row + " |")


if __name__ == "__main__":
    main()
