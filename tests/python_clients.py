#!/usr/bin/env python3
"""Drives Sable with python-chess's own protocol clients: its XBoard (CECP) client over
`sable xboard` and its UCI client over `sable` (first-line dispatch) and `sable uci`.
Every move and PV is checked by python-chess's rules. Usage: python_clients.py SABLE."""

import sys

import chess
import chess.engine

SABLE = sys.argv[1]
FAST = chess.engine.Limit(time=0.05)


def check_pv(board, info):
    pv = info.get("pv", [])
    b = board.copy()
    for m in pv:
        assert m in b.legal_moves, f"pv move {m} illegal in {b.fen()}"
        b.push(m)


def exercise(engine, protocol):
    board = chess.Board()
    for _ in range(10):
        r = engine.play(board, FAST, info=chess.engine.INFO_ALL)
        assert r.move in board.legal_moves, (protocol, r.move, board.fen())
        board.push(r.move)
    # Clocks, then a fixed depth with thinking output.
    r = engine.play(board, chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.1, black_inc=0.1))
    assert r.move in board.legal_moves
    r = engine.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
    assert r.move in board.legal_moves
    assert r.info.get("depth", 0) <= 3, r.info
    # Going back in the game (xboard: `remove` and `undo`).
    back = board.copy()
    back.pop()
    back.pop()
    r = engine.play(back, FAST)
    assert r.move in back.legal_moves
    back.pop()
    r = engine.play(back, FAST)
    assert r.move in back.legal_moves
    # Analysis with a PV and a score.
    info = engine.analyse(board, chess.engine.Limit(depth=5))
    assert info["depth"] >= 5 and "score" in info, info
    check_pv(board, info)
    # Mate in one: the score in the protocol's mate convention, and the move.
    mate = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    info = engine.analyse(mate, chess.engine.Limit(depth=4))
    assert info["score"].white() == chess.engine.Mate(1), (protocol, info)
    r = engine.play(mate, chess.engine.Limit(depth=4))
    assert r.move == chess.Move.from_uci("d1d8"), r
    # Black to move is mated in two (1...Kh8 2.Ra8#, 1...Kf8 2.Re1 3.Re8#): negative mate.
    mated = chess.Board("6k1/8/6K1/8/8/8/8/R7 b - - 0 1")
    info = engine.analyse(mated, chess.engine.Limit(depth=8))
    assert info["score"].relative in (chess.engine.Mate(-2), chess.engine.Mate(-3)), (protocol, info)
    # Pondering and Chess960.
    r = engine.play(board, FAST, ponder=True)
    assert r.move in board.legal_moves
    frc = chess.Board.from_chess960_pos(100)
    for _ in range(6):
        r = engine.play(frc, FAST)
        assert r.move in frc.legal_moves
        frc.push(r.move)
    print(f"{protocol}: ok ({engine.id.get('name')})")


def main():
    with chess.engine.SimpleEngine.popen_xboard([SABLE, "xboard"]) as engine:
        assert engine.id["name"].startswith("Sable"), engine.id
        engine.configure({"memory": 32, "cores": 1, "MoveOverhead": 30})
        exercise(engine, "xboard")
    for cmd in ([SABLE], [SABLE, "uci"]):
        with chess.engine.SimpleEngine.popen_uci(cmd) as engine:
            assert engine.id["name"].startswith("Sable"), engine.id
            engine.configure({"Hash": 32})
            exercise(engine, "uci " + " ".join(cmd[1:]))
    print("python-chess clients: all ok")


if __name__ == "__main__":
    main()
