#!/usr/bin/env bash
# drbench's FFT t-SNE against openTSNE (the reference FIt-SNE implementation in Python), side by
# side in one run on Fashion-MNIST: the first N (default 60,000) training images, one global
# min/max to [0, 1], PCA to 50-D computed once and written to one file that both programs read;
# perplexity 30, 250 iterations of early exaggeration 12 at momentum 0.5 then 500 at 0.8,
# learning rate max(n/12, 200), FFT gradient (3 nodes per interval, >= 50 intervals), one thread
# (OMP_NUM_THREADS=1, openTSNE n_jobs=1, drbench threads: 1). Each program's neighbour search is
# its own default for this size (drbench: HNSW through neighbour_graph: auto; openTSNE: Annoy).
# Reported: wall time, CPU time and peak memory of each whole command (/usr/bin/time -v: loading the input,
# the neighbour search, affinities, 750 iterations, writing the result) and the leave-one-out 1-NN
# error of each 2-D embedding, computed by the same Python code for both.
#
# openTSNE is not a dependency: without it the script says how to get it and exits 0.
#   git clone https://github.com/pavlin-policar/openTSNE /tmp/fftsne/openTSNE
#   apt-get install cython3 python3-numpy libfftw3-dev
#   cd /tmp/fftsne/openTSNE && python3 setup.py build_ext --inplace
# Usage: bash benchmarks/fmnist_tsne_opentsne.sh [N]   (OPENTSNE_DIR, WORK override the paths)
#   GRID='{}' runs drbench's t-SNE at its defaults (gradient: auto, 1,000 iterations) instead of
#   the schedule above; GRID is the drbench method's `grid:` map, written into the config as is.
# Timings mean something only against each other within one run (the machine may be shared).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-60000}
OPENTSNE_DIR=${OPENTSNE_DIR:-/tmp/fftsne/openTSNE}
WORK=${WORK:-/tmp/fftsne/bench_fmnist_$N}
PY=/usr/bin/python3
HELPER=benchmarks/fmnist_tsne_opentsne.py
GRID=${GRID:-"{gradient: fft, perplexity: 30, iterations: 750, exaggeration_iterations: 250}"}

if ! PYTHONPATH=$OPENTSNE_DIR $PY -c "import openTSNE._tsne" 2>/dev/null; then
  echo "SKIP: openTSNE not importable from OPENTSNE_DIR=$OPENTSNE_DIR. Get it with:"
  sed -n '/^#   git clone/,/build_ext/p' "$0" | sed 's/^#//'
  exit 0
fi
if [ ! -x build/drbench ]; then
  echo "SKIP: build/drbench missing (bash scripts/build.sh)"
  exit 0
fi
[ -f /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz ] || {
  echo "SKIP: Fashion-MNIST not installed (apt-get install dataset-fashion-mnist)"
  exit 0
}
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMBA_NUM_THREADS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 HDF5_USE_FILE_LOCKING=FALSE
mkdir -p "$WORK"
rm -f "$WORK"/drbench.h5* "$WORK"/opentsne.npy
[ -f "$WORK/fmnist_pca50.h5" ] || $PY $HELPER prepare "$WORK" "$N"

cat >"$WORK/config.yaml" <<EOF
name: fmnist_tsne_bench
seed: 1
threads: 1
blas_threads: 1
datasets:
  - {name: fmnist_pca50, source: file, path: $WORK/fmnist_pca50.h5, verify_checksum: false}
splits: {all: true}
methods:
  - method: tsne
    label: t-SNE
    dims: [2]
    grid: $GRID
evaluation: {protocol: transductive, knn: [1]}
output: {path: $WORK/drbench.h5, keep_embeddings: true, keep_traces: true}
EOF

peak() { awk -F': ' '/Maximum resident/ {printf "%.0f MiB", $2 / 1024}' "$1"; }
wall() { awk -F': ' '/Elapsed \(wall/ {print $2}' "$1"; }
# CPU seconds (user + system): the fairer measure when other jobs share the cores.
cpu() { awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {printf "%.1f s", u + s}' "$1"; }

echo "== drbench (t-SNE, grid $GRID, $N points; load: $(cut -d' ' -f1-3 /proc/loadavg))"
/usr/bin/time -v -o "$WORK/time_drbench.txt" build/drbench run "$WORK/config.yaml" --quiet
echo "== openTSNE (FFT, $N points; load: $(cut -d' ' -f1-3 /proc/loadavg))"
PYTHONPATH=$OPENTSNE_DIR /usr/bin/time -v -o "$WORK/time_opentsne.txt" $PY $HELPER opentsne "$WORK"
$PY - "$WORK/drbench.h5" <<'EOF'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    for t in f["traces"]:
        tr = f["traces"][t][:]
        print(f"drbench optimiser: {tr.shape[0]} iterations in {tr[-1, 3]:.1f} s, final KL {tr[-1, 1]:.4f}")
EOF
echo "== results ($N points, one thread; same run, same machine; load: $(cut -d' ' -f1-3 /proc/loadavg))"
for who in drbench openTSNE; do
  f=$WORK/time_$(echo $who | tr A-Z a-z).txt
  printf '%-10s wall %s  cpu %s  peak %s\n' $who "$(wall "$f")" "$(cpu "$f")" "$(peak "$f")"
done
$PY $HELPER score "$WORK"
