#!/usr/bin/env bash
# The residual speed rows of docs/benchmarks.md, side by side with scikit-learn in one run: KPCA,
# LLE and Laplacian eigenmaps fitted on the 2,000 USPS points of benchmarks/usps_2000.hpp, and
# 1-NN on 5,000 x 5,000 Gaussian points in 9-D, one thread each; drbench and scikit-learn take
# turns, ROUNDS times (default 3), so load from other jobs falls on both. Each line is one round's
# process CPU milliseconds (Google Benchmark's CPU column; time.process_time() in the scripts).
#   cmake -S . -B build -DDRBENCH_BENCHMARKS=ON && make -C build bench_nonlinear bench_knn
#   bash benchmarks/speed_rows.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
export DRBENCH_DATA=${DRBENCH_DATA:-/work/shared/datasets} OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
for r in $(seq 1 "$rounds"); do
  echo "## round $r ($(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))"
  build/benchmarks/bench_nonlinear --benchmark_filter='fit/(kpca|lle|laplacian_eigenmaps)$' \
    2>/dev/null | awk '/^fit\//{print "drbench", $1, $4}'
  /usr/bin/python3 scripts/bench_sklearn.py arpack | awk '!/^#/{print "sklearn", $0}'
  build/benchmarks/bench_knn --benchmark_filter='BM_Knn1/9' 2>/dev/null |
    awk '/^BM_/{print "drbench", $1, $4}'
  /usr/bin/python3 scripts/bench_knn_sklearn.py 5 /nonexistent 1 | awk '/gauss 9-D/{print "sklearn 1-NN", $0}'
done
