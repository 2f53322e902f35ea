#!/usr/bin/env bash
# Recall and speed of the approximate (HNSW) neighbour graph against the exact one on Fashion-MNIST
# ([0, 1] pixels, PCA to 50-D, the first N of the 70,000 images), one thread:
#   bash scripts/bench_graph.sh [N=60000] [k=15]
# Needs the benchmark build (bash scripts/build.sh -DDRBENCH_BENCHMARKS=ON) and Debian's
# dataset-fashion-mnist. Peak memory from /usr/bin/time -v.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-60000}
k=${2:-15}
bench=build/benchmarks/bench_graph
[ -x "$bench" ] || { echo "$bench missing (fix: bash scripts/build.sh -DDRBENCH_BENCHMARKS=ON)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$n" "$tmp/x.f64" <<'PY'
import sys
sys.path.insert(0, "scripts")
from bench_tsne_sklearn import fashion_pca50, write_matrix
write_matrix(fashion_pca50(int(sys.argv[1])), sys.argv[2])
PY
OPENBLAS_NUM_THREADS=1 /usr/bin/time -v "$bench" "$tmp/x.f64" "k=$k" threads=1 2>"$tmp/time" ||
  { cat "$tmp/time"; exit 1; }
grep "Maximum resident set size" "$tmp/time"
