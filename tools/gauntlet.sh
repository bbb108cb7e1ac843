#!/usr/bin/env bash
# The strength gauntlet of the engine issue: Sable against Glaurung 2.2, GNU Chess 6 and
# Toga II 3.0 (Debian packages glaurung, gnuchess, toga2) at 10+0.1, one thread and
# 16 MB each, 8moves_v3 openings with colours swapped, two games at a time; resign and
# draw adjudication as OpenBench does it (both engines must agree). One match per
# opponent, each with its own PGN and summary in $GAUNTLET_OUT (default target/gauntlet).
#
# usage: tools/gauntlet.sh [ROUNDS] [OPPONENT...]
#   ROUNDS opening pairs per opponent (default 100: 200 games), opponents by name
#   (default: glaurung gnuchess toga2). TC=1+0.01 for a quick run.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-100}
shift $(( $# > 0 ? 1 : 0 ))
[ $# -gt 0 ] || set -- glaurung gnuchess toga2
cargo build --release -q -p sable
exe=$PWD/target/release/sable
out=${GAUNTLET_OUT:-target/gauntlet}
mkdir -p "$out"
for name in "$@"; do
  case $name in
    glaurung) opp=(cmd=/usr/games/glaurung name=glaurung option.Threads=1 option.OwnBook=false) ;;
    gnuchess) opp=(cmd=/usr/games/gnuchess arg=-u name=gnuchess option.OwnBook=false) ;;
    toga2) opp=(cmd=/usr/games/toga2 name=toga2 option.OwnBook=false) ;;
    *) echo "unknown opponent '$name' (glaurung, gnuchess, toga2)" >&2; exit 2 ;;
  esac
  # GNU Chess 6.2.7 has crashed mid-game here (once in 270 games): -recover restarts it.
  "$exe" match -engine cmd="$exe" name=sable -engine "${opp[@]}" \
    -each tc="${TC:-10+0.1}" option.Hash=16 \
    -openings file=testdata/books/8moves_v3.pgn order=random -srand "${SEED:-2026}" \
    -rounds "$rounds" -games 2 -repeat -concurrency "${CONCURRENCY:-2}" -recover \
    -resign movecount=3 score=1000 twosided=true -draw movenumber=40 movecount=8 score=10 \
    -noprogress -ratinginterval 20 -pgnout "$out/$name.pgn" > "$out/$name.log" 2>&1 || true
  echo "== sable vs $name"
  sed -n '/^Results of/,/^PGN:/p' "$out/$name.log"
done
