#!/usr/bin/env bash
# The Blender add-on in Debian's Blender 3.4, headless, with a fresh HOME (its preferences
# and installed add-ons go there). Usage: run.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
HOME="$work" blender -b --factory-startup --python-exit-code 1 --python "$source_dir/tests/integrations/blender/test_addon.py" \
  -- "$source_dir" "$build" "$work" 2>&1 | grep -v "^Color management\|^Read prefs\|^Blender quit" || exit 1
