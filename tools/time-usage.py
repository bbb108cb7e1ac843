#!/usr/bin/env python3
"""Time use per move from `sable match` PGN files, as a table by time control and engine.

Reads the move comments the match runner writes (`{+0.15/15 0.503s [%clk 0:00:09.597]}`:
score/depth, time used, clock left) and the Termination tag, and prints for each time
control and engine: games, searched moves, mean / median / 95th percentile / largest
time per move, the least time left on the clock in any game, and losses on time. With
--phases it also splits the mean time per move by move number (1-20, 21-40, 41-60, 61+),
which shows whether the clock is spread over the game.

Usage: tools/time-usage.py [--phases] GAMES.pgn[.gz]...
No dependencies beyond Python 3.
"""

import gzip
import re
import statistics
import sys
from collections import defaultdict

TOKEN = re.compile(r"\{[^}]*\}|\([^)]*\)|\S+")
MOVE_NUMBER = re.compile(r"^\d+\.+$|^\d+\.\.\.$")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
USED = re.compile(r"(\d+(?:\.\d+)?)s\b")
CLOCK = re.compile(r"\[%clk (\d+):(\d+):(\d+(?:\.\d+)?)\]")


def games(path):
    """Yields (tags, movetext) for each game of a PGN file."""
    tags, lines = {}, []
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("["):
                if lines:
                    yield tags, " ".join(lines)
                    tags, lines = {}, []
                m = re.match(r'\[(\w+) "(.*)"\]', line)
                if m:
                    tags[m.group(1)] = m.group(2)
            elif line.strip():
                lines.append(line.strip())
    if tags:
        yield tags, " ".join(lines)


def moves_with_comments(movetext):
    """(ply, comment) for every move, ply 0 being the first move of the game."""
    ply, out, last = -1, [], None
    for tok in TOKEN.findall(movetext):
        if tok.startswith("{"):
            if last is not None:
                out.append((last, tok[1:-1]))
                last = None
        elif tok.startswith("(") or MOVE_NUMBER.match(tok) or tok in RESULTS or tok.startswith("$"):
            continue
        else:
            ply += 1
            last = ply
    return out


def main(argv):
    phases = "--phases" in argv
    paths = [a for a in argv if a != "--phases"]
    if not paths or paths[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if paths else 2
    for a in paths:
        if a.startswith("-"):
            print(f"time-usage.py: unknown option {a!r} (only --phases)", file=sys.stderr)
            return 2
    used = defaultdict(list)  # (tc, engine) -> [seconds]
    by_phase = defaultdict(list)  # (tc, engine, phase) -> [seconds]
    least_left = {}
    game_count = defaultdict(int)
    time_losses = defaultdict(int)
    for path in paths:
        try:
            records = list(games(path))
        except (OSError, EOFError) as e:  # gzip.BadGzipFile is an OSError
            print(f"time-usage.py: cannot read {path}: {e}", file=sys.stderr)
            return 1
        for tags, text in records:
            tc = tags.get("TimeControl", "?")
            white, black = tags.get("White", "?"), tags.get("Black", "?")
            black_first = " b " in tags.get("FEN", " w ")
            for name in (white, black):
                game_count[(tc, name)] += 1
            if tags.get("Termination") == "time forfeit":
                loser = white if tags.get("Result") == "0-1" else black
                time_losses[(tc, loser)] += 1
            for ply, comment in moves_with_comments(text):
                if comment.strip() == "book":
                    continue
                side = (ply + (1 if black_first else 0)) % 2
                name = white if side == 0 else black
                m = USED.search(comment)
                if not m:
                    continue
                t = float(m.group(1))
                used[(tc, name)].append(t)
                move_no = ply // 2 + 1
                phase = "1-20" if move_no <= 20 else "21-40" if move_no <= 40 else "41-60" if move_no <= 60 else "61+"
                by_phase[(tc, name, phase)].append(t)
                c = CLOCK.search(comment)
                if c:
                    left = int(c.group(1)) * 3600 + int(c.group(2)) * 60 + float(c.group(3))
                    key = (tc, name)
                    least_left[key] = min(least_left.get(key, left), left)
    header = f"{'time control':<14} {'engine':<12} {'games':>6} {'moves':>7} {'mean s':>8} {'median':>8} {'p95':>8} {'max':>8} {'least left':>11} {'time losses':>12}"
    print(header)
    print("-" * len(header))
    for (tc, name), ts in sorted(used.items()):
        ts_sorted = sorted(ts)
        p95 = ts_sorted[min(len(ts) - 1, int(0.95 * len(ts)))]
        left = least_left.get((tc, name))
        left_s = f"{left:.3f}" if left is not None else "-"
        print(
            f"{tc:<14} {name:<12} {game_count[(tc, name)]:>6} {len(ts):>7} {statistics.mean(ts):>8.3f} "
            f"{statistics.median(ts):>8.3f} {p95:>8.3f} {max(ts):>8.3f} {left_s:>11} {time_losses[(tc, name)]:>12}"
        )
        if phases:
            parts = []
            for ph in ("1-20", "21-40", "41-60", "61+"):
                v = by_phase.get((tc, name, ph))
                parts.append(f"moves {ph}: {statistics.mean(v):.3f}s" if v else f"moves {ph}: -")
            print(" " * 28 + "; ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
