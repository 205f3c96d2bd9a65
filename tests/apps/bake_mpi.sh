#!/usr/bin/env bash
# isoterra bake under mpirun: 1, 2 and 3 ranks give the digest of one process alone; a rank
# killed part-way aborts the run, and the same command with --resume finishes it with that
# digest. Usage: bake_mpi.sh ISOTERRA_BINARY WORK_DIR
set -euo pipefail
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
# As root (CI), on two cores, in containers without cross-memory attach.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
args=(bake --preset tutorial --from 0,0 --to 512,512 --levels 5 --quiet)
"$bin" "${args[@]}" --out "$work/alone" > /dev/null
reference=$(cat "$work/alone/bake.digest")
for np in 1 2 3; do
  mpirun -np $np "$bin" "${args[@]}" --threads 1 --out "$work/np$np" > "$work/np$np.log"
  got=$(cat "$work/np$np/bake.digest")
  [ "$got" = "$reference" ] || { echo "mpirun -np $np: digest $got, one process alone: $reference"; exit 1; }
  [ "$(tail -1 "$work/np$np.log")" = "$reference" ] || { echo "mpirun -np $np: rank 0 did not print the digest last"; exit 1; }
  echo "mpirun -np $np: $got, as one process alone"
done
# Kill one rank with SIGKILL once ten jobs are complete: mpirun ends every rank.
mpirun -np 2 "$bin" "${args[@]}" --threads 1 --out "$work/killed" > "$work/killed.log" 2>&1 &
launcher=$!
for _ in $(seq 6000); do
  [ "$(find "$work/killed/jobs" -name '*.json' 2>/dev/null | wc -l)" -ge 10 ] && break
  sleep 0.01
done
victim=$(pgrep -f -- "--out $work/killed" | grep -v "^$launcher\$" | while read -r p; do
  [ "$(cat /proc/$p/comm 2>/dev/null)" = isoterra ] && echo "$p"; done | tail -1)
[ -n "$victim" ] || { echo "no rank to kill (the bake finished first?)"; exit 1; }
kill -9 "$victim"
if wait $launcher; then echo "mpirun exited 0 although a rank was killed"; exit 1; fi
[ ! -e "$work/killed/bake.digest" ] || { echo "the killed bake wrote a digest"; exit 1; }
echo "a killed rank aborted the run (mpirun exited non-zero, no digest)"
mpirun -np 2 "$bin" "${args[@]}" --threads 1 --resume --out "$work/killed" > "$work/resumed.log"
got=$(cat "$work/killed/bake.digest")
[ "$got" = "$reference" ] || { echo "resumed under mpirun: digest $got, one process alone: $reference"; exit 1; }
[ -z "$(find "$work/killed" -name '*.tmp*')" ] || { echo "temporary files left"; exit 1; }
echo "resumed with --resume: $got, as one process alone"
