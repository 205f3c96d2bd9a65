#!/bin/bash
# The viewer's navigation, driven like a person would: in Xvfb, over the tutorial from a
# camera set by flags, N shows the navigation mesh (the viewer's stdout line names its tiles
# and triangles, which `isoterra navmesh` gives for the same columns), two Shift+clicks on
# the ground make a path (its line: the clicked points, the waypoints and a length that
# `isoterra path` gives for the same points within 1 %), F12's picture shows it in the path
# colour and the mesh's cyan, a path to a bare slope is refused by both, a carve makes the
# viewer rebuild the mesh to what navmesh gives for its world file, and N again hides it.
# Usage: view_nav.sh ISOTERRA WORKDIR
set -euo pipefail
isoterra=$1
work=$2
mkdir -p "$work"
out="$work/view_nav.out"
log="$work/view_nav.log"
world="$work/view_nav.db"
rm -f "$out" "$log" "$work"/shot*.png "$work/nav.obj" "$world" "$world-wal" "$world-shm"
# The ground seen from this camera (render --eye 0,60,60 --target 0,0,-40 shows it) is
# gentle grass at the two clicked pixels, both within the 128 m of tiles kept around it.
xvfb-run -a -s "-screen 0 1280x720x24" bash -c '
  isoterra=$1 work=$2 out=$3 log=$4 world=$5
  # ISOTERRA_TEST_PROGRAM_ENV: what the sanitizer run gives the program that draws (run_cli.hpp).
  env ${ISOTERRA_TEST_PROGRAM_ENV:-} "$isoterra" view --preset tutorial --eye 0,60,60 --target 0,0,-40 --radius 3 --fog 0 \
    --view-distance 160 --world "$world" --screenshot "$work/shot.png" --frames 1000000 > "$out" 2> "$log" &
  viewer=$!
  fail() { echo "$1"; echo "stdout:"; cat "$out"; echo "stderr:"; cat "$log"; kill $viewer; exit 1; }
  # Waits (up to 4 minutes: a loaded machine, the sanitizers) until FILE has COUNT lines matching RE.
  wait_for() {
    for i in $(seq 480); do
      [ "$(grep -c "$2" "$1" 2>/dev/null)" -ge "$3" ] 2>/dev/null && return 0
      sleep 0.5
    done
    fail "the viewer did not say: $2 (${3} times)"
  }
  # F12, then the picture kept as shot$1.png once the viewer says it wrote it.
  shoot() {
    xdotool key F12
    wait_for "$log" "^wrote " "$1"
    cp "$work/shot.png" "$work/shot$1.png"
  }
  # A click before the window is mapped goes to the root window and is lost: wait for the
  # viewer to say it has shown a frame (it is then mapped and polling its events).
  wait_for "$log" "^view: first frame shown" 1
  xdotool search --sync --onlyvisible --name "^isoterra$" >/dev/null
  shoot 1
  xdotool key n
  wait_for "$out" "^nav: mesh shown, " 1
  shoot 2
  xdotool mousemove 800 600 keydown shift click 1 keyup shift
  wait_for "$out" "^path: from [-0-9.,]*; Shift+click its end$" 1
  xdotool mousemove 1100 330 keydown shift click 1 keyup shift
  wait_for "$out" "^path: " 2
  shoot 3
  # A new path from the grass to the sand at 50 degrees, steeper than the agent walks (45): refused.
  xdotool mousemove 800 600 keydown shift click 1 keyup shift
  wait_for "$out" "^path: " 3
  xdotool mousemove 500 400 keydown shift click 1 keyup shift
  wait_for "$out" "^path: " 4
  # A carve at the ground under the cursor: the tiles it touches are built again.
  xdotool mousemove 640 650 click 1
  wait_for "$out" "^nav: mesh shown, " 2
  xdotool key n
  wait_for "$out" "^nav: mesh hidden$" 1
  kill $viewer
  wait $viewer || true
' bash "$isoterra" "$work" "$out" "$log" "$world"
cat "$out"

# The Kth mesh shown (K = $1, the terrain: the rest of the flags): the tiles whose square comes
# within 128 m of the focus (the guide's rule), with the triangles navmesh writes in those
# columns. Prints the triangles.
check_mesh() {
  local nav tiles fx fz triangles
  nav=$(grep "^nav: mesh shown, " "$out" | sed -n "$1p")
  read -r tiles fx fz triangles < <(echo "$nav" | sed -n 's/^nav: mesh shown, \([0-9]*\) tiles within 128 m of \([-0-9.]*\),\([-0-9.]*\), \([0-9]*\) triangles$/\1 \2 \3 \4/p')
  [ -n "${triangles:-}" ] || { echo "not a nav line: $nav" >&2; return 1; }
  /usr/bin/python3 - "$isoterra" "$work" "$fx" "$fz" "$tiles" "$triangles" "${@:2}" <<'EOF'
import math, subprocess, sys
isoterra, work, fx, fz, tiles, triangles = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
def near(x, z):  # the column's square within 128 m of the focus
    dx = max(32 * x - fx, fx - 32 * (x + 1), 0.0)
    dz = max(32 * z - fz, fz - 32 * (z + 1), 0.0)
    return math.hypot(dx, dz) <= 128.0
columns = {(x, z) for x in range(int(fx // 32) - 6, int(fx // 32) + 7) for z in range(int(fz // 32) - 6, int(fz // 32) + 7) if near(x, z)}
if len(columns) != tiles:
    sys.exit(f"the viewer keeps {tiles} tiles, {len(columns)} columns lie within 128 m of {fx},{fz}")
lo = (min(x for x, _ in columns), min(z for _, z in columns))
hi = (max(x for x, _ in columns) + 1, max(z for _, z in columns) + 1)
obj = f"{work}/nav.obj"
subprocess.run([isoterra, "navmesh", *sys.argv[7:], "--from", f"{32 * lo[0]},{32 * lo[1]}", "--to", f"{32 * hi[0]},{32 * hi[1]}", "-o", obj],
               check=True, stderr=subprocess.DEVNULL)
v, inside = [], 0
for line in open(obj):
    w = line.split()
    if w and w[0] == "v":
        v.append((float(w[1]), float(w[3])))
    elif w and w[0] == "f":
        corners = [v[int(c.split("/")[0]) - 1] for c in w[1:4]]
        cx, cz = sum(c[0] for c in corners) / 3, sum(c[1] for c in corners) / 3
        inside += (math.floor(cx / 32), math.floor(cz / 32)) in columns
print(f"{tiles} tiles within 128 m of {fx},{fz}: the viewer shows {triangles} triangles, navmesh {' '.join(sys.argv[7:])} writes {inside} in those columns",
      file=sys.stderr)
print(triangles)
sys.exit(0 if inside == triangles and triangles > 1000 else 1)
EOF
}
before=$(check_mesh 1 --preset tutorial)
after=$(check_mesh 2 --world "$world")
[ "$before" -ne "$after" ] || { echo "the carve left the mesh's $before triangles as they were"; exit 1; }
"$isoterra" history --world "$world" | grep -q "^1 sphere carve at " || { echo "the carve is not in the world file"; exit 1; }

# The path: its ends read back, and isoterra path's length for them within 1 %.
line=$(grep "^path: " "$out" | sed -n 2p)
read -r from to waypoints length < <(echo "$line" | sed -n 's/^path: from \([-0-9.,]*\) to \([-0-9.,]*\), \([0-9]*\) waypoints, \([0-9.]*\) m$/\1 \2 \3 \4/p')
[ -n "${length:-}" ] || { echo "not a path: $line"; exit 1; }
[ "$waypoints" -ge 2 ] || { echo "$waypoints waypoints"; exit 1; }
walked=$("$isoterra" path --preset tutorial --from "$from" --to "$to" | sed -n 's/^length \([0-9.]*\) m$/\1/p')
echo "viewer $length m, isoterra path $walked m"
awk -v a="$length" -v b="$walked" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 20 && d <= 0.01 * b) }' ||
  { echo "the viewer's path ($length m) is not isoterra path's ($walked m) within 1 %"; exit 1; }

# The path refused: isoterra path refuses the same ends too (a bad end: exit 2, no path: 3).
line=$(grep "^path: " "$out" | sed -n 4p)
read -r from to < <(echo "$line" | sed -n 's/^path: no path from \([-0-9.,]*\) to \([-0-9.,]*\): .*$/\1 \2/p')
[ -n "${to:-}" ] || { echo "not a refused path: $line"; exit 1; }
code=0
"$isoterra" path --preset tutorial --from "$from" --to "$to" || code=$?
[ "$code" -eq 2 ] || [ "$code" -eq 3 ] || { echo "isoterra path exits $code where the viewer found no path"; exit 1; }

# The pictures: no path colour before the path and some after it; the mesh's cyan once shown.
/usr/bin/python3 - "$work" <<'EOF'
import sys
import numpy as np
from PIL import Image
shots = [np.asarray(Image.open(f"{sys.argv[1]}/shot{i}.png").convert("RGB")).astype(int) for i in (1, 2, 3)]
magenta = [int(((s[..., 0] == 255) & (s[..., 1] == 0) & (s[..., 2] == 255)).sum()) for s in shots]
# The mesh's lines, cyan at 160/255 over the ground: blue and green well above red.
cyan = [int(((s[..., 2] - s[..., 0] > 90) & (s[..., 1] - s[..., 0] > 90)).sum()) for s in shots]
print(f"path-coloured pixels {magenta}, cyan pixels {cyan} (before N, after N, after the path)")
ok = magenta[0] == 0 and magenta[1] == 0 and magenta[2] >= 100 and cyan[1] >= cyan[0] + 1000
sys.exit(0 if ok else 1)
EOF
echo "viewer navigation: ok"
