#!/bin/bash
# The viewer's editing, driven like a person would: in Xvfb, a left click carves and a right
# click adds at the ground under the cursor, Ctrl+Z undoes the add; the world file then
# holds both operations, the second marked undone.
# Usage: view_edit.sh ISOTERRA WORKDIR
set -euo pipefail
isoterra=$1
work=$2
mkdir -p "$work"
world="$work/view_edit.db"
rm -f "$world" "$world-wal" "$world-shm" "$world.viewer.log"
xvfb-run -a -s "-screen 0 1280x720x24" bash -c '
  log="$1.viewer.log"
  # ISOTERRA_TEST_PROGRAM_ENV: what the sanitizer run gives the program that draws (run_cli.hpp).
  env ${ISOTERRA_TEST_PROGRAM_ENV:-} "$0" view --world "$1" --radius 3 --frames 1000000 2> "$log" &
  viewer=$!
  # The viewer saves each edit as it handles it; each step waits until the file shows the
  # last one, so a viewer slowed down (sanitizers, a busy machine) sees them in order.
  wait_for() {
    for i in $(seq 240); do
      "$0" history --world "$1" 2>/dev/null | grep -q "$2" && return 0
      sleep 0.5
    done
    echo "the viewer did not save: $2"; cat "$1.viewer.log"
    return 1
  }
  # A click before the window is mapped goes to the root window and is lost: wait for the
  # viewer to say it has shown a frame (it is then mapped and polling its events).
  for i in $(seq 480); do grep -q "^view: first frame shown" "$log" && break; sleep 0.5; done
  grep -q "^view: first frame shown" "$log" || { echo "the viewer showed no frame:"; cat "$log"; kill $viewer; exit 1; }
  xdotool search --sync --onlyvisible --name "^isoterra$" >/dev/null
  xdotool mousemove 640 650 click 1
  wait_for "$1" "^1 " || { kill $viewer; exit 1; }
  xdotool mousemove 700 650 click 3
  wait_for "$1" "^2 " || { kill $viewer; exit 1; }
  xdotool key ctrl+z
  wait_for "$1" "^2 (undone)" || { kill $viewer; exit 1; }
  kill $viewer
  wait $viewer || true
' "$isoterra" "$world"
history=$("$isoterra" history --world "$world")
echo "$history"
[ "$(echo "$history" | wc -l)" -eq 2 ] || { echo "expected 2 operations"; exit 1; }
echo "$history" | sed -n 1p | grep -q '^1 sphere carve at .* radius 4 m$' || { echo "first: not a carve"; exit 1; }
echo "$history" | sed -n 2p | grep -q '^2 (undone) sphere add at .* radius 4 m$' || { echo "second: not an undone add"; exit 1; }
echo "viewer edits: ok"
