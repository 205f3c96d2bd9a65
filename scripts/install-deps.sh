#!/usr/bin/env bash
# Installs the Debian 12 packages isoterra builds and tests with; skips apt when all are
# present. Run as root (CI and the README's commands do).
set -euo pipefail
packages=(
  g++ cmake make pkg-config git ca-certificates
  libcli11-dev libtomlplusplus-dev nlohmann-json3-dev libfmt-dev libglm-dev libspng-dev
  libsqlite3-dev libzstd-dev libnoise-dev libgdal-dev gdal-bin libmeshoptimizer-dev
  python-matplotlib-data python3-numpy
  libgtest-dev libgmock-dev libbenchmark-dev
  libepoxy-dev libegl-dev libegl-mesa0 libgl1-mesa-dri
  libglfw3-dev libimgui-dev libstb-dev xvfb xauth xdotool
  emscripten chromium openmpi-bin libopenmpi-dev
  pybind11-dev python3-dev python3-pytest mono-mcs mono-runtime blender
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js runs the Khronos glTF validator in the tests; Debian's is used when none is here.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
fi
# The glTF validator, pinned by its package-lock.json.
here=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$here/tools/gltf-validator/node_modules/gltf-validator" ]; then
  (cd "$here/tools/gltf-validator" && npm ci --silent --no-audit --no-fund)
fi
# The web page's packages (Babylon.js, Vite, playwright-core; SQLite's and zstd's sources),
# pinned by web/package-lock.json; no install scripts run.
if [ ! -d "$here/web/node_modules/@babylonjs/core" ]; then
  (cd "$here/web" && npm ci --ignore-scripts --silent --no-audit --no-fund)
fi
