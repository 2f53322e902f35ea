#!/usr/bin/env bash
# A run killed (SIGKILL, as kill -9 would) after some tasks resumes: the rerun skips what was
# finished and the final table equals that of an uninterrupted run. A changed config is refused.
. "$(dirname "$0")/../support/cli_lib.sh"
CFG="$SRC/tests/configs/small.yaml"
"${MPIRUN[@]}" -np 2 "$DRBENCH" run "$CFG" --output "$WORK/clean.h5" --quiet --no-table

if DRBENCH_FAULT_KILL_AFTER=5 "${MPIRUN[@]}" -np 2 "$DRBENCH" run "$CFG" --output "$WORK/r.h5" \
     --quiet --no-table >"$WORK/out" 2>"$WORK/err"; then
  fail "the fault-injected run should have died"
fi
[ -s "$WORK/r.h5.journal" ] || fail "no journal after the kill"
"${MPIRUN[@]}" -np 2 "$DRBENCH" run "$CFG" --output "$WORK/r.h5" --no-table 2>"$WORK/err2"
expect_in "$WORK/err2" "5 already done"
same_task_tables "$WORK/clean.h5" "$WORK/r.h5"

# Same again on one rank (rank 0 does the work itself).
rm -f "$WORK/r.h5"*
if DRBENCH_FAULT_KILL_AFTER=3 "$DRBENCH" run "$CFG" --output "$WORK/r.h5" --quiet --no-table \
     >"$WORK/out" 2>"$WORK/err"; then
  fail "the fault-injected single-rank run should have died"
fi
"$DRBENCH" run "$CFG" --output "$WORK/r.h5" --no-table 2>"$WORK/err3"
expect_in "$WORK/err3" "3 already done"
same_task_tables "$WORK/clean.h5" "$WORK/r.h5"

# A finished run rerun does nothing; a changed config is refused unless --force-new.
"$DRBENCH" run "$CFG" --output "$WORK/r.h5" --no-table 2>"$WORK/err4"
expect_in "$WORK/err4" "already done"
sed 's/repeats: 4/repeats: 2/' "$CFG" >"$WORK/changed.yaml"
expect_fail "changed config" "$DRBENCH" run "$WORK/changed.yaml" --output "$WORK/r.h5" --quiet
expect_in "$WORK/err" "--force-new"
"$DRBENCH" run "$WORK/changed.yaml" --output "$WORK/r.h5" --quiet --no-table --force-new
echo "resume ok"
