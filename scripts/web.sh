#!/usr/bin/env bash
# The web page: installs what it needs (Debian's emscripten, the pinned npm packages),
# compiles the C++ core to WebAssembly from the same sources as the native build
# (build/wasm), bundles the page with Vite into build/web, and serves it on 127.0.0.1.
#   bash scripts/web.sh [--port N]     build, then serve until stopped (default port 8080)
#   bash scripts/web.sh --build-only   build only (the tests do this)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
port=8080
serve=1
while [ $# -gt 0 ]; do
  case "$1" in
    --port) [ $# -ge 2 ] || { echo "web.sh: --port needs a number" >&2; exit 2; }; port=$2; shift 2 ;;
    --build-only) serve=0; shift ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "web.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$port" in ''|*[!0-9]*) echo "web.sh: --port '$port' must be a port number" >&2; exit 2 ;; esac

# emscripten and Chromium (for the tests) come with the project's packages.
if ! command -v em++ >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then echo "web.sh: emscripten or node missing; run bash scripts/install-deps.sh --tests as root" >&2; exit 2; fi
  bash "$here/scripts/install-deps.sh" --tests
fi
if [ ! -d "$here/web/node_modules/@babylonjs/core" ] || [ "$here/web/package-lock.json" -nt "$here/web/node_modules/.package-lock.json" ]; then
  echo "web.sh: npm ci (pinned by web/package-lock.json)"
  # --ignore-scripts: two packages are here only for the SQLite and zstd sources they ship.
  (cd "$here/web" && npm ci --ignore-scripts --silent --no-audit --no-fund)
fi

# meshoptimizer's source, the very version the native build links (Debian's 0.18), for the
# page's compressed glb: the Debian source tarball, checked against its SHA-256.
meshopt="$here/build/web-sources/meshoptimizer-0.18"
if [ ! -f "$meshopt/src/meshoptimizer.h" ]; then
  echo "web.sh: fetching meshoptimizer 0.18's source (Debian)"
  mkdir -p "$here/build/web-sources"
  tarball="$here/build/web-sources/meshoptimizer_0.18+dfsg.orig.tar.xz"
  /usr/lib/apt/apt-helper -q -o APT::Sandbox::User=root download-file \
    "http://deb.debian.org/debian/pool/main/m/meshoptimizer/meshoptimizer_0.18+dfsg.orig.tar.xz" "$tarball" \
    SHA256:881ea2cc687f1fef5ce70484e0ca6504e13856dd856677749f3763bc685956d3 >/dev/null \
    || { echo "web.sh: could not fetch meshoptimizer's source from deb.debian.org" >&2; exit 1; }
  tar -xJf "$tarball" -C "$here/build/web-sources"
  rm -f "$tarball"
fi

# Debian's emscripten finds its JavaScript tools (acorn) under Debian's node path.
export NODE_PATH=/usr/share/nodejs
jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -f "$here/build/wasm/CMakeCache.txt" ]; then
  # A unity build (16 files a unit), as in the sanitizer tree: the headers every file
  # includes are compiled once a unit (docs/design/reliability.md).
  emcmake cmake -S "$here" -B "$here/build/wasm" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch" >/dev/null
fi
echo "web.sh: compiling the core to WebAssembly (build/wasm)"
# The build's status is kept: a failed build must not leave an older isoterra.wasm to bundle.
log="$here/build/wasm/build.log"
built=0
cmake --build "$here/build/wasm" -j"$jobs" -- --no-print-directory >"$log" 2>&1 || built=$?
grep -E "error:|warning:|Linking CXX executable" "$log" || true
if [ "$built" != 0 ]; then echo "web.sh: the WebAssembly build failed (exit $built; $log)" >&2; exit 1; fi
test -s "$here/web/src/wasm/isoterra.wasm" || { echo "web.sh: the WebAssembly build failed" >&2; exit 1; }
echo "web.sh: bundling the page (build/web)"
(cd "$here/web" && npx --no-install vite build --logLevel error)
test -s "$here/build/web/index.html" || { echo "web.sh: the page was not built" >&2; exit 1; }
echo "web.sh: built build/web ($(du -sh "$here/build/web" | cut -f1))"

if [ "$serve" = 1 ]; then
  exec node "$here/web/serve.mjs" --port "$port" --root "$here/build/web"
fi
