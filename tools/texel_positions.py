#!/usr/bin/env python3
"""Labelled positions for `sable tune`: one `FEN | result` line per quiet position.

Reads PGN games, keeps positions after the opening (ply >= 10) that are not in check,
were not reached by a capture and whose next game move is not a capture or promotion
(so a static evaluation means something), and labels each with the game's result from
White's point of view (1.0, 0.5, 0.0). Usage: texel_positions.py GAMES.pgn > out.txt
"""
import sys

import chess
import chess.pgn

RESULTS = {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5"}


def main():
    kept = 0
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            label = RESULTS.get(game.headers.get("Result", "*"))
            if label is None or game.headers.get("Variant", "Standard") != "Standard":
                continue
            board = game.board()
            moves = list(game.mainline_moves())
            prev_noisy = False
            for ply, move in enumerate(moves):
                noisy = board.is_capture(move) or move.promotion is not None
                if ply >= 10 and not prev_noisy and not noisy and not board.is_check():
                    print(f"{board.fen()} | {label}")
                    kept += 1
                prev_noisy = noisy
                board.push(move)
    print(f"kept {kept} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
