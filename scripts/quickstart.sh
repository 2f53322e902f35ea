#!/usr/bin/env bash
# The README's first command: install what is missing, build, run the quickstart sweep on two
# ranks and print its table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
. scripts/mpi-env.sh
mpirun --oversubscribe -np 2 build/drbench run configs/quickstart.yaml
