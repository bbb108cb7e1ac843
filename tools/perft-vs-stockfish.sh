#!/usr/bin/env bash
# Perft speed of Sable against Stockfish's `go perft` and cozy-chess, single thread, in
# one run, on the six standard perft positions of the Chess Programming Wiki (start,
# kiwipete, positions 3 to 6). Prints nodes per CPU-second of each (user+system time of
# each process, which other load on the machine disturbs far less than wall time) and
# Sable's ratios to both per position.
#
# Each position is counted REPS times: Stockfish in one process (`go perft` repeated, so
# its start-up, mostly loading the network, is paid once), Sable and cozy-chess as REPS
# processes each whose CPU times are summed. cozy-chess is the `--cozy` mode of the
# sable_chess perft bench (`cargo bench -p sable_chess --bench perft`; cozy-chess is a
# dev-dependency from crates.io), built here unless COZY names it. Depths and
# repetitions are set so that Stockfish takes a few seconds per position; override them
# all with DEPTH=d REPS=n, or name positions to run:
#   tools/perft-vs-stockfish.sh [start|kiwipete|pos3|pos4|pos5|pos6 ...]
# CPU times come from bash's `time` (to the millisecond). Needs /usr/games/stockfish
# (Debian `stockfish`).
set -euo pipefail
cd "$(dirname "$0")/.."
SF=${STOCKFISH:-/usr/games/stockfish}
SABLE=${SABLE:-target/release/sable}
[ -x "$SABLE" ] || cargo build --release -q -p sable
# The bench executable, as cargo names it when it builds it.
COZY=${COZY:-$(cargo bench -p sable_chess --bench perft --no-run 2>&1 |
  sed -n 's/.*Executable .*(\(.*\))$/\1/p' | tail -n 1)}
[ -x "$COZY" ] || { echo "no cozy-chess perft bench executable"; exit 1; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# user+system CPU-seconds of a command, to the millisecond, on the last line of stderr.
TIMEFORMAT='%3U %3S'
cpu() { tail -n 1 "$1" | awk '{print $1 + $2}'; }

# name | FEN | depth | repetitions
CASES=(
  "start|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6|5"
  "kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5|2"
  "pos3|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|7|2"
  "pos4|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|6|1"
  "pos5|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|5|4"
  "pos6|r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|5|2"
)

# Runs a command (the rest of the arguments) REPS times; prints its last node count and
# the CPU-seconds summed.
repeat() { # reps command...
  local reps=$1 nodes secs=0 i; shift
  for ((i = 0; i < reps; i++)); do
    { time "$@" > "$TMP/run.out"; } 2> "$TMP/run.time"
    nodes=$(awk '/Nodes searched/ {print $3}' "$TMP/run.out")
    secs=$(echo "$secs + $(cpu "$TMP/run.time")" | bc -l)
  done
  echo "$nodes $secs"
}

run_case() { # name fen depth reps
  local name=$1 fen=$2 depth=$3 reps=$4 sf_nodes sable_nodes sable_s cozy_nodes cozy_s i
  { echo "setoption name Threads value 1"; echo "position fen $fen"
    for ((i = 0; i < reps; i++)); do echo "go perft $depth"; done
    # Stockfish finishes each perft before reading the next line, so `quit` can wait.
    echo quit; } > "$TMP/in"
  { time "$SF" < "$TMP/in" > "$TMP/sf.out" 2> /dev/null; } 2> "$TMP/sf"
  sf_nodes=$(awk '/Nodes searched/ {n = $3; c++} END {if (c) print n}' "$TMP/sf.out")
  read -r sable_nodes sable_s < <(repeat "$reps" "$SABLE" perft "$depth" --fen "$fen")
  read -r cozy_nodes cozy_s < <(repeat "$reps" "$COZY" --cozy "$depth" "$fen")
  local sf_s; sf_s=$(cpu "$TMP/sf")
  [ "$sf_nodes" = "$sable_nodes" ] && [ "$cozy_nodes" = "$sable_nodes" ] ||
    { echo "$name: node counts differ: stockfish $sf_nodes, sable $sable_nodes, cozy-chess $cozy_nodes"; exit 1; }
  mnps() { echo "$sable_nodes * $reps / $1 / 1000000" | bc -l; }
  printf '%-9s depth %s x%s %11s nodes  stockfish %6.3f CPU-s (%5.1f Mnps)  cozy-chess %6.3f CPU-s (%5.1f Mnps)  sable %6.3f CPU-s (%5.1f Mnps)  vs stockfish %.2fx  vs cozy-chess %.2fx\n' \
    "$name" "$depth" "$reps" "$sable_nodes" "$sf_s" "$(mnps "$sf_s")" "$cozy_s" "$(mnps "$cozy_s")" \
    "$sable_s" "$(mnps "$sable_s")" "$(echo "$sf_s / $sable_s" | bc -l)" "$(echo "$cozy_s / $sable_s" | bc -l)"
}

for c in "${CASES[@]}"; do
  IFS='|' read -r name fen depth reps <<< "$c"
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  run_case "$name" "$fen" "${DEPTH:-$depth}" "${REPS:-$reps}"
done
