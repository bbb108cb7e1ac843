#!/bin/sh
# PGN reading and replaying speed in one run: Sable, pgn-reader + shakmaty and
# python-chess on the same files, best of 3 each by CPU time, with the ratios (a Markdown
# table).
#
#   tools/pgn-speed.sh [--rounds N] [--no-python] [FILE...]
#
# Without files: the lichess export in testdata and, when present, the larger lichess
# files in ../shared/data/pgn/human. python-chess: `pip install chess`.
set -eu
cd "$(dirname "$0")/.."
manifest=tools/pgn-reader-compare/Cargo.toml
cargo build --quiet --release --manifest-path "$manifest"
opts=""
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) opts="$opts --rounds $2"; shift 2 ;;
        --no-python) opts="$opts --no-python"; shift ;;
        *) break ;;
    esac
done
if [ $# -eq 0 ]; then
    set -- testdata/pgn/lichess/lichess-user-export-3970-games.pgn
    for f in ../shared/data/pgn/human/*.pgn; do
        [ -f "$f" ] && set -- "$@" "$f"
    done
fi
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086
exec tools/pgn-reader-compare/target/release/pgn-reader-compare $opts "$@"
