#!/usr/bin/env bash
# Installs what is missing, configures (Release) and builds with both cores.
# Usage: bash scripts/build.sh [--tests] [extra cmake -D options]
#   alone:    the library and the program (what scripts/demo.sh runs)
#   --tests:  also the test-only packages and the test programs, the ThreadSanitizer copy
#             and the benchmarks (the README's test command; ctest builds the sanitizer tree)
set -euo pipefail
cd "$(dirname "$0")/.."
tests=OFF
if [ "${1:-}" = "--tests" ]; then
  shift
  tests=ON
  bash scripts/install-deps.sh --tests
else
  bash scripts/install-deps.sh
fi
# Ninja for a new tree (one made before keeps its generator): it compiles a stage's files
# while the stage before it links, where make builds stage after stage; 224 s against 267 s
# for this tree with the tests (docs/design/reliability.md).
generator=()
[ -f build/CMakeCache.txt ] || generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DISOTERRA_BUILD_TESTS=$tests -DISOTERRA_BUILD_BENCH=$tests "$@" >/dev/null
cmake --build build -j2
