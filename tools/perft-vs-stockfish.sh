#!/usr/bin/env bash
# Perft speed of Sable against Stockfish's `go perft`, single thread, in one run:
# start position depth 7 and kiwipete depth 6 (override with DEPTH_START / DEPTH_KIWI).
# Prints nodes per CPU-second of both (user+system time of each process, which other load
# on the machine disturbs far less than wall time) and the ratio.
# Needs /usr/games/stockfish (Debian `stockfish`) and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
SF=${STOCKFISH:-/usr/games/stockfish}
SABLE=${SABLE:-target/release/sable}
[ -x "$SABLE" ] || cargo build --release -q -p sable
KIWI="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
cpu() { awk '{print $1 + $2}' "$1"; }
run_case() { # name fen depth
  local name=$1 fen=$2 depth=$3 sf_nodes sable_nodes
  printf 'setoption name Threads value 1\nposition fen %s\ngo perft %s\n' "$fen" "$depth" > "$TMP/in"
  # Stockfish finishes the perft before reading the next line, so `quit` can wait in the pipe.
  echo quit >> "$TMP/in"
  sf_nodes=$(/usr/bin/time -f '%U %S' -o "$TMP/sf" "$SF" < "$TMP/in" | awk '/Nodes searched/ {print $3}')
  sable_nodes=$(/usr/bin/time -f '%U %S' -o "$TMP/sable" "$SABLE" perft "$depth" --fen "$fen" | awk '/Nodes searched/ {print $3}')
  local sf_s sable_s; sf_s=$(cpu "$TMP/sf"); sable_s=$(cpu "$TMP/sable")
  [ "$sf_nodes" = "$sable_nodes" ] || { echo "$name: node counts differ: stockfish $sf_nodes, sable $sable_nodes"; exit 1; }
  printf '%-10s depth %s  %13s nodes  stockfish %7.2f CPU-s (%6.1f Mnps)  sable %7.2f CPU-s (%6.1f Mnps)  ratio %.2fx\n' \
    "$name" "$depth" "$sable_nodes" "$sf_s" "$(echo "$sf_nodes / $sf_s / 1000000" | bc -l)" \
    "$sable_s" "$(echo "$sable_nodes / $sable_s / 1000000" | bc -l)" "$(echo "$sf_s / $sable_s" | bc -l)"
}
run_case startpos "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" "${DEPTH_START:-7}"
run_case kiwipete "$KIWI" "${DEPTH_KIWI:-6}"
