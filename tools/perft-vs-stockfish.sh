#!/usr/bin/env bash
# Perft speed of Sable against Stockfish's `go perft`, single thread, in one run:
# start position depth 7 and kiwipete depth 6 (override with DEPTH_START / DEPTH_KIWI).
# Prints nodes/second of both and the ratio. Needs /usr/games/stockfish (Debian `stockfish`).
set -euo pipefail
cd "$(dirname "$0")/.."
SF=${STOCKFISH:-/usr/games/stockfish}
SABLE=${SABLE:-target/release/sable}
[ -x "$SABLE" ] || cargo build --release -q -p sable
KIWI="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
now() { date +%s.%N; }
run_case() { # name fen depth
  local name=$1 fen=$2 depth=$3 t0 t1 sf_nodes sable_nodes
  t0=$(now)
  sf_nodes=$(printf 'setoption name Threads value 1\nposition fen %s\ngo perft %s\nquit\n' "$fen" "$depth" \
    | "$SF" | awk '/Nodes searched/ {print $3}')
  t1=$(now)
  local sf_s; sf_s=$(echo "$t1 - $t0" | bc -l)
  t0=$(now)
  sable_nodes=$("$SABLE" perft "$depth" --fen "$fen" | awk '/Nodes searched/ {print $3}')
  t1=$(now)
  local sable_s; sable_s=$(echo "$t1 - $t0" | bc -l)
  [ "$sf_nodes" = "$sable_nodes" ] || { echo "$name: node counts differ: stockfish $sf_nodes, sable $sable_nodes"; exit 1; }
  printf '%-10s depth %s  %13s nodes  stockfish %7.2f s (%6.1f Mnps)  sable %7.2f s (%6.1f Mnps)  ratio %.2fx\n' \
    "$name" "$depth" "$sable_nodes" "$sf_s" "$(echo "$sf_nodes / $sf_s / 1000000" | bc -l)" \
    "$sable_s" "$(echo "$sable_nodes / $sable_s / 1000000" | bc -l)" "$(echo "$sf_s / $sable_s" | bc -l)"
}
run_case startpos "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" "${DEPTH_START:-7}"
run_case kiwipete "$KIWI" "${DEPTH_KIWI:-6}"
