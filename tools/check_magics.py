#!/usr/bin/env python3
"""Independent check of the published dense bishop magics that `sable magics --check` tests.

Reads the table VICKI_DENSE_BISHOPS (square, index bits, magic) from
crates/cli/src/cmd/magics.rs, then, sharing no code with Sable, for each entry: builds the
usual edge-less bishop mask by walking the four diagonals, enumerates every subset of it
(the relevant occupancies), computes each occupancy's attacks by ray walking, and looks for
a destructive collision: two occupancies whose index ((occ * magic) mod 2^64) >> (64 - bits)
is the same but whose attack sets differ (equal attacks may share a slot).

Prints one line per square and a summary in the same words as `sable magics --check`
("22 of 23 hold, 1 fail"); `.ci/run` compares the two. Plain Python 3, no dependencies.
Usage: tools/check_magics.py [PATH_TO_magics.rs]
"""
import os
import re
import sys

DIAGONALS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
MASK64 = (1 << 64) - 1


def square_index(name):
    return (int(name[1]) - 1) * 8 + (ord(name[0]) - ord("a"))


def square_name(index):
    return "abcdefgh"[index % 8] + str(index // 8 + 1)


def attacks(sq, occupied):
    """Squares a bishop on sq attacks: each diagonal up to and including the first blocker."""
    result = 0
    for df, dr in DIAGONALS:
        f, r = sq % 8 + df, sq // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            bit = 1 << (r * 8 + f)
            result |= bit
            if occupied & bit:
                break
            f, r = f + df, r + dr
    return result


def mask(sq):
    """The diagonals from sq without the board's edge squares (a blocker there changes nothing)."""
    result = 0
    for df, dr in DIAGONALS:
        f, r = sq % 8 + df, sq // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            if 0 < f < 7 and 0 < r < 7:
                result |= 1 << (r * 8 + f)
            f, r = f + df, r + dr
    return result


def subsets(m):
    """Every subset of the bits of m (Carry-Rippler enumeration)."""
    out, s = [], 0
    while True:
        out.append(s)
        s = (s - m) & m
        if s == 0:
            return out


def squares(bits):
    names = [square_name(i) for i in range(64) if bits >> i & 1]
    return " ".join(names) if names else "(empty)"


def check(sq, bits, magic):
    """None if the magic works, else a description of the first destructive collision."""
    m = mask(sq)
    slots = {}
    for occ in subsets(m):
        index = ((occ * magic) & MASK64) >> (64 - bits)
        att = attacks(sq, occ)
        if index not in slots:
            slots[index] = (occ, att)
        elif slots[index][1] != att:
            return (f"occupancies {{{squares(slots[index][0])}}} and {{{squares(occ)}}} "
                    f"both index slot {index} of {1 << bits} but attack different squares")
    return None


def published(path):
    text = open(path, encoding="utf-8").read()
    start = text.index("VICKI_DENSE_BISHOPS")
    body = text[start:text.index("];", start)]
    rows = re.findall(r'\("([a-h][1-8])",\s*(\d+),\s*0x([0-9a-fA-F_]+)\)', body)
    return [(sq, int(bits), int(magic.replace("_", ""), 16)) for sq, bits, magic in rows]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "crates/cli/src/cmd/magics.rs")
    table = published(path)
    if len(table) != 23:
        sys.exit(f"expected 23 entries in {path}, found {len(table)}")
    holds = 0
    for name, bits, magic in table:
        sq = square_index(name)
        mask_bits = bin(mask(sq)).count("1")
        why = check(sq, bits, magic)
        if why is None:
            holds += 1
            verdict = "holds"
        else:
            verdict = f"FAILS: {why}"
        print(f"{name:<6}{bits:>5}{mask_bits:>6}  {magic:#018x}  {verdict}")
    print(f"{holds} of {len(table)} hold, {len(table) - holds} fail")


if __name__ == "__main__":
    main()
