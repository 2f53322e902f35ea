# Sourced by tests/cli/*.sh: $1 of the test is the drbench binary; each test gets a scratch dir.
set -euo pipefail
DRBENCH=$(realpath "$1")
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
. "$SRC/scripts/mpi-env.sh"
MPIRUN=(mpirun --oversubscribe)
# Debian's interpreter, which has python3-h5py; a pyenv python3 earlier on PATH would not.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

fail() { echo "FAIL: $*" >&2; exit 1; }
# expect_fail "what" cmd...: the command must exit non-zero; its stderr is left in $WORK/err.
expect_fail() {
  local what=$1; shift
  if "$@" >"$WORK/out" 2>"$WORK/err"; then fail "$what: expected an error, got success"; fi
}
expect_in() {  # expect_in FILE TEXT
  grep -qF -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "expected '$2' in $1"; }
}
# pca_config DATASET: the smallest sweep on one dataset (a YAML flow mapping): PCA to 2-D, half of
# the points for training.
pca_config() {
  printf 'seed: 1\ndatasets: [%s]\nsplits: {train_ratio: [0.5]}\nmethods: [{method: pca, dims: [2]}]\n' "$1"
}
# first_dims_command FILE: writes an external method (python/drbench/external.py) that keeps the
# first dims coordinates of every point, training and new.
first_dims_command() {
  cat >"$1" <<'PY'
from drbench import external


@external.method
def run(task):
    return task.X_train[:, :task.dim], task.X_test[:, :task.dim]


if __name__ == "__main__":
    run.main()
PY
}
# Tests that need ../shared/datasets: fail in CI (CI=true) when missing, skip loudly elsewhere.
need_shared() {
  local f
  for d in "${DRBENCH_DATA:-}" "$SRC/../shared/datasets"; do
    [ -n "$d" ] && [ -f "$d/$1" ] && return 0
  done
  if [ "${CI:-}" = "true" ]; then fail "shared dataset $1 not found (set DRBENCH_DATA)"; fi
  echo "SKIP: shared dataset $1 not found"; exit 0
}
# The successive-halving tests' sweep on standardized iris, LDA over four ridges and PCA at dims 1
# and 2: iris_sweep NAME SEED SPLITS prints a config up to its methods list, which the caller may
# extend before the rest.
iris_sweep() {
  cat <<YAML
name: $1
seed: $2
datasets: [{name: iris, source: bundled, preprocess: [standardize]}]
splits: $3
methods:
  - {method: lda, label: LDA, dims: [2], grid: {ridge: [1.0e-6, 0.1, 10, 1000]}}
  - {method: pca, label: PCA, dims: [1, 2]}
YAML
}
# Task tables of two results files, minus the columns that may differ between runs (timings, rank,
# threads lent to a task placed by memory,
# peak memory).
same_task_tables() {
  "$PY" - "$1" "$2" <<'PY'
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
skip = {"fit_seconds", "transform_seconds", "eval_seconds", "task_seconds", "rank", "threads",
        "peak_rss_bytes"}
ta, tb = a["tasks"], b["tasks"]
assert set(ta.keys()) == set(tb.keys()), (sorted(ta.keys()), sorted(tb.keys()))
for k in ta.keys():
    if k in skip:
        continue
    x, y = ta[k][()], tb[k][()]
    if x.dtype.kind == "f":
        ok = np.array_equal(x, y, equal_nan=True)
    else:
        ok = np.array_equal(x, y)
    assert ok, f"column {k} differs"
for g in ("embeddings",):
    if g in a:
        for t in a[g]:
            for part in a[g][t]:
                assert np.array_equal(a[g][t][part][()], b[g][t][part][()]), f"{g}/{t}/{part} differs"
print("task tables identical:", len(ta["key"]), "tasks")
PY
}
