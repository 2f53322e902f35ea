#!/usr/bin/env bash
# The README's first command: install what is missing, build, run the quickstart sweep on two
# ranks and print its table. It builds the drbench program only; the test suite is the second
# command's (scripts/test.sh) and builds in the same ./build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
DRBENCH_TARGET=drbench bash scripts/build.sh -DDRBENCH_TESTS=OFF
. scripts/mpi-env.sh
mpirun --oversubscribe -np 2 build/drbench run configs/quickstart.yaml
