#!/usr/bin/env python3
"""Writes the committed seed corpus under fuzz/seeds/TARGET/ from testdata/ and
nets/data/ (run from the repository root: python3 fuzz/make_seeds.py). Small on
purpose (well under 2 MB in all): libFuzzer grows the working corpus from these."""

import os
import struct
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = os.path.join(ROOT, "fuzz", "seeds")


def path(*parts):
    return os.path.join(ROOT, *parts)


def write(target, name, data):
    d = os.path.join(SEEDS, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def lines(*parts, n, step=1):
    with open(path(*parts), encoding="utf-8", errors="replace") as f:
        out = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    return out[: n * step : step]


# ---- fen ---------------------------------------------------------------------------
fens = []
fens += lines("testdata", "fen", "valid.sfens", n=12, step=97)
fens += lines("testdata", "fen", "invalid.sfens", n=12, step=97)
fens += lines("testdata", "fen", "chess960_start_positions.sfens", n=4, step=101)
fens += [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K -",
    "r5kr/8/8/8/8/8/8/RK5R w AHah - 0 1",
    "1r4kr/8/8/8/8/8/8/RK5R w KQkq - 0 1",
    "4k3/8/8/8/8/8/4r3/R3K2r w Q - 0 1",
    "4k3/8/8/b7/8/8/8/4K2r w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295",
    "8/8/8/8/8/8/8/8 w - - 0 1",
]
for i, fen in enumerate(fens):
    write("fen", f"fen-{i:02}", fen)

# ---- san and uci_move: a selector byte (sable_fuzz::POSITIONS), then the text --------
san = {
    0: ["e4", "Nf3", "Nh3", "e2e4", "Ng1-f3", "O-O", "e8=Q", "--", "Z0", "Nf3!?"],
    1: ["O-O", "O-O-O", "0-0", "Bxa6", "d6", "Qxf6", "Nxf7", "gxh3", "Kf1", "e1g1"],
    2: ["bxa1=Q", "bxa1=N", "hxg1=Q", "g1=N", "Kc6", "b1=Q+", "b1Q", "bxa1=q"],
    3: ["cxb8=Q", "c8=N", "bxa8=R", "axb8=Q+", "c8=Q+", "b8Q", "Kd3"],
    4: ["O-O", "O-O-O", "Ra2", "b1a1", "Kc1"],
    5: ["O-O", "Nb4", "f5", "Ne3"],
    6: ["exf6", "exf6e.p.", "e5f6", "exf6ep", "Qh5+", "exd6"],
    7: ["Qbc3", "Q4c3", "Qb4c3", "Qdc3", "Qa3", "Qa8+", "Qxa8"],
}
for sel, moves in san.items():
    for j, m in enumerate(moves):
        write("san", f"san-{sel}-{j:02}", bytes([sel]) + m.encode())
uci = {
    0: ["e2e4", "g1f3", "e2e5", "0000", "e7e8q"],
    1: ["e1g1", "e1h1", "e1c1", "e1a1", "d5e6", "a2a4"],
    2: ["b2a1q", "b2a1n", "g2g1r", "h2g1b", "d7c6"],
    3: ["c7b8q", "a7b8n", "c7c8r", "b7a8b"],
    4: ["b1a1", "b1h1", "b1c1", "b1g1"],
    5: ["g1h1", "g1f1", "f4f5"],
    6: ["e5f6", "e5e6", "d1h5"],
    7: ["b4c3", "d2c3", "b2a1"],
}
for sel, moves in uci.items():
    for j, m in enumerate(moves):
        write("uci_move", f"uci-{sel}-{j:02}", bytes([sel]) + m.encode())

# ---- pgn -----------------------------------------------------------------------------
small = [
    ("pgn-read", "Little_01.pgn"),
    ("pgn-read", "break_pgn_0_8_1_a.pgn"),
    ("pgn-read", "break_pgn_0_8_1_b.pgn"),
    ("pgn-read", "break_pgn_0_8_1_c.pgn"),
    ("pgn-read", "twic9nn_error.pgn"),
    ("python-chess", "anastasian-lewis.pgn"),
    ("python-chess", "antichess-programfox.pgn"),
    ("python-chess", "chessbase-empty-line.pgn"),
    ("python-chess", "kasparov-deep-blue-1997.pgn"),
    ("python-chess", "molinari-bordais-1979.pgn"),
    ("python-chess", "nepomniachtchi-liren-game1.pgn"),
]
for d, name in small:
    with open(path("testdata", "pgn", d, name), "rb") as f:
        write("pgn", name, f.read())


def first_games(data, limit):
    """The longest prefix of whole games (cut before a tag section) within `limit`."""
    if len(data) <= limit:
        return data
    cut = data.rfind(b"\n\n[", 0, limit)
    return data[: cut + 2] if cut > 0 else data[:limit]


for d, name, limit in [
    ("python-chess", "cutechess-fischerrandom.pgn", 4000),
    ("pgn-read", "crafty06_02.pgn", 6000),
    ("lichess", "lichess-user-export-3970-games.pgn", 6000),
]:
    with open(path("testdata", "pgn", d, name), "rb") as f:
        write("pgn", name, first_games(f.read(), limit))
write(
    "pgn",
    "handmade-variations.pgn",
    """[Event "variations"]
[White "A \\"quoted\\" name"]
[Result "1-0"]

{A comment before the first move.} 1. e4 $1 e5!? (1... c5 {Sicilian} 2. Nf3 (2. c3)
d6) 2. Nf3 Nc6 3. Bb5 a6 ; rest-of-line comment
4. Ba4 -- 5. O-O Nf6 1-0

[Event "from a position"]
[SetUp "1"]
[FEN "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]

1. O-O-O O-O 2. d6 cxd6 3. Nxf7 Rxf7 *

[Event "chess960"]
[Variant "Chess960"]
[FEN "r5kr/8/8/8/8/8/8/RK5R w AHah - 0 1"]

1. O-O O-O-O 2. Rb1 (2. Ra8+ Kc7) 2... Kc7 1/2-1/2
""",
)

# ---- epd -----------------------------------------------------------------------------
epd = []
for name, step in [("wac.epd", 50), ("bk.epd", 6), ("arasan2024.epd", 40),
                   ("STS1-STS15_LAN_v5.epd", 300), ("ecm.epd", 160)]:
    epd += lines("testdata", "tactics", name, n=4, step=step)
epd += lines("testdata", "perft", "standard.epd", n=3)
epd += lines("testdata", "perft", "fischer.epd", n=3, step=30)
epd += lines("testdata", "perft", "perft-random.epd", n=3, step=50)
epd += lines("testdata", "syzygy", "endgame.epd", n=3, step=50)
epd += lines("testdata", "books", "noob_3moves.epd", n=3, step=1000)
epd += [
    '4k3/8/8/8/8/8/8/4K2R w K - hmvc 12; fmvn 40; pv O-O Kd7 Rh7+; acd 20; ce -35;',
    '4k3/8/8/8/8/8/8/4K2R w K - 3 17 bm O-O; am Rh8+; c0 "a \\"quoted\\" \\\\ comment";',
    'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - perft 2 2039; D1 48;',
]
for i, line in enumerate(epd):
    write("epd", f"epd-{i:02}", line + "\n")
write("epd", "epd-many", "\n".join(epd[:12]) + "\n")

# ---- polyglot --------------------------------------------------------------------------
with open(path("testdata", "polyglot", "lasker-trap.bin"), "rb") as f:
    write("polyglot", "lasker-trap.bin", f.read())
with open(path("testdata", "polyglot", "performance.bin"), "rb") as f:
    book = f.read()
write("polyglot", "performance-head.bin", book[: 16 * 128])
start_key = 0x463B96181691FC9C
keys = [struct.unpack(">Q", book[i : i + 8])[0] for i in range(0, len(book), 16)]
lo = next(i for i, k in enumerate(keys) if k >= start_key)
write("polyglot", "performance-start.bin", book[16 * max(lo - 8, 0) : 16 * (lo + 24)])

# ---- record --------------------------------------------------------------------------
with open(path("nets", "data", "sable-gen1-s1.bin"), "rb") as f:
    data = f.read(1 << 20)
records = []
at = 0
while at + 12 <= len(data) and len(records) < 400:
    plies = struct.unpack("<H", data[at + 2 : at + 4])[0]
    n = 12 + data[at + 5] + 4 * plies + 4
    if at + n > len(data):
        break
    records.append(data[at : at + n])
    at += n
records.sort(key=len)
write("record", "shortest.bin", records[0])
write("record", "short-two.bin", records[1] + records[2])
write("record", "median.bin", records[len(records) // 2])
write("record", "cut.bin", records[3] + records[4][: len(records[4]) // 2])


def packed_start():
    occ = 0xFFFF00000000FFFF
    codes = [12, 1, 2, 4, 5, 2, 1, 12] + [0] * 8 + [6] * 8 + [13, 7, 8, 10, 11, 8, 7, 13]
    nibbles = bytes(codes[i] | codes[i + 1] << 4 for i in range(0, 32, 2))
    return struct.pack("<Q", occ) + nibbles + bytes([0, 0]) + struct.pack("<H", 1)


write("record", "packed-start.bin", packed_start())
assert zlib.crc32(b"") == 0
