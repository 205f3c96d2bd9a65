#!/usr/bin/env bash
# The whole test suite once more, built with AddressSanitizer and UndefinedBehaviorSanitizer:
# any out-of-bounds access, use after free, leak, overflow or other undefined behaviour in the
# library, the program or the tests fails it. Run by CTest from the main build.
# Usage: run_whole_suite.sh SOURCE_DIR BUILD_DIR [--build-only | --run-only]
#   CTest builds the tree while the rest of the suite runs (--build-only), then runs it
#   alone (--run-only); with neither it does both.
set -euo pipefail
src=$1
dir=$2
mode=${3:-}
case "$mode" in ''|--build-only|--run-only) ;; *) echo "run_whole_suite.sh: unknown mode '$mode'" >&2; exit 2 ;; esac
if [ "$mode" != --run-only ]; then
  # -g1: line tables and functions, enough for the reports' stack traces, and a quarter less
  # compile time than -g.
  flags="-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
  # Programs linked at a fixed address (-no-pie): a position-independent one applies 450,000
  # relocations as it starts (0.15 s against 0.12 under ASan), and the run starts about 800
  # of them, tests and the programs they run (docs/design/reliability.md).
  # A unity build (16 files a unit): the headers and the inline code every file instantiates
  # again (GoogleTest, CLI11, nlohmann/json, fmt) are compiled once a unit, not once a file.
  # It halves this tree's build (docs/design/reliability.md). The files with per-target code are
  # left out (CMakeLists.txt).
  # Ninja for a new tree, as scripts/build.sh.
  generator=()
  [ -f "$dir/CMakeCache.txt" ] || generator=(-G Ninja)
  cmake -S "$src" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="$flags" \
        -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 \
        -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined -no-pie" -DISOTERRA_BUILD_TESTS=ON -DISOTERRA_BUILD_BENCH=OFF -DISOTERRA_TSAN_TESTS=OFF -DISOTERRA_SANITIZER_TESTS=OFF -DISOTERRA_WEB_TESTS=OFF \
        -DISOTERRA_WITH_MPI=OFF -DISOTERRA_BUILD_PYTHON=OFF -DISOTERRA_FOREIGN_HOST_TESTS=OFF -DISOTERRA_DELIVERY_TESTS=OFF >/dev/null  # MPI, Python, Blender, Mono, the package, the glTF validator, clang-format: the main tree only
  # Quiet unless something is wrong: the build's output goes to a log that is shown on failure.
  # Under CTest it shares the cores with the rest of the suite: at a lower priority, so that
  # the tests beside it run as fast as alone and the build takes the time they leave.
  # There it runs three compilers at a time: the tests beside it often wait (on browsers, on
  # the programs they start), and the third fills the cores meanwhile.
  nice_build=()
  jobs=2
  [ "$mode" = --build-only ] && nice_build=(nice -n 15) && jobs=3
  if ! "${nice_build[@]}" cmake --build "$dir" -j"$jobs" >"$dir/build.log" 2>&1; then
      tail -50 "$dir/build.log"
      exit 1
  fi
fi
[ "$mode" = --build-only ] && exit 0
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=1:strict_string_checks=1"
# eglTerminate unloads Mesa's driver (dlclose) before the leak check runs, and the memory it
# keeps is then reported from an unknown module, which no suppression can name. Loaded up
# front, the driver stays until exit and its frames carry its name. Only the program draws,
# so only the program gets it (run_cli.hpp, view_edit.sh): loading LLVM cost each of the
# run's other processes (tests, shells, `rm`) 0.1-0.16 s. (Keeping it loaded with a dlclose
# that does nothing instead made LeakSanitizer's tracer crash in 3 of 108 renders: the
# driver's thread-local storage is then dynamic.) It defines no function ASan intercepts, so
# ASan's runtime need not come before it.
driver=/usr/lib/$(gcc -print-multiarch)/dri/swrast_dri.so
if [ -f "$driver" ]; then
    export ISOTERRA_TEST_PROGRAM_ENV="LD_PRELOAD=$driver"
    ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"
fi
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Mesa's software renderer keeps memory until exit; the leaks that are its own are not ours.
export LSAN_OPTIONS="suppressions=$src/tests/sanitizers/lsan.supp:print_suppressions=0"
# Real-time checks ask less of a program slowed down several times (as under TSan).
export ISOTERRA_TEST_SLOW=1 ISOTERRA_FUZZ_SECONDS=10
# Three at a time on two cores: many of these tests wait (on the programs they start, on
# Xvfb, on killed children), and a third fills the cores meanwhile; the real-time checks
# ask less of a slow build (above).
ctest --test-dir "$dir" -j3 --output-on-failure
