#!/usr/bin/env bash
# drbench's FFT t-SNE against FIt-SNE (KlugerLab's C++ reference, Linderman et al. 2019) per
# iteration, one thread, on Fashion-MNIST (the first n training images, one global min/max, PCA to
# 50-D: benchmarks/tsne_auto.py prepare), side by side in one run: for each n, REPS rounds of
# drbench then FIt-SNE at ITER iterations, then one round at 1 iteration (the neighbour search
# and P, which each program does its own way: drbench an exact graph, FIt-SNE Annoy). Per
# iteration: (median CPU of the long runs - CPU of the 1-iteration run) / (ITER - 1), CPU = user +
# system time of the whole command, which holds on a shared machine where wall time does not.
# Same schedule for both: perplexity 30 (90 neighbours), 250 iterations at exaggeration 12 and
# momentum 0.5, then 0.8, learning rate max(n / 12, 200), PCA start, 3 nodes per interval, at
# least 50 intervals of at most one unit. With PERF=1 the first long run of each program is
# sampled by `perf record` and its time split into phases (tsne_fitsne.py phases).
#
# FIt-SNE is not a dependency: without it the script says how to get it and exits 0.
#   git clone https://github.com/KlugerLab/FIt-SNE /tmp/fitsne/src
#   cd /tmp/fitsne/src && g++ -O3 src/sptree.cpp src/tsne.cpp src/nbodyfft.cpp -lfftw3 -pthread \
#     -o /tmp/fitsne/fitsne
# Needs build/benchmarks/bench_tsne (-DDRBENCH_BENCHMARKS=ON) and dataset-fashion-mnist.
#   bash benchmarks/tsne_fitsne.sh   # SIZES="20000 60000" ITER=750 REPS=2 PERF=0
#                                    # FITSNE=/tmp/fitsne/fitsne BENCH=build/benchmarks/bench_tsne
# BASE=path/to/another/bench_tsne adds that build's runs (a before/after column), in turn with
# the others.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-/tmp/tsne_fitsne}
SIZES=${SIZES:-"20000 60000"}
ITER=${ITER:-750}
REPS=${REPS:-2}
PERF=${PERF:-0}
FITSNE=${FITSNE:-/tmp/fitsne/fitsne}
BENCH=${BENCH:-build/benchmarks/bench_tsne}
BASE=${BASE:-}
PY=/usr/bin/python3
if [ ! -x "$FITSNE" ]; then
  echo "SKIP: no FIt-SNE binary at FITSNE=$FITSNE. Get it with:"
  sed -n '/^#   git clone/,/-o \/tmp/p' "$0" | sed 's/^#//'
  exit 0
fi
[ -x "$BENCH" ] || { echo "SKIP: $BENCH missing (scripts/build.sh -DDRBENCH_BENCHMARKS=ON)"; exit 0; }
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
mkdir -p "$WORK"
out=$WORK/cpu.txt
: >"$out"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

# One command's user + system seconds (its output thrown away), under perf when $2 is a file.
cpu_of() {
  local prof=$1
  shift
  if [ -n "$prof" ]; then
    /usr/bin/time -f "%U %S" -o "$WORK/t" perf record -q -F 499 -e task-clock -o "$prof" \
      "$@" >/dev/null 2>&1
  else
    /usr/bin/time -f "%U %S" -o "$WORK/t" "$@" >/dev/null 2>&1
  fi
  awk '{printf "%.2f", $1 + $2}' "$WORK/t"
}

for n in $SIZES; do
  m=$WORK/fmnist_$n.f64
  [ -f "$m" ] || { $PY benchmarks/tsne_auto.py prepare "$n" "$m.$$" && mv "$m.$$" "$m"; }
  for its in "$ITER" 1; do
    $PY benchmarks/tsne_fitsne.py fitsne-input "$m" "$its" "$WORK/fitsne_${n}_$its.dat"
  done
  reps=$REPS
  for its in "$ITER" 1; do
    for r in $(seq "$reps"); do
      pd="" pf=""
      if [ "$PERF" = 1 ] && [ "$r" = 1 ] && [ "$its" != 1 ]; then
        pd=$WORK/perf_drbench_$n.data pf=$WORK/perf_fitsne_$n.data
      fi
      [ -z "$BASE" ] || echo "$n base $its $(cpu_of "" "$BASE" "$m" fft "$its" 30 0.5 2)" | tee -a "$out"
      echo "$n drbench $its $(cpu_of "$pd" "$BENCH" "$m" fft "$its" 30 0.5 2)" | tee -a "$out"
      echo "$n fitsne $its $(cpu_of "$pf" "$FITSNE" 1.2.1 "$WORK/fitsne_${n}_$its.dat" \
        "$WORK/fitsne_result.dat" 1)" | tee -a "$out"
    done
    reps=1
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
$PY benchmarks/tsne_fitsne.py table "$out" | tee "$WORK/table.md"
if [ "$PERF" = 1 ]; then
  for n in $SIZES; do
    for who in drbench fitsne; do
      total=$(awk -v n="$n" -v w="$who" -v it="$ITER" \
        '$1 == n && $2 == w && $3 == it {print $4; exit}' "$out")
      echo "== $who, $n points: phases of the first $ITER-iteration run ($total CPU s)"
      perf report -i "$WORK/perf_${who}_$n.data" --no-children --sort dso,symbol 2>/dev/null \
        >"$WORK/report_${who}_$n.txt"
      $PY benchmarks/tsne_fitsne.py phases "$WORK/report_${who}_$n.txt" "$total" "$ITER"
    done
  done
fi
