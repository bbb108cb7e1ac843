#!/usr/bin/env python3
"""Fits the model of human move choice that Sable's limited levels draw their moves from
(`crates/engine/src/strength/human.rs`): which of the four lines the level searched a
person of a given rating plays.

Two steps:

  tools/human-model.py dump [--engine CMD] [--positions 5000] [--seed 2] [--movetime 100]
                            [--test-sample] [--out lines.json] GAMES...
      Samples positions of rated games (ply 10 on) as tools/move-matching.py does, but
      from the games that move-matching's default sample (2,000 positions, seed 1) does
      not touch, so that its figures stay a held-out test. Each position goes to Sable
      limited to the mover's rating (UCI_LimitStrength, UCI_Elo) with MultiPV 4, and the
      four lines (first move, score) are written with the move the person played. The
      search stops at the level's depth and node caps or after --movetime, whichever
      comes first, as in move-matching.py's runs.

  tools/human-model.py fit lines.json [--test test.json]
      Fits the conditional logit by maximum likelihood (gradient ascent, a little L2) and
      prints the weights as `human.rs` takes them; with --test (a dump of move-matching's
      own sample: `dump --test-sample`), also how often the likeliest line is the
      person's move there, against the best line's rate.

The features here and in `human::features` must stay the same, in the same order.
Needs python-chess. Takes about 10 minutes for 5,000 positions on one core (dump) and a
minute (fit).
"""

import argparse
import importlib.util
import json
import math
import os
import re
import sys
from pathlib import Path

import chess
import chess.engine

HERE = os.path.dirname(os.path.abspath(__file__))
VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
NAMES = ["loss", "loss * skill / 10", "best line", "capture", "recapture", "check", "knight",
         "bishop", "rook", "queen", "king", "castling", "ranks forward / 2", "piece attacked",
         "value taken / 3"]


def read_calibration():
    """strength::CALIBRATION and MAX_LIMITED_SKILL, read from the engine's source so that
    the two never disagree."""
    src = (Path(__file__).resolve().parent.parent
           / "crates/engine/src/strength/mod.rs").read_text()
    table = re.search(r"pub const CALIBRATION: \[\(f64, f64\); \d+\] = \[(.*?)\];", src, re.S)
    top = re.search(r"pub const MAX_LIMITED_SKILL: f64 = ([\d.]+);", src)
    if not table or not top:
        sys.exit("human-model.py: CALIBRATION or MAX_LIMITED_SKILL not found in strength/mod.rs")
    pairs = re.findall(r"\(([\d.]+), ([\d.]+)\)", table.group(1))
    return [(float(e), float(s)) for e, s in pairs], float(top.group(1))


CALIBRATION, MAX_LIMITED_SKILL = read_calibration()


def skill(rating):
    """Sable's skill for a rating (strength::elo_to_skill: linear between the anchors and
    beyond them, clamped)."""
    i = sum(1 for e, _ in CALIBRATION[1:-1] if e <= rating)
    (e0, s0), (e1, s1) = CALIBRATION[i], CALIBRATION[i + 1]
    return min(max(s0 + (rating - e0) * (s1 - s0) / (e1 - e0), 0.0), MAX_LIMITED_SKILL)


def features(board, last, mv, loss, is_best, s):
    """human::features, with python-chess."""
    loss = min(max(loss, 0), 500) / 100
    cap = board.is_capture(mv)
    pt = board.piece_type_at(mv.from_square)
    forward = chess.square_rank(mv.to_square) - chess.square_rank(mv.from_square)
    if board.turn == chess.BLACK:
        forward = -forward
    taken = 0
    if cap:
        taken = 1 if board.is_en_passant(mv) else VALUE[board.piece_type_at(mv.to_square)]
    return [
        loss, loss * s / 10, float(is_best), float(cap),
        float(cap and last is not None and mv.to_square == last.to_square),
        float(board.gives_check(mv)),
        *[float(pt == t) for t in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)],
        float(board.is_castling(mv)), forward / 2,
        float(board.is_attacked_by(not board.turn, mv.from_square)), taken / 3,
    ]


def move_matching():
    spec = importlib.util.spec_from_file_location("mm", os.path.join(HERE, "move-matching.py"))
    mm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mm)
    return mm


def dump(args):
    mm = move_matching()
    test, _, _ = mm.sample_positions(args.games, 2000, 1, 10)
    if args.test_sample:
        sample = test
    else:
        held_out = {t[4].split("#")[0] for t in test}
        sample, _, _ = mm.sample_positions(args.games, 2 * args.positions, args.seed, 10)
        sample = [s for s in sample if s[4].split("#")[0] not in held_out][: args.positions]
    eng = chess.engine.SimpleEngine.popen_uci(args.engine.split())
    eng.configure({"Threads": 1, "Hash": 16, "UCI_LimitStrength": True})
    rows = []
    for i, (fen, history, played, rating, gid) in enumerate(sample):
        eng.configure({"UCI_Elo": min(max(rating, 1350), 2850)})
        board = chess.Board()
        for m in history:
            board.push(m)
        infos = eng.analyse(board, chess.engine.Limit(time=args.movetime / 1000), multipv=4, game=gid)
        lines = [(inf["pv"][0].uci(), inf["score"].relative.score(mate_score=30000))
                 for inf in infos if inf.get("pv")]
        lines.sort(key=lambda x: -x[1])
        rows.append({"fen": fen, "last": history[-1].uci() if history else None,
                     "played": played.uci(), "rating": rating, "lines": lines})
        if (i + 1) % 500 == 0:
            print(f"{i + 1}/{len(sample)}", file=sys.stderr)
    eng.quit()
    with open(args.out, "w") as f:
        json.dump(rows, f)
    print(f"{len(rows)} positions written to {args.out}")


def design(rows):
    """Per position: the feature rows of its lines and the index of the person's move."""
    data = []
    for r in rows:
        if not r["lines"]:
            continue
        board = chess.Board(r["fen"])
        last = chess.Move.from_uci(r["last"]) if r["last"] else None
        best = r["lines"][0][1]
        xs = [features(board, last, chess.Move.from_uci(m), best - sc, i == 0, skill(r["rating"]))
              for i, (m, sc) in enumerate(r["lines"])]
        played = [i for i, (m, _) in enumerate(r["lines"]) if m == r["played"]]
        data.append((xs, played[0] if played else None))
    return data


def utilities(w, xs):
    return [sum(a * b for a, b in zip(w, x)) for x in xs]


def fit(args):
    with open(args.lines) as f:
        data = design(json.load(f))
    chosen = [d for d in data if d[1] is not None]
    w = [0.0] * len(NAMES)
    for _ in range(args.epochs):
        grad, ll = [0.0] * len(w), 0.0
        for xs, y in chosen:
            u = utilities(w, xs)
            top = max(u)
            e = [math.exp(v - top) for v in u]
            z = sum(e)
            ll += math.log(e[y] / z)
            for i, x in enumerate(xs):
                c = (i == y) - e[i] / z
                for j in range(len(w)):
                    grad[j] += c * x[j]
        w = [wj + args.lr * (g / len(chosen) - args.l2 * wj) for wj, g in zip(w, grad)]
    print(f"{len(data)} positions, {len(chosen)} with the person's move among the lines; "
          f"mean log-likelihood {ll / len(chosen):.4f}")
    print("pub const WEIGHTS: [f64; FEATURES] = [")
    for name, x in zip(NAMES, w):
        print(f"    {x:.3f}, // {name}")
    print("];")
    if args.test:
        with open(args.test) as f:
            test = design(json.load(f))
        likeliest = sum(1 for xs, y in test if y is not None
                        and max(range(len(xs)), key=lambda i: utilities(w, xs)[i]) == y)
        best = sum(1 for _, y in test if y == 0)
        print(f"held out, {len(test)} positions: likeliest line matched {likeliest / len(test):.1%}, "
              f"best line {best / len(test):.1%}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("games", nargs="+")
    d.add_argument("--engine", default="target/release/sable")
    d.add_argument("--positions", type=int, default=5000)
    d.add_argument("--seed", type=int, default=2)
    d.add_argument("--movetime", type=int, default=100,
                   help="milliseconds a position, as move-matching.py's default")
    d.add_argument("--test-sample", action="store_true",
                   help="dump move-matching's own sample instead (for fit --test)")
    d.add_argument("--out", default="lines.json")
    f = sub.add_parser("fit")
    f.add_argument("lines")
    f.add_argument("--test")
    f.add_argument("--epochs", type=int, default=300)
    f.add_argument("--lr", type=float, default=0.5)
    f.add_argument("--l2", type=float, default=1e-3)
    args = ap.parse_args()
    dump(args) if args.cmd == "dump" else fit(args)


if __name__ == "__main__":
    main()
