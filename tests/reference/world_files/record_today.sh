#!/usr/bin/env bash
# Made the world files NAME_7acd295.db and their expectations NAME_7acd295.expect (samples
# and a mesh digest around the two edits) with the build of commit 7acd295:
#   bash tests/reference/world_files/record_today.sh [BUILD_DIR]
# The test WorldFileMadeAt7acd295.* (tests/mesh/world_files_today_test.cpp) checks them.
# Run again only with a build of that commit: the files stand for what it made.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-build}"
ISOTERRA_RECORD_WORLD_FILES="$here" "$build/tests/test_mesh" --gtest_filter='Builtins/WorldFileMadeAt7acd295.*'
