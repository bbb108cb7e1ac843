#!/bin/sh
# Plays one game in the real xboard GUI (Debian package `xboard`) under a virtual X
# server (`xvfb`): Sable against itself over xboard protocol, or against a second engine
# given as $2. Writes the game to xboard-gui.pgn and xboard's debug log (every line sent
# and received, with millisecond times) to xboard-gui.debug in the current directory.
# The second engine gets only `new` to start a game: fairymax 5.0b (Debian) crashes on
# xboard's default "new, random" followed by "computer".
# Usage: tests/xboard_gui.sh target/release/sable ["/usr/games/fairymax"]
set -eu
sable=$(realpath "$1")
second=${2:-"$sable xboard"}
timeout 300 xvfb-run -a /usr/games/xboard \
    -fcp "$sable xboard" -fd "$PWD" -scp "$second" -sd "$PWD" \
    -secondInitString "new
" \
    -tc 0:10 -inc 0.1 -mg 1 -sgf xboard-gui.pgn \
    -debug -nameOfDebugFile xboard-gui.debug \
    -popupExitMessage false -showThinking true
grep -E '^\[Result|\{.*\} (1-0|0-1|1/2-1/2)' xboard-gui.pgn
