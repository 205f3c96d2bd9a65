#!/usr/bin/env bash
# isoterra bake end to end: tiles per second with 1 and 2 threads in one process, and with 1
# and 2 MPI ranks of one thread each (mpirun), alternately, ROUNDS times; prints medians and
# the speed-ups. Usage: bash bench/bake-scaling.sh [ROUNDS] (default 3); needs build/isoterra
# and, for the MPI rows, mpirun.
set -euo pipefail
rounds=${1:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$here/build/isoterra
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
args=(bake --preset tutorial --from 0,0 --to 1024,1024 --levels 6 --quiet)
tiles=1365
run() {  # name, command...: seconds of one bake into a fresh folder
  local name=$1; shift
  rm -rf "$work/out"
  local t0 t1
  t0=$(date +%s.%N)
  "$@" --out "$work/out" > /dev/null
  t1=$(date +%s.%N)
  echo "$name $(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" >> "$work/times"
}
for _ in $(seq "$rounds"); do
  run threads1 "$bin" "${args[@]}" --threads 1
  run threads2 "$bin" "${args[@]}" --threads 2
  if command -v mpirun > /dev/null; then
    run ranks1 mpirun -np 1 "$bin" "${args[@]}" --threads 1
    run ranks2 mpirun -np 2 "$bin" "${args[@]}" --threads 1
  fi
done
median() { grep "^$1 " "$work/times" | awk '{print $2}' | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "tutorial, 1024 m square, 6 levels: $tiles tiles; medians of $rounds rounds ($(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores)"
for k in threads1 threads2 ranks1 ranks2; do
  grep -q "^$k " "$work/times" 2>/dev/null || continue
  m=$(median $k)
  printf '%-9s %7.2f s  %7.1f tiles/s\n' "$k" "$m" "$(awk -v t=$tiles -v m="$m" 'BEGIN {print t / m}')"
done
ratio() { awk -v a="$(median "$1")" -v b="$(median "$2")" 'BEGIN {print a / b}'; }
printf 'speed-up 1 -> 2 threads: %.2fx\n' "$(ratio threads1 threads2)"
grep -q "^ranks2 " "$work/times" && printf 'speed-up 1 -> 2 ranks:   %.2fx\n' "$(ratio ranks1 ranks2)"
exit 0
