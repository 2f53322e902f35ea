#!/usr/bin/env bash
# SIGTERM (a batch system's warning before its time limit) stops a run cleanly on 1 and 2 ranks:
# exit status 75, everything finished is in the results file, and the same command resumes to
# the same table as an uninterrupted run. Also when the signal comes from outside, to every rank.
. "$(dirname "$0")/../support/cli_lib.sh"
CFG="$SRC/tests/configs/small.yaml"
"$DRBENCH" run "$CFG" --output "$WORK/clean.h5" --quiet --no-table
rows() { "$PY" -c "import h5py,sys; print(len(h5py.File(sys.argv[1])['tasks/key']))" "$1"; }

stopped_then_resumed() {  # stopped_then_resumed NP RC TOTAL: expects a stopped run in $WORK/s.h5
  local np=$1 rc=$2 total=$3
  [ "$rc" -eq 75 ] || { cat "$WORK/err"; fail "np $np: exit status $rc after SIGTERM, expected 75"; }
  expect_in "$WORK/err" "stopped by a signal"
  [ -f "$WORK/s.h5" ] || fail "np $np: no results file after the stop"
  local n
  n=$(rows "$WORK/s.h5")
  [ "$n" -ge 1 ] && [ "$n" -lt "$total" ] || fail "np $np: $n of $total tasks saved after the stop"
  # Its tables say the run is incomplete, and the file does not store them.
  "$DRBENCH" aggregate "$WORK/s.h5" --no-store >"$WORK/table" || fail "aggregate --no-store failed"
  expect_in "$WORK/table" "incomplete run: $WORK/s.h5 holds $n of $total tasks"
  # Without --no-store alike: printed, marked incomplete, not stored.
  "$DRBENCH" aggregate "$WORK/s.h5" >"$WORK/table" 2>"$WORK/err3" || fail "aggregate failed"
  expect_in "$WORK/table" "incomplete run"
  expect_in "$WORK/err3" "tables not stored in $WORK/s.h5"
  "$PY" -c "import h5py,sys; sys.exit(len(h5py.File(sys.argv[1]).get('tables', {})) > 0)" \
    "$WORK/s.h5" ||
    fail "tables stored in a stopped run's file"
  "${MPIRUN[@]}" -np "$np" "$DRBENCH" run "$CFG" --output "$WORK/s.h5" --no-table 2>"$WORK/err2"
  expect_in "$WORK/err2" "$n already done"
  same_task_tables "$WORK/clean.h5" "$WORK/s.h5"
}

for np in 1 2; do
  rm -f "$WORK/s.h5"*
  rc=0
  DRBENCH_FAULT_TERM_AFTER=4 "${MPIRUN[@]}" -np $np "$DRBENCH" run "$CFG" --output "$WORK/s.h5" \
    --no-table >"$WORK/out" 2>"$WORK/err" || rc=$?
  stopped_then_resumed $np $rc 64
done

# From outside: SIGTERM to every rank of a running job (what srun does at the time limit), while
# slow tasks run: Sammon on 600 blobs with 2,000 steps and no early stop keeps a rank busy for a
# tenth of a second per task (at its default stop the run ended before the signal came).
sed -e 's/method: identity/method: sammon\n    grid: {tolerance: [0], iterations: [2000]}/' \
  -e 's/n: 120/n: 600/' "$CFG" >"$WORK/slow.yaml"
rm -f "$WORK/s.h5"*
"${MPIRUN[@]}" -np 2 "$DRBENCH" run "$WORK/slow.yaml" --output "$WORK/s.h5" --no-table \
  >"$WORK/out" 2>"$WORK/err" &
job=$!
# The first recorded task, not a fixed delay: on a loaded machine mpirun alone can take tens of
# seconds to start its ranks (hwloc binds to each core in turn to read its topology).
for _ in $(seq 3000); do [ -s "$WORK/s.h5.journal" ] && break; sleep 0.1; done
[ -s "$WORK/s.h5.journal" ] || fail "no task recorded within 300 s of starting mpirun"
ranks=$(pgrep -P "$job" || true)
[ -n "$ranks" ] || fail "no rank processes under mpirun $job"
kill -TERM $ranks
rc=0
wait "$job" || rc=$?
CFG="$WORK/slow.yaml"
"$DRBENCH" run "$CFG" --output "$WORK/clean.h5" --quiet --no-table --force-new
stopped_then_resumed 2 $rc 64

# The signal as early as a rank can catch it, before any task (a job cancelled while starting, or
# a slow rank still in MPI_Init or loading data while the others are at work): a clean stop all
# the same, then resume. "As early as" = both ranks run drbench and catch SIGTERM (SigCgt bit 15):
# before main() no handler can exist. The handlers used to come after MPI_Init and the data load.
catches_term() {  # catches_term PID: the process is drbench and has a SIGTERM handler
  [ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$DRBENCH" ] || return 1
  local mask
  mask=$(awk '/^SigCgt:/ {print $2}' "/proc/$1/status" 2>/dev/null) || return 1
  [ -n "$mask" ] && (((0x$mask >> 14) & 1))
}
rm -f "$WORK/s.h5"*
"${MPIRUN[@]}" -np 2 "$DRBENCH" run "$CFG" --output "$WORK/s.h5" --no-table >"$WORK/out" 2>"$WORK/err" &
job=$!
ranks=""
for _ in $(seq 30000); do
  ranks=$(pgrep -P "$job" || true)
  ready=0
  for r in $ranks; do catches_term "$r" && ready=$((ready + 1)); done
  [ "$ready" -eq 2 ] && break
  sleep 0.01
done
[ "$ready" -eq 2 ] || fail "the ranks under mpirun $job did not install their stop handlers in 300 s"
kill -TERM $ranks
rc=0
wait "$job" || rc=$?
[ "$rc" -eq 75 ] || { cat "$WORK/err"; fail "SIGTERM while starting: exit status $rc, expected 75"; }
expect_in "$WORK/err" "stopped by a signal"
"${MPIRUN[@]}" -np 2 "$DRBENCH" run "$CFG" --output "$WORK/s.h5" --no-table 2>"$WORK/err2"
same_task_tables "$WORK/clean.h5" "$WORK/s.h5"
echo "stop signal ok"

# Ctrl-C as a user presses it: SIGINT to the process group of the command in the foreground, while
# tasks of a few seconds run. Alone, the first one is announced at once, the running task finishes
# and is saved; under scripts/drbench-mpirun (mpirun cannot forward SIGINT) alike on 2 ranks, with
# no Open MPI notice about the exit status; a second Ctrl-C abandons the running tasks.
# t-SNE: its optimiser checks for a stop at every iteration, so a second Ctrl-C abandons it. Ten
# tasks: with four, a fast machine had the last two running when the first was recorded, so the
# stop found nothing left to save for later and the run ended complete (exit 0; seen in CI).
cat >"$WORK/long.yaml" <<'YAML'
name: long
seed: 7
datasets:
  - {name: blobs, source: generator, generator: gaussian_blobs, params: {n: 600, classes: 3}}
splits: {train_ratio: [0.5], repeats: 10}
methods:
  - {method: tsne, dims: [2], grid: {iterations: [3000]}}
evaluation: {protocol: transductive, knn: [1]}
output: {path: long.h5}
YAML
expect_re() { grep -qE -- "$1" "$WORK/err" || { cat "$WORK/err"; fail "expected /$1/ on stderr"; }; }
set -m
ctrl_c() {  # ctrl_c TIMES CMD...: Ctrl-C TIMES times once a task is recorded; status in $rc
  local times=$1
  shift
  rm -f "$WORK/c.h5"*
  "$@" --output "$WORK/c.h5" --no-table >"$WORK/out" 2>"$WORK/err" &
  local job=$!
  for _ in $(seq 3000); do [ -s "$WORK/c.h5.journal" ] && break; sleep 0.1; done
  [ -s "$WORK/c.h5.journal" ] || { cat "$WORK/err"; fail "$*: no task recorded in 300 s"; }
  for _ in $(seq "$times"); do
    kill -INT -- -"$job"
    sleep 0.5
  done
  rc=0
  wait "$job" || rc=$?
  [ "$rc" -eq 75 ] || { cat "$WORK/err"; fail "$* after $times Ctrl-C: exit status $rc"; }
  expect_in "$WORK/err" "stopped by a signal"
  if grep -q "non-zero exit code\|Forwarding signal" "$WORK/err"; then
    cat "$WORK/err"
    fail "Open MPI's notices after a stop: $*"
  fi
}
ctrl_c 1 "$DRBENCH" run "$WORK/long.yaml"
expect_re "stopping: [0-9]+ running task\(s\) will be saved; Ctrl-C again to abandon them"
[ "$(rows "$WORK/c.h5")" -ge 2 ] || fail "the task running at Ctrl-C was not saved"
ctrl_c 1 "$SRC/scripts/drbench-mpirun" --oversubscribe -np 2 "$DRBENCH" run "$WORK/long.yaml"
expect_re "rank 1: stopping: [0-9]+ running task\(s\) will be saved"
[ "$(rows "$WORK/c.h5")" -ge 3 ] || fail "np 2: the tasks running at Ctrl-C were not saved"
ctrl_c 2 "$SRC/scripts/drbench-mpirun" --oversubscribe -np 2 "$DRBENCH" run "$WORK/long.yaml"
expect_re "abandoning [0-9]+ running task\(s\)"
expect_in "$WORK/err" "running task(s) abandoned)"
"$SRC/scripts/drbench-mpirun" --oversubscribe -np 2 "$DRBENCH" run "$WORK/long.yaml" \
  --output "$WORK/c.h5" --no-table 2>"$WORK/err2"
expect_in "$WORK/err2" "already done"
set +m
echo "stop signal (Ctrl-C) ok"
