#!/usr/bin/env bash
# A rank that dies under mpirun (SIGKILL, as the OOM killer or a lost node would) takes the tasks
# it held with it, and mpirun ends the run. The next run of the same command names the tasks lost
# and why, stores the one the rank was running as a failure of the environment, runs them all
# again, and ends with the tables of an uninterrupted run.
. "$(dirname "$0")/../support/cli_lib.sh"
CFG="$SRC/tests/configs/small.yaml"
"$DRBENCH" run "$CFG" --output "$WORK/clean.h5" --quiet --no-table
rc=0
DRBENCH_FAULT_RANK_DIES_AT=3 timeout 120 "${MPIRUN[@]}" -np 2 "$DRBENCH" run "$CFG" \
  --output "$WORK/r.h5" --no-table >"$WORK/out" 2>"$WORK/err" || rc=$?
[ "$rc" -ne 0 ] || fail "mpirun exited 0 though rank 1 was killed"
[ "$rc" -ne 124 ] || fail "mpirun hung after rank 1 was killed"
[ -s "$WORK/r.h5.running" ] || { cat "$WORK/err"; fail "no list of the tasks rank 1 held"; }
lost=$(awk -F'\t' '$1 == 1 {print $2; exit}' "$WORK/r.h5.running")
[ -n "$lost" ] || fail "r.h5.running names no task of rank 1"
"$DRBENCH" run "$CFG" --output "$WORK/r.h5" --no-table 2>"$WORK/err2" ||
  { cat "$WORK/err2"; fail "the resumed run failed"; }
expect_in "$WORK/err2" "the last run lost"
expect_in "$WORK/err2" "with rank 1, which ended before returning them"
expect_in "$WORK/err2" "stored as a failure of the environment: $lost"
expect_in "$WORK/err2" "retrying 1 failed task(s) (failures of the environment)"
[ ! -e "$WORK/r.h5.running" ] || fail "r.h5.running left after a run that finished"
same_task_tables "$WORK/clean.h5" "$WORK/r.h5"
# A slice that leaves the lost task out keeps its failure in the file, with the reason.
rm -f "$WORK/r.h5"* && rc=0
DRBENCH_FAULT_RANK_DIES_AT=3 timeout 120 "${MPIRUN[@]}" -np 2 "$DRBENCH" run "$CFG" \
  --output "$WORK/r.h5" --no-table >"$WORK/out" 2>"$WORK/err" || rc=$?
[ -s "$WORK/r.h5.running" ] || fail "no list of the tasks rank 1 held (second run)"
lost=$(awk -F'\t' '$1 == 1 {print $2; exit}' "$WORK/r.h5.running")
label=$(echo "$lost" | cut -d'|' -f4)
other=identity
[ "$label" != identity ] || other=lda
rc=0 && "$DRBENCH" run "$CFG" --output "$WORK/r.h5" --no-table --only "$other" 2>"$WORK/err3" ||
  rc=$?
# Exit 4: the file holds a failed task, the lost one.
[ "$rc" = 4 ] || { cat "$WORK/err3"; fail "the sliced resumed run: exit $rc, expected 4"; }
expect_in "$WORK/err3" "stored as a failure of the environment: $lost"
"$PY" - "$WORK/r.h5" "$lost" <<'PY' || fail "the lost task is not stored as an environment failure"
import sys, h5py
t = h5py.File(sys.argv[1], "r")["tasks"]
keys = [k.decode() for k in t["key"][()]]
err = t["error"][keys.index(sys.argv[2])]
err = err.decode() if isinstance(err, bytes) else err
assert err.startswith("environment: rank 1 ended before returning it"), err
PY
echo "OK"
