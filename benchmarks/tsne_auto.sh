#!/usr/bin/env bash
# Where t-SNE's `gradient: auto` should switch from Barnes-Hut to FFT: CPU seconds per iteration of
# both, one thread, on Fashion-MNIST (the first n training images, one global min/max, PCA to 50-D)
# for n in SIZES and latent dims 1 and 2, drbench's default schedule (ITER iterations, 250 of them
# exaggerated). Each fit's CPU time less that of a 1-iteration fit of the same n (the neighbour
# search and P, which both gradients share), over ITER - 1. CPU time, not wall: the figures hold on
# a shared machine. Needs build/benchmarks/bench_tsne (-DDRBENCH_BENCHMARKS=ON) and
# dataset-fashion-mnist.
#   bash benchmarks/tsne_auto.sh   # SIZES="5000 10000 20000 40000" DIMS="2 1" ITER=1000 WORK=/tmp/tsne_auto
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-/tmp/tsne_auto}
SIZES=${SIZES:-"5000 10000 20000 40000"}
DIMS=${DIMS:-"2 1"}
ITER=${ITER:-1000}
BENCH=build/benchmarks/bench_tsne
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
mkdir -p "$WORK"
out=$WORK/runs_${DIMS// /}.txt
: >"$out"
for n in $SIZES; do
  m=$WORK/fmnist_$n.f64
  if [ ! -f "$m" ]; then
    /usr/bin/python3 benchmarks/tsne_auto.py prepare "$n" "$m.$$"
    mv "$m.$$" "$m"
  fi
  echo "$n base barnes_hut $($BENCH "$m" barnes_hut 1 30 0.5 2)" >>"$out"
  for dims in $DIMS; do
    for g in barnes_hut fft; do
      echo "$n $dims $g $($BENCH "$m" "$g" "$ITER" 30 0.5 "$dims")" | tee -a "$out"
    done
  done
done
/usr/bin/python3 benchmarks/tsne_auto.py table "$out" "$ITER"
