#!/usr/bin/env python3
"""Elo with 95 % error bars from `sable match` PGN files, several runs combined.

`sable match` prints its result when a run ends; the results READMEs also quote runs
combined (two runs of 200 games against the same opponent, say). This script gives
those figures back from the PGNs alone, for each pair of players:

- wins, draws and losses of the first player named, its score and Elo with the error
  bar from games (trinomial, as cutechess-cli);
- with `-repeat -games 2` (each opening played twice, colours swapped), the game pairs
  by pentanomial class [0, 0.5, 1, 1.5, 2 points] and the Elo with the error bar from
  pairs, which removes the variance the openings add (as fastchess and OpenBench).

The two games of a pair are the two games of one `Round` between the same players in
one file; files are never paired with each other, so runs made with the same -srand or
rounds numbered alike combine correctly. A round with one game only (a run stopped
early) counts in the games figures, not in the pairs. Gzipped files are read as they are.

Usage: tools/match-elo.py [--player NAME] GAMES.pgn[.gz]...
The figures are from the side of NAME where it plays, else of the player whose name
sorts first.
No dependencies beyond Python 3. The statistics are those of `crates/arena/src/stats.rs`,
written again here; `.ci/run` checks that both give the same figures for a match it plays.
"""

import gzip
import math
import re
import sys
from collections import defaultdict

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
Z95 = 1.959963984540054
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def headers(path):
    """Yields the tag dictionary of each game of a PGN file."""
    opener = gzip.open if path.endswith(".gz") else open
    tags = {}
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                tags[m.group(1)] = m.group(2)
            elif tags and line.strip() and not line.startswith("["):
                yield tags
                tags = {}
    if tags:
        yield tags


def elo(score):
    """Logistic Elo of an expected score; unbounded at 0 % and 100 %."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def estimate(pdf):
    """Elo and the half-width of its 95 % interval from (value, count) pairs."""
    n = sum(w for _, w in pdf)
    mu = sum(a * w for a, w in pdf) / n
    var = sum(w * (a - mu) ** 2 for a, w in pdf) / n
    stderr = math.sqrt(var / n)
    lo = min(max(mu - Z95 * stderr, 0.0), 1.0)
    hi = min(max(mu + Z95 * stderr, 0.0), 1.0)
    return elo(mu), (elo(hi) - elo(lo)) / 2.0


def fmt(value, error):
    if math.isinf(value) or math.isinf(error):
        return "%+.1f (unbounded)" % value
    return "%+.1f +- %.1f" % (value, error)


def main(paths, player=None):
    # (first, second) -> [wins, draws, losses] of `first`; and pentanomial counts.
    wdl = defaultdict(lambda: [0, 0, 0])
    penta = defaultdict(lambda: [0] * 5)
    for path in paths:
        rounds = defaultdict(list)
        for tags in headers(path):
            points = POINTS.get(tags.get("Result", "*"))
            if points is None:
                continue
            white, black = tags.get("White", "?"), tags.get("Black", "?")
            first, second = sorted((white, black))
            if player == second:
                first, second = second, first
            mine = points[0] if white == first else points[1]
            key = (first, second)
            wdl[key][{1.0: 0, 0.5: 1, 0.0: 2}[mine]] += 1
            rounds[(key, tags.get("Round", "?"))].append(mine)
        for (key, _), scores in rounds.items():
            if len(scores) == 2:
                penta[key][int(round(2 * sum(scores)))] += 1
    if not wdl:
        print("no finished games in " + " ".join(paths), file=sys.stderr)
        return 1
    for key in sorted(wdl):
        w, d, l = wdl[key]
        n = w + d + l
        score = (w + 0.5 * d) / n
        e, err = estimate([(1.0, w), (0.5, d), (0.0, l)])
        print("%s vs %s: %d games, +%d =%d -%d, %.1f %%, Elo %s (games)"
              % (key[0], key[1], n, w, d, l, 100.0 * score, fmt(e, err)))
        p = penta[key]
        if sum(p):
            e, err = estimate([(i / 4.0, c) for i, c in enumerate(p)])
            print("  %d pairs, pentanomial %s, Elo %s (pairs)" % (sum(p), p, fmt(e, err)))
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if args else 2)
    who = None
    if args[0] == "--player":
        if len(args) < 3:
            print("usage: tools/match-elo.py [--player NAME] GAMES.pgn...", file=sys.stderr)
            sys.exit(2)
        who, args = args[1], args[2:]
    sys.exit(main(args, who))
