#!/usr/bin/env bash
# Checks nets/data against its manifest: every game-record file there has exactly one row
# in nets/data/MANIFEST.md, every row names a file that exists, the file's SHA-256 is the
# row's, and `sable data validate` replays every game in it (legal moves, checksums). So a
# file committed without its row, a row left stale after `--append`, or a damaged file
# fails CI instead of silently changing what "retrain the shipped net" means. And a file
# once committed is never changed again (new games go into new files).
#
# usage: [SABLE=path/to/sable] tools/check-data-manifest.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
sable=${SABLE:-$root/target/release/sable}
dir="$root/nets/data"
manifest="$dir/MANIFEST.md"
fail=0

# Rows: "| FILE.bin | command | commit | games | positions | SHA-256 |".
declare -A want
while IFS= read -r line; do
  file=$(awk -F'|' '{ gsub(/ /, "", $2); print $2 }' <<<"$line")
  sha=$(awk -F'|' '{ gsub(/ /, "", $(NF-1)); print $(NF-1) }' <<<"$line")
  if [ -n "${want[$file]:-}" ]; then
    echo "$manifest: $file has more than one row" >&2
    fail=1
  fi
  want[$file]=$sha
done < <(grep -E '^\| [^|]+\.bin \|' "$manifest")

for path in "$dir"/*.bin; do
  [ -e "$path" ] || continue
  file=$(basename "$path")
  if [ -z "${want[$file]:-}" ]; then
    echo "$manifest: no row for $file" >&2
    fail=1
    continue
  fi
  got=$(sha256sum "$path" | cut -d' ' -f1)
  if [ "$got" != "${want[$file]}" ]; then
    echo "$manifest: $file has SHA-256 $got, its row says ${want[$file]}" >&2
    fail=1
  fi
  "$sable" data validate "$path" || fail=1
done
for file in "${!want[@]}"; do
  [ -e "$dir/$file" ] || { echo "$manifest: row for $file, which is not in nets/data" >&2; fail=1; }
done

# Committed data is immutable (since caf82b1, where the rule was written): a file that
# existed then has no later commit, and a newer file has exactly the one that added it.
rule=caf82b1
if git -C "$root" cat-file -e "$rule^{commit}" 2>/dev/null; then
  for path in "$dir"/*.bin; do
    [ -e "$path" ] || continue
    rel="nets/data/$(basename "$path")"
    commits=$(git -C "$root" rev-list --count "$rule..HEAD" -- "$rel")
    if git -C "$root" cat-file -e "$rule:$rel" 2>/dev/null; then allowed=0; else allowed=1; fi
    if [ "$commits" -gt "$allowed" ]; then
      echo "$rel was changed after it was committed ($commits commits since $rule); new data goes into a new file" >&2
      fail=1
    fi
  done
else
  echo "note: commit $rule not in this clone's history; immutability of nets/data not checked" >&2
fi
exit $fail
