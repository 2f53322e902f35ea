#!/usr/bin/env bash
# drbench plan: on a finished run's own results it replays measured task times (one rank's wall
# time is their sum); several --costs files pool their samples; bad --costs values are refused;
# --remaining plans only what a resume would run, journal included.
. "$(dirname "$0")/../support/cli_lib.sh"
CFG="$SRC/tests/configs/small.yaml"
"$DRBENCH" run "$CFG" --output "$WORK/a.h5" --quiet --no-table
"$DRBENCH" plan "$CFG" --ranks 1,4 --costs "$WORK/a.h5" --start 0 --check 0 --commit 0 \
  --latency 0 >"$WORK/plan"
expect_in "$WORK/plan" "64 measured"
grep -q "no --costs" "$WORK/plan" && fail "plan with --costs says it has none"
expect_in "$WORK/plan" "work "
# One rank: the wall time is the sum of the measured task times (start-up, commits and messages
# set to 0).
"$PY" - "$WORK/a.h5" "$WORK/plan" <<'PY'
import sys, h5py, re
t = h5py.File(sys.argv[1])["tasks"]
total = (t["task_seconds"][:].sum() if "task_seconds" in t else
         sum(t[c][:].sum() for c in ("fit_seconds", "transform_seconds", "eval_seconds")))
rows = [l.split() for l in open(sys.argv[2]) if re.match(r"\s+1\s", l)]
assert rows, "no line for 1 rank"
wall = float(rows[0][1])
assert abs(wall - total) <= 0.05 * total + 1e-3, (wall, total)
PY
# A second file of the same sweep at another size: no task of it is one of this config's, but its
# samples join the fit, and the first file's tasks are still measured.
sed -e 's/n: 120/n: 480/' "$CFG" >"$WORK/big.yaml"
"$DRBENCH" run "$WORK/big.yaml" --output "$WORK/b.h5" --quiet --no-table
"$DRBENCH" plan "$CFG" --ranks 2 --costs "$WORK/b.h5" >"$WORK/plan_b"
expect_in "$WORK/plan_b" "0 measured"
"$DRBENCH" plan "$CFG" --ranks 2 --costs "$WORK/a.h5,$WORK/b.h5" >"$WORK/plan_ab"
expect_in "$WORK/plan_ab" "task times from $WORK/a.h5,$WORK/b.h5: 64 measured"
expect_fail "an empty --costs list" "$DRBENCH" plan "$CFG" --ranks 2 --costs ,
expect_in "$WORK/err" "--costs needs a results file"
expect_fail "a missing --costs file" "$DRBENCH" plan "$CFG" --ranks 2 --costs "$WORK/a.h5,$WORK/nope.h5"
expect_in "$WORK/err" "nope.h5"
# --remaining plans what a resume would run. A run killed after 5 tasks has only its journal
# (no snapshot yet): its 5 results count as done, and the same config's finished file leaves none.
if DRBENCH_FAULT_KILL_AFTER=5 "$DRBENCH" run "$CFG" --output "$WORK/k.h5" --quiet --no-table \
     >"$WORK/out" 2>&1; then
  fail "the fault-injected run should have died"
fi
[ ! -e "$WORK/k.h5" ] && [ -s "$WORK/k.h5.journal" ] || fail "expected a journal and no file"
"$DRBENCH" plan "$CFG" --ranks 1 --costs "$WORK/k.h5" --remaining >"$WORK/plan_k"
expect_in "$WORK/plan_k" "remaining: 59 of 64 planned tasks have no result yet (5 done"
"$DRBENCH" plan "$CFG" --ranks 1 --costs "$WORK/a.h5" --remaining >"$WORK/plan_a"
expect_in "$WORK/plan_a" "nothing remains"
expect_fail "--remaining without --costs" "$DRBENCH" plan "$CFG" --ranks 1 --remaining
expect_in "$WORK/err" "--remaining plans what a resume would still run"
echo "plan ok"
