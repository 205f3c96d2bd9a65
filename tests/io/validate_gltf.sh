#!/usr/bin/env bash
# Writes .glb and .gltf files with every mesher through the isoterra program and runs the
# Khronos glTF validator on them: no errors and no warnings allowed.
# Usage: validate_gltf.sh ISOTERRA_BINARY SOURCE_DIR WORK_DIR
set -euo pipefail
bin=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
[ -d "$src/tools/gltf-validator/node_modules/gltf-validator" ] || (cd "$src/tools/gltf-validator" && npm ci --silent)
"$bin" mesh --quiet --from 0,0,0 --to 64,64,64 --per-chunk -o "$work/mc.glb"
"$bin" mesh --quiet --from 0,0,0 --to 64,64,64 --mesher surface-nets -o "$work/sn.gltf"
"$bin" mesh --quiet --from 0,0,0 --to 64,64,64 --mesher blocks --preset alpine -o "$work/blocks.glb"
"$bin" mesh --quiet --from 0,600,0 --to 32,632,32 -o "$work/empty.glb"   # sky: no triangles
# What the world shows around a point: three levels of detail with their transitions.
"$bin" mesh --quiet --around 0,40,0 --view-distance 300 --radius 2 --per-chunk -o "$work/around_mc.glb"
"$bin" mesh --quiet --around 0,40,0 --view-distance 300 --radius 2 --mesher surface-nets -o "$work/around_sn.glb"
# A graph's water: a second mesh with the translucent water material.
printf '%s\n' 'format = 1' '[node]' 'ground = { type = "const", value = 0.5 }' 'out = { type = "plane", height = "ground" }' \
  'east = { type = "x" }' 'fall = { type = "mul", a = "east", b = -1000.0 }' 'water = { type = "min", a = 1.5, b = "fall" }' \
  '[output]' 'sdf = "out"' 'ground = "ground"' 'water = "water"' > "$work/water.toml"
"$bin" mesh --quiet --config "$work/water.toml" --around 0,10,0 --view-distance 100 --radius 2 -o "$work/around_water.gltf"
# Compressed (KHR_mesh_quantization + EXT_meshopt_compression): valid, and decoded by a real
# client (three.js's GLTFLoader with its meshopt decoder) into the plain file's meshes.
"$bin" mesh --quiet --preset alpine --from -40,1000,10 --to 60,1400,70 --per-chunk -o "$work/plain_chunks.glb"
"$bin" mesh --quiet --preset alpine --from -40,1000,10 --to 60,1400,70 --per-chunk --compress -o "$work/packed_chunks.glb"
"$bin" mesh --quiet --from 0,0,0 --to 64,64,64 --mesher surface-nets --compress -o "$work/packed_sn.gltf"
"$bin" mesh --quiet --config "$work/water.toml" --around 0,10,0 --view-distance 100 --radius 2 -o "$work/plain_water.glb"
"$bin" mesh --quiet --config "$work/water.toml" --around 0,10,0 --view-distance 100 --radius 2 --compress -o "$work/packed_water.glb"
node "$src/tools/gltf-validator/validate.mjs" "$work"/*.glb "$work"/*.gltf
node "$src/tests/io/decode_compressed_glb.mjs" "$work/plain_chunks.glb" "$work/packed_chunks.glb"
node "$src/tests/io/decode_compressed_glb.mjs" "$work/plain_water.glb" "$work/packed_water.glb"
# Every tile of small bakes with each mesher (3D Tiles content, placed by node translations).
"$bin" bake --quiet --preset tutorial --from 0,0 --to 512,512 --levels 5 --out "$work/bake_mc"
"$bin" bake --quiet --preset alpine --from 0,0 --to 128,128 --levels 3 --mesher surface-nets --out "$work/bake_sn"
"$bin" bake --quiet --preset islands --from 0,0 --to 128,128 --levels 3 --mesher blocks --out "$work/bake_blocks"
"$bin" bake --quiet --preset alpine --from 0,0 --to 128,128 --levels 3 --compress --out "$work/bake_compressed"
find "$work"/bake_* -name '*.glb' | sort | xargs node "$src/tools/gltf-validator/validate.mjs" > "$work/bake_report.txt" \
  || { grep -v '"numErrors":0,"numWarnings":0' "$work/bake_report.txt" | head -20; exit 1; }
echo "bake tiles: $(wc -l < "$work/bake_report.txt") glb files, no errors or warnings"
