#!/usr/bin/env bash
# Generates the reference pages from the code, so they cannot drift: every subcommand's
# --help, the node table, the C API (Doxygen), the Python module's docstrings, the file
# formats (from files the program writes), and the benchmarks page from bench/data/.
# Usage: bash scripts/docs-reference.sh BUILD_DIR [OUT_DIR]   write the pages (OUT_DIR: docs)
#        bash scripts/docs-reference.sh --check BUILD_DIR     regenerate into a temporary
#             folder and fail, naming the file and its first differing line, when a
#             checked-in page is stale (the docs tests)
# `cmake --build build --target docs_reference` builds what it needs and writes the pages.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
if [ $# -lt 1 ] || [ $# -gt 2 ] || { [ $check = 1 ] && [ $# != 1 ]; }; then
  echo "usage: docs-reference.sh BUILD_DIR [OUT_DIR] | --check BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
[ -x "$build/isoterra" ] || { echo "docs-reference.sh: $build/isoterra: not built" >&2; exit 2; }
command -v doxygen >/dev/null || { echo "docs-reference.sh: doxygen: not installed (scripts/install-deps.sh --tests)" >&2; exit 2; }
py=/usr/bin/python3  # Debian's, with the module's numpy and matplotlib
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/docs
tools=$here/tools/docs
# Fixed for every page: the locale and no user configuration of matplotlib.
export LC_ALL=C.UTF-8 MPLCONFIGDIR=$tmp/mpl PYTHONDONTWRITEBYTECODE=1 PYTHONHASHSEED=0
$py "$tools/cli_reference.py" "$build/isoterra" "$out/reference/cli.md"
$py "$tools/nodes_reference.py" "$build/isoterra" "$out/reference/nodes.md"
$py "$tools/c_api_reference.py" "$here" "$out/reference/c-api.md"
$py "$tools/python_reference.py" "$build" "$out/reference/python-api.md"
$py "$tools/file_formats.py" "$build/isoterra" "$here" "$out/reference/file-formats.md"
$py "$here/bench/render_benchmarks.py" "$here/bench/data" "$here/bench/benchmarks.md.in" "$out"
if [ $check = 1 ]; then
  exec $py "$tools/compare_pages.py" "$out" "$here/docs"
fi
target=${2:-$here/docs}
mkdir -p "$target"
cp -r "$out"/. "$target"/
echo "docs-reference: wrote $(cd "$out" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ')into $target"
