#!/usr/bin/env python3
"""Regenerates crates/chess/src/polyglot_random.rs from the Polyglot book-format description
shipped by Debian's `polyglot` package (apt-get install polyglot)."""
import html
import re
import sys

SRC = "/usr/share/doc/polyglot/book_format.html"
OUT = "crates/chess/src/polyglot_random.rs"

text = html.unescape(open(SRC, encoding="utf-8", errors="replace").read())
start = text.find("{", text.find("Random64"))
values = [int(v, 16) for v in re.findall(r"0x([0-9A-Fa-f]{16})", text[start:text.find("}", start)])]
if len(values) != 781:
    sys.exit(f"expected 781 values in {SRC}, found {len(values)}")
lines = [
    "//! The Polyglot opening-book random numbers: 781 values fixed by the book format, so",
    "//! that a position's key equals its Polyglot book key.",
    "//!",
    '//! Source: the format description "Polyglot book format" by Michel Van den Bergh, as',
    "//! shipped in Debian's `polyglot` package (/usr/share/doc/polyglot/book_format.html),",
    "//! extracted by tools/polyglot_random.py; the author notes the table is not subject to copyright.",
    "",
    "/// Layout: 768 piece-square entries (`64 * kind + square`, kinds ordered black pawn,",
    "/// white pawn, black knight, … white king), 4 castling rights, 8 en-passant files, turn.",
    "#[rustfmt::skip]",
    "pub(crate) static POLYGLOT: [u64; 781] = [",
]
for i in range(0, 781, 4):
    lines.append("    " + " ".join(f"0x{v:016x}," for v in values[i:i + 4]))
lines.append("];")
open(OUT, "w").write("\n".join(lines) + "\n")
