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
source benchmarks/profile_runs.sh
profiles=("$@")
[[ ${#profiles[@]} -eq 0 ]] && profiles=(ee tsne tsnefft eejacobi)
run_profiles ee_linear_fmnist configs/ee_linear_fmnist.yaml \
  "profile:<8s fit_seconds:10.1f cpu:10.1f peak:10.0f iterations:6d stop_reason:<16s knn_error:8.2f" \
  "${profiles[@]}"
