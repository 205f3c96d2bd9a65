#!/usr/bin/env bash
# The main job until the viewer exists: pictures, a mesh and figures of the tutorial world.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p out
bin=build/isoterra
$bin slice --preset tutorial --axis z --at 0 --from -200,-60 --to 200,140 -o out/slice.png
$bin heightmap --preset tutorial --from -1000,-1000 --to 1000,1000 --step 4 -o out/heightmap.png
$bin mesh --preset tutorial --from 0,0,0 --to 96,64,96 --per-chunk -o out/terrain.glb
$bin stats --preset tutorial --from 0,0,0 --to 96,64,96
echo
echo "Look at: $(pwd)/out/slice.png (a cut through hills and caves), $(pwd)/out/heightmap.png,"
echo "         $(pwd)/out/terrain.glb (open it in any glTF viewer or Blender)."
