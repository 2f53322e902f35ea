#!/usr/bin/env bash
# Linear-time DEE and DSNE (gradient: barnes_hut) against their exact O(n^2) paths on
# Fashion-MNIST (configs/dee_linear_fmnist.yaml: published train/test split, stratified subsample,
# global minmax, PCA to 50-D on the training images, 2-D, one thread), run back to back in one
# invocation so that ratios mean something on a shared machine. Each profile runs in its own
# process under /usr/bin/time -v for its peak memory (loading the IDX files and the PCA included:
# the same for every profile of one size).
#   bash benchmarks/dee_linear_fmnist.sh [profiles...]
#     default: dee_exact5k dee_bh5k dsne_exact5k dsne_bh5k dee_bh dsne_bh
#     dee60k dsne60k: all 60,000 training images (run them under nice -n 10)
# Prints one line per profile: fit wall seconds, process CPU seconds, peak RSS, iterations, stop
# reason, the final objective and the 1-NN error of the mapped test images against the training
# images. Needs build/drbench and Debian's python3-h5py; the data: /usr/share/datasets/fashion-mnist
# (skips cleanly without it).
set -euo pipefail
cd "$(dirname "$0")/.."
data=/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz
if [[ ! -f $data ]]; then
  echo "dee_linear_fmnist: $data not found, skipped"
  exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 HDF5_USE_FILE_LOCKING=FALSE
out=${OUT_DIR:-/tmp/dee_linear_fmnist}
mkdir -p "$out"
profiles=("$@")
[[ ${#profiles[@]} -eq 0 ]] && profiles=(dee_exact5k dee_bh5k dsne_exact5k dsne_bh5k dee_bh dsne_bh)
printf '%-13s %7s %8s %8s %8s %6s %-16s %12s %8s\n' profile n_train fit_s cpu_s peak_MiB iters \
  stop objective 1nn_err%
for p in "${profiles[@]}"; do
  h5="$out/$p.h5"
  /usr/bin/time -v -o "$out/$p.time" build/drbench run configs/dee_linear_fmnist.yaml \
    --profile "$p" --output "$h5" --force-new --quiet --no-table >"$out/$p.log" 2>&1
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/$p.time")
  cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u + s}' "$out/$p.time")
  /usr/bin/python3 - "$h5" "$p" "$rss" "$cpu" <<'PY'
import sys, h5py
h5, p, rss, cpu = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
t = h5py.File(h5, "r")["tasks"]
for i in range(len(t["method"])):
    print(f"{p:<13s} {int(t['n_train'][i]):7d} {t['fit_seconds'][i]:8.1f} {cpu:8.1f} "
          f"{rss / 1024:8.0f} {int(t['iterations'][i]):6d} {t['stop_reason'][i].decode():<16s} "
          f"{t['final_objective'][i]:12.6g} {100 * t['knn_error'][i][0]:8.2f}")
PY
done
