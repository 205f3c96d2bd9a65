#!/usr/bin/env bash
# Installs what is missing, configures (Release) and builds with both cores.
# Usage: bash scripts/build.sh [--tests] [extra cmake -D options]
#   alone:    the library and the program (what scripts/demo.sh runs)
#   --tests:  also the test-only packages and the test programs, the ThreadSanitizer copy
#             and the benchmarks (the README's test command; ctest builds the sanitizer tree)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--tests" ]; then
  shift
  bash scripts/install-deps.sh --tests
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DISOTERRA_BUILD_TESTS=ON -DISOTERRA_BUILD_BENCH=ON "$@" >/dev/null
else
  bash scripts/install-deps.sh
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DISOTERRA_BUILD_TESTS=OFF -DISOTERRA_BUILD_BENCH=OFF "$@" >/dev/null
fi
cmake --build build -j2
