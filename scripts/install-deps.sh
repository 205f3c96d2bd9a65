#!/usr/bin/env bash
# Installs the Debian 12 packages isoterra needs; skips apt when all are present. Run as root
# (CI and the README's commands do).
# Usage: bash scripts/install-deps.sh [--tests]
#   alone:    what the library and the program build with (the README's first command)
#   --tests:  that and what the tests use: GoogleTest, Google Benchmark, Xvfb, emscripten,
#             Chromium, Open MPI, Python, Mono, Blender, clang-format, MkDocs, Node.js and the pinned
#             npm packages; Doxygen and matplotlib (the generated docs pages)
set -euo pipefail
with_tests=0
case "${1:-}" in
  --tests) with_tests=1 ;;
  "") ;;
  *) echo "install-deps.sh: unknown option '$1' (expected --tests or nothing)" >&2; exit 2 ;;
esac
packages=(
  g++ cmake make ninja-build pkg-config git ca-certificates
  libcli11-dev libtomlplusplus-dev nlohmann-json3-dev libfmt-dev libglm-dev libspng-dev
  libsqlite3-dev libzstd-dev libgdal-dev libmeshoptimizer-dev librecast-dev
  libepoxy-dev libegl-dev libegl-mesa0 libgl1-mesa-dri
  libglfw3-dev libimgui-dev libstb-dev
)
test_packages=(
  libgtest-dev libgmock-dev libbenchmark-dev libnoise-dev gdal-bin
  python-matplotlib-data python3-numpy python3-pil pybind11-dev python3-dev python3-pytest
  xvfb xauth xdotool emscripten chromium openmpi-bin libopenmpi-dev
  mono-mcs mono-runtime blender clang-format mkdocs doxygen python3-matplotlib
)
if [ "$with_tests" = 1 ]; then packages+=("${test_packages[@]}"); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js runs the Khronos glTF validator and the web page's tests; Debian's is used when
# none is here.
if [ "$with_tests" = 1 ]; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
fi
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
fi
[ "$with_tests" = 1 ] || exit 0
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
