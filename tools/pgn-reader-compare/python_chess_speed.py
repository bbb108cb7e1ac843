#!/usr/bin/env python3
"""python-chess reading and replaying a PGN file: `chess.pgn.read_game` in a loop (each
move's SAN is parsed and played on the board as the game is built), from the text in
memory, best of ROUNDS, timed by the CPU time of the process (as the Rust readers are).
Prints one line: `games moves errors seconds`, where moves counts every move node
(variations too) and errors the games python-chess logged an error for.

Usage: python_chess_speed.py FILE [ROUNDS]
"""

import io
import sys
import time

import chess.pgn


def read_all(text):
    games = moves = errors = 0
    stream = io.StringIO(text)
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        games += 1
        if game.errors:
            errors += 1
        stack = [game]
        while stack:
            node = stack.pop()
            moves += len(node.variations)
            stack.extend(node.variations)
    return games, moves, errors


def main():
    path = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        text = f.read()
    best = float("inf")
    counts = None
    for _ in range(rounds):
        start = time.process_time()
        counts = read_all(text)
        best = min(best, time.process_time() - start)
    print(*counts, f"{best:.6f}")


if __name__ == "__main__":
    main()
