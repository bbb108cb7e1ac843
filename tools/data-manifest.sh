#!/usr/bin/env bash
# Prints one row of nets/data/MANIFEST.md per game-record file: file, command, engine
# commit, games, positions, SHA-256. Games and positions come from `sable data stats`
# (which also checks every record); the command and commit are what made the file and
# the script cannot know them: give them as COMMAND="sable datagen ..." and COMMIT=abc1234
# (default: this checkout's HEAD, marked "?" if the tree has changes).
#
# usage: [COMMAND=...] [COMMIT=...] [SABLE=path/to/sable] tools/data-manifest.sh FILE...
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: tools/data-manifest.sh FILE..." >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
sable=${SABLE:-$root/target/release/sable}
if [ ! -x "$sable" ]; then
  (cd "$root" && cargo build --release -q -p sable)
fi
commit=${COMMIT:-$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo "?")}
command=${COMMAND:-?}
for f in "$@"; do
  # First line: "FILE: G games, P positions, T training positions, B bytes, X bytes/position"
  line=$("$sable" data stats "$f") || { echo "$f: sable data stats failed" >&2; exit 1; }
  line=${line%%$'\n'*}
  games=$(sed -E 's/.*: ([0-9]+) games, .*/\1/' <<<"$line")
  positions=$(sed -E 's/.* games, ([0-9]+) positions, .*/\1/' <<<"$line")
  sha=$(sha256sum "$f" | cut -d' ' -f1)
  echo "| $(basename "$f") | \`$command\` | $commit | $games | $positions | $sha |"
done
