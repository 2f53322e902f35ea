#!/usr/bin/env bash
# Wall time of whole sweeps at np 1 and np 2, for one or more drbench binaries, interleaved and
# repeated so that a busy machine affects every variant alike. Prints one line per run and the
# load average before each round.
#   benchmarks/sched_compare.sh [-r ROUNDS] CONFIG [--quick] -- DRBENCH...
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/mpi-env.sh
rounds=3
if [ "${1:-}" = -r ]; then rounds=$2; shift 2; fi
cfg=$1; shift
extra=()
while [ "$1" != -- ]; do extra+=("$1"); shift; done
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for round in $(seq "$rounds"); do
  echo "round $round, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  for bin in "$@"; do
    for np in 1 2; do
      rm -f "$out"/r.h5*
      t0=$(date +%s.%N)
      mpirun --oversubscribe -np "$np" "$bin" run "$cfg" "${extra[@]}" --output "$out/r.h5" \
        --quiet --no-table
      t1=$(date +%s.%N)
      printf '  %-40s np %d  %7.2f s\n' "$bin" "$np" "$(echo "$t1 - $t0" | bc)"
    done
  done
done
