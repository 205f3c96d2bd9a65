#!/usr/bin/env bash
# Formats the project's C and C++ sources with clang-format and the style in .clang-format.
# Usage: bash scripts/format.sh [--check]
#   alone:    reformats every source in place
#   --check:  changes nothing; names each file that differs (one line each) and exits 1,
#             or exits 0 when all conform
# The sources: *.cpp *.hpp *.h *.c *.inc under src/ include/ apps/ tests/ bench/ examples/
# integrations/ web/core/, nothing under build*/ or node_modules/. Tables whose hand layout
# matters sit between `// clang-format off` and `// clang-format on`.
# clang-format-14 (Debian 12's) is taken when present, else clang-format: other versions
# may format some lines differently.
set -euo pipefail
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "format.sh: unknown option '$1' (expected --check or nothing)" >&2; exit 2 ;;
esac
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if command -v clang-format-14 >/dev/null 2>&1; then cf=clang-format-14
elif command -v clang-format >/dev/null 2>&1; then cf=clang-format
else
  echo "format.sh: clang-format not found (install Debian's clang-format package: scripts/install-deps.sh --tests)" >&2
  exit 2
fi
dirs=()
for d in src include apps tests bench examples integrations web/core; do [ -d "$d" ] && dirs+=("$d"); done
mapfile -d '' files < <(find "${dirs[@]}" \( -name 'build*' -o -name node_modules \) -prune -o \
  -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.c' -o -name '*.inc' \) -print0 | sort -z)
if [ "$check" = 0 ]; then
  printf '%s\0' "${files[@]}" | xargs -0 -n 32 -P "$(nproc)" "$cf" -i --style=file
  exit 0
fi
# One clang-format a file, as many at once as there are cores; the names of those that differ.
export cf
mapfile -t differ < <(printf '%s\0' "${files[@]}" |
  xargs -0 -n 1 -P "$(nproc)" sh -c '"$cf" --style=file "$1" | cmp -s - "$1" || echo "$1"' sh | sort)
if [ "${#differ[@]}" -gt 0 ]; then
  for f in "${differ[@]}"; do echo "format.sh: $f differs from clang-format's layout"; done
  echo "format.sh: ${#differ[@]} file(s) differ; run: bash scripts/format.sh ($("$cf" --version))" >&2
  exit 1
fi
