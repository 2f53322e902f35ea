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
source benchmarks/profile_runs.sh
profiles=("$@")
[[ ${#profiles[@]} -eq 0 ]] && profiles=(dee_exact5k dee_bh5k dsne_exact5k dsne_bh5k dee_bh dsne_bh)
run_profiles dee_linear_fmnist configs/dee_linear_fmnist.yaml \
  "profile:<13s n_train:7d fit_seconds:8.1f cpu:8.1f peak:8.0f iterations:6d stop_reason:<16s final_objective:12.6g knn_error:8.2f" \
  "${profiles[@]}"
