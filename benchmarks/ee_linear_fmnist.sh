#!/usr/bin/env bash
# Linear-time EE against drbench's own Barnes-Hut t-SNE on the same 20,000 Fashion-MNIST points
# (configs/ee_linear_fmnist.yaml: stratified subsample, global minmax, PCA to 50-D, 2-D, one
# thread), run back to back in one invocation so that the ratio means something on a shared
# machine. Each method runs in its own process under /usr/bin/time -v for its peak memory (which
# includes loading the 60,000 x 784 IDX file before the subsample: the same for both).
#   bash benchmarks/ee_linear_fmnist.sh [profiles...]   # default: ee tsne tsnefft eejacobi
#                                                       # ee60k tsne60k: 60,000 points
# Prints one line per method: fit wall seconds, process CPU seconds, peak RSS, iterations, stop
# reason and the 1-NN leave-one-out error of the 2-D embedding. Needs build/drbench and Debian's
# python3-h5py; the data: /usr/share/datasets/fashion-mnist (skips cleanly without it).
set -euo pipefail
cd "$(dirname "$0")/.."
data=/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz
if [[ ! -f $data ]]; then
  echo "ee_linear_fmnist: $data not found, skipped"
  exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 HDF5_USE_FILE_LOCKING=FALSE
out=${OUT_DIR:-/tmp/ee_linear_fmnist}
mkdir -p "$out"
profiles=("$@")
[[ ${#profiles[@]} -eq 0 ]] && profiles=(ee tsne tsnefft eejacobi)
printf '%-8s %10s %10s %10s %6s %-16s %8s\n' profile fit_s cpu_s peak_MiB iters stop 1nn_err%
for p in "${profiles[@]}"; do
  h5="$out/$p.h5"
  /usr/bin/time -v -o "$out/$p.time" build/drbench run configs/ee_linear_fmnist.yaml \
    --profile "$p" --output "$h5" --force-new --quiet --no-table >"$out/$p.log" 2>&1
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/$p.time")
  cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u + s}' "$out/$p.time")
  /usr/bin/python3 - "$h5" "$p" "$rss" "$cpu" <<'PY'
import sys, h5py
h5, p, rss, cpu = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
t = h5py.File(h5, "r")["tasks"]
for i in range(len(t["method"])):
    print(f"{p:<8s} {t['fit_seconds'][i]:10.1f} {cpu:10.1f} {rss / 1024:10.0f} "
          f"{int(t['iterations'][i]):6d} {t['stop_reason'][i].decode():<16s} "
          f"{100 * t['knn_error'][i][0]:8.2f}")
PY
done
