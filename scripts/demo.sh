#!/usr/bin/env bash
# The main job: with a display, the interactive viewer; without one, a rendered picture of
# the tutorial world plus a slice, a heightmap, a mesh, field statistics and an edited world,
# then the alpine preset from where the viewer starts with its landform statistics and river
# network, and where they all are.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/isoterra
if [ -n "${DISPLAY:-}" ] && [ -z "${ISOTERRA_NO_VIEWER:-}" ]; then
  exec $bin view --preset tutorial
fi
mkdir -p out
$bin render --preset tutorial --eye 0,60,40 --target 0,40,-200 --size 1280x720 -o out/view.png
$bin slice --preset tutorial --materials --axis z --at 0 --from -200,-60 --to 200,140 -o out/slice.png
$bin heightmap --preset tutorial --from -1000,-1000 --to 1000,1000 --step 4 -o out/heightmap.png
$bin mesh --preset tutorial --from 0,0,0 --to 96,64,96 --per-chunk -o out/terrain.glb
$bin stats --preset tutorial --from 0,0,0 --to 96,64,96
# Editing: a crater and a boulder in a world file, rendered from the same place.
rm -f out/world.db out/world.db-wal out/world.db-shm
$bin edit --world out/world.db --preset tutorial sphere --at 0,45,-30 --radius 10 --mode carve
$bin edit --world out/world.db sphere --at 20,60,-60 --radius 7 --mode add
$bin render --world out/world.db --eye 0,60,40 --target 0,40,-200 --size 1280x720 -o out/edited.png
# The engine's best: alpine's eroded ranges and river valleys from where the viewer starts
# (40 m above its ground; no --eye), and whether it looks like land (docs/guides/landforms.md).
$bin render --preset alpine --size 1280x720 -o out/alpine.png
$bin landform --preset alpine --flow out/alpine-flow.png --quiet
echo
echo "No display here, so no viewer (run 'build/isoterra view' where there is one). Look at:"
echo "  $(pwd)/out/view.png       the tutorial world from 60 m up, looking north, rendered without a display"
echo "  $(pwd)/out/slice.png      a cut through hills and caves, materials and the surface in red"
echo "  $(pwd)/out/heightmap.png  16-bit heights (metres in out/heightmap.json)"
echo "  $(pwd)/out/terrain.glb    a 3x2x3 block of chunks for any glTF viewer or Blender"
echo "  $(pwd)/out/edited.png     the same view after two edits saved in out/world.db"
echo "                            (isoterra history|undo|redo --world out/world.db, view --world ...)"
echo "  $(pwd)/out/alpine.png     the alpine preset from where the viewer and the page start"
echo "  $(pwd)/out/alpine-flow.png  its river network over 30 km (flow in out/alpine-flow.json; statistics above)"
