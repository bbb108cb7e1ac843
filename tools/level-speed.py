#!/usr/bin/env python3
"""How long a limited level takes for a move on a real clock, against full strength.

A level must never think longer than full strength would in the same position with the
same clock. This replays positions of real games with the clocks the player to move had
there (the `[%clk]` comments `sable match` writes, so a 10+0.1 match gives 10+0.1
clocks), and gives each position to the engine once per setting: full strength
(`UCI_LimitStrength` off) and each `--elo`. Every setting sees the same positions with
the same clocks, after `ucinewgame`, so the times are paired: the table gives each
setting's mean, median, 95th percentile and largest time per move, its mean against
full strength's on the same positions, and in how many positions it took longer than
full strength did (by more than 10 % and 10 ms, to leave out timer noise) and the
largest excess with its pair of times.

Positions are a seeded sample of the moves that have a clock comment on both sides'
previous moves (out of book), from all games of the files.

Usage:
  tools/level-speed.py [--positions N] [--seed S] [--elo E,E,...] [--engine CMD]
      [--threads T] [--hash MB] GAMES.pgn[.gz]...

Defaults: 60 positions, seed 1, `--elo 1500,2000,2500`, `target/release/sable`, one
thread, Hash 16. The increment is read from each game's TimeControl tag (`10+0.1`).
Run it on an otherwise idle machine: the times are wall-clock.

Needs python-chess (`pip install chess`).
"""

import argparse
import gzip
import random
import statistics
import sys
import time

import chess
import chess.engine
import chess.pgn


def open_pgn(path):
    """A text stream over a PGN file, gzipped or not."""
    opener = gzip.open if path.endswith(".gz") else open
    return opener(path, "rt", encoding="utf-8", errors="replace")


def increment(tc):
    """The increment in seconds of a `BASE+INC` TimeControl tag; None if it has none."""
    try:
        _, inc = tc.split("+")
        return float(inc)
    except ValueError:
        return None


def clocked_positions(paths):
    """Yields (board, white_clock, black_clock, increment) before every move whose side
    and whose opponent both have a clock from an earlier move of this game."""
    for path in paths:
        with open_pgn(path) as stream:
            while True:
                game = chess.pgn.read_game(stream)
                if game is None:
                    break
                inc = increment(game.headers.get("TimeControl", ""))
                if inc is None or game.errors:
                    continue
                board = game.board()
                clocks = {chess.WHITE: None, chess.BLACK: None}
                for node in game.mainline():
                    mover = board.turn
                    if clocks[chess.WHITE] is not None and clocks[chess.BLACK] is not None:
                        yield board.copy(), clocks[chess.WHITE], clocks[chess.BLACK], inc
                    board.push(node.move)
                    clock = node.clock()
                    if clock is not None:
                        clocks[mover] = clock


def sample(paths, count, seed):
    """A seeded uniform sample (reservoir) of `count` clocked positions."""
    rng = random.Random(seed)
    chosen = []
    for seen, item in enumerate(clocked_positions(paths)):
        if len(chosen) < count:
            chosen.append(item)
        else:
            j = rng.randrange(seen + 1)
            if j < count:
                chosen[j] = item
    return chosen


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--elo", default="1500,2000,2500")
    parser.add_argument("--engine", default="target/release/sable")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--hash", type=int, default=16)
    args = parser.parse_args()
    try:
        elos = [int(e) for e in args.elo.split(",") if e]
    except ValueError:
        sys.exit(f"--elo {args.elo!r}: expected comma-separated integers")

    positions = sample(args.games, args.positions, args.seed)
    if not positions:
        sys.exit("no position with clocks on both sides in the input")
    settings = [("full strength", None)] + [(f"UCI_Elo {e}", e) for e in elos]

    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Threads": args.threads, "Hash": args.hash})
    times = {name: [] for name, _ in settings}
    illegal = 0
    try:
        for board, wclock, bclock, inc in positions:
            limit = chess.engine.Limit(
                white_clock=wclock, black_clock=bclock, white_inc=inc, black_inc=inc
            )
            for name, elo in settings:
                options = {"UCI_LimitStrength": elo is not None}
                if elo is not None:
                    options["UCI_Elo"] = elo
                engine.configure(options)
                start = time.perf_counter()
                result = engine.play(board, limit, game=object())
                times[name].append(time.perf_counter() - start)
                if result.move not in board.legal_moves:
                    illegal += 1
    finally:
        engine.quit()

    full = times["full strength"]
    print(
        f"{len(positions)} positions from {len(args.games)} file(s), clocks as in the games, "
        f"one search each per setting (Threads {args.threads}, Hash {args.hash})\n"
    )
    print(
        "| setting | mean ms | median ms | 95th pct ms | largest ms | mean / full strength's "
        "| slower than full | most over full, ms |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, _ in settings:
        t = times[name]
        slower = sum(1 for a, b in zip(t, full) if a > 1.1 * b + 0.010)
        over, a, b = max((a - b, a, b) for a, b in zip(t, full))
        print(
            f"| {name} | {1000 * statistics.mean(t):.0f} | {1000 * statistics.median(t):.0f} | "
            f"{1000 * percentile(t, 0.95):.0f} | {1000 * max(t):.0f} | "
            f"{statistics.mean(t) / statistics.mean(full):.2f} | {slower} / {len(t)} | "
            f"{1000 * over:+.0f} ({1000 * a:.0f} against {1000 * b:.0f}) |"
        )
    print(f"\nillegal moves: {illegal}")
    return 1 if illegal else 0


if __name__ == "__main__":
    sys.exit(main())
