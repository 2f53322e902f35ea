#!/usr/bin/env bash
# The README's second command (and CI's): install what is missing, build, run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --test
bash scripts/build.sh -DDRBENCH_TESTS=ON
. scripts/mpi-env.sh
cd build
ctest --output-on-failure -j "$(nproc)" --timeout 600
