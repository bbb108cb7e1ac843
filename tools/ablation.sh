#!/usr/bin/env bash
# Measures what each search technique is worth: the full engine against the same build
# without that one technique (UCI option `Ablate`), openings from 8moves_v3 with colours
# swapped. Prints one line per technique with Elo ± 95 % and the games' faults (time
# losses included: these runs double as the 1+0.01 time-loss check).
#
# usage: tools/ablation.sh [ROUNDS] [LIMIT] [TECHNIQUE...]
#   ROUNDS opening pairs per technique (default 30), LIMIT a match limit for both sides
#   (default tc=1+0.01; nodes=20000 for a load-independent run), techniques by name
#   (default: all, as listed by the `Ablate` error message).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-30}
limit=${2:-tc=1+0.01}
shift $(( $# > 2 ? 2 : $# ))
# ABLATION_EXE: an ablation build made already (skips the build here).
exe=${ABLATION_EXE:-target/ablation/release/sable}
if [ -z "${ABLATION_EXE:-}" ]; then
  cargo build --release -q -p sable --features ablation --target-dir target/ablation
fi
if [ $# -eq 0 ]; then
  # The engine lists its technique names when given an unknown one.
  set -- $(printf 'setoption name Ablate value ?\nquit\n' | "$exe" uci \
    | sed -n 's/.*(known: \(.*\))$/\1/p')
fi
out=${ABLATION_OUT:-target/ablation/games}
mkdir -p "$out"
for t in "$@"; do
  "$exe" match -engine cmd="$exe" name=full -engine cmd="$exe" name="no-$t" "option.Ablate=$t" \
    -each "$limit" option.Hash=16 \
    -openings file=testdata/books/8moves_v3.pgn order=random -srand 7 \
    -rounds "$rounds" -games 2 -repeat -concurrency "${CONCURRENCY:-2}" \
    -resign movecount=3 score=1000 twosided=true -draw movenumber=40 movecount=8 score=10 \
    -noprogress -pgnout "$out/$t.pgn" > "$out/$t.log" 2>&1
  printf '%-9s %s  %s\n' "$t" "$(grep -m1 'Elo:' "$out/$t.log" | sed 's/^ *//')" \
    "$(grep -m1 'Games:' "$out/$t.log" | sed 's/^ *//')"
  grep -A2 '^Faults' "$out/$t.log" | tail -2
done
