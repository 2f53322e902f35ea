#!/usr/bin/env bash
# max_task_seconds: tasks that run past it are recorded with status 2 (timeout) and their reason;
# a GP-LVM fit is stopped inside its optimiser; with a generous limit nothing times out.
. "$(dirname "$0")/../support/cli_lib.sh"
write_cfg() {  # write_cfg LIMIT METHODS
  cat >"$WORK/limit.yaml" <<YAML
name: limit
seed: 3
max_task_seconds: $1
datasets: [{name: iris, source: bundled, preprocess: [standardize]}]
splits: {train_ratio: [0.5], repeats: 2}
methods: $2
evaluation: {knn: [1]}
YAML
}
write_cfg 1.0e-7 "[{method: bcgplvm, dims: [2]}, {method: pca, dims: [2]}]"
# Timed-out tasks are failed tasks: the run exits 4 (docs/config.md, exit status).
set +e
"${MPIRUN[@]}" -np 2 "$DRBENCH" run "$WORK/limit.yaml" --output "$WORK/t.h5" --no-table 2>"$WORK/err"
rc=$?
set -e
[ $rc -eq 4 ] || { cat "$WORK/err"; fail "a run whose tasks timed out exited $rc, expected 4"; }
expect_in "$WORK/err" "timed out"
"$PY" - "$WORK/t.h5" <<'PY'
import sys, h5py
t = h5py.File(sys.argv[1])["tasks"]
status, err, method = t["status"][()], t["error"].asstr()[()], t["method"].asstr()[()]
assert len(status) == 4 and (status == 2).all(), status
assert all("max_task_seconds" in e for e in err), err
assert all("stopped at iteration" in e for e, m in zip(err, method) if m == "bcgplvm"), err
PY
"$DRBENCH" aggregate "$WORK/t.h5" --no-store >"$WORK/table"
write_cfg 600 "[{method: pca, dims: [2]}, {method: lda, dims: [2]}]"
"$DRBENCH" run "$WORK/limit.yaml" --output "$WORK/ok.h5" --quiet --no-table
"$PY" -c "import sys,h5py; s=h5py.File(sys.argv[1])['tasks/status'][()]; assert (s==0).all(), s" "$WORK/ok.h5"
echo "time limit ok"
