#!/usr/bin/env bash
# examples/slurm/drbench.sbatch on a real Slurm: munged, slurmctld and slurmd of Debian's
# slurm-wlm started here on loopback (one node, 2 CPUs, every file in a scratch directory), the
# example submitted unchanged but for sbatch options and environment variables, and every
# resulting table compared with a plain `mpirun` run's. Needs root (slurmd runs jobs as root here)
# and `scripts/install-deps.sh --test`; skips with the reason otherwise, fails under CI=true.
. "$(dirname "$0")/../support/cli_lib.sh"
SBATCH_FILE="$SRC/examples/slurm/drbench.sbatch"

skip() {
  [ "${CI:-}" = "true" ] && fail "$1"
  echo "SKIP: $1"
  exit 0
}
for c in munged mungekey slurmctld slurmd sbatch sinfo squeue scontrol scancel srun; do
  command -v "$c" >/dev/null || skip "$c not found (scripts/install-deps.sh --test installs Slurm)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root to start jobs"

# ---- a one-node Slurm in $WORK/slurm ----
S=$WORK/slurm
mkdir -p "$S/state" "$S/spool" "$S/munge"
chmod 700 "$S/munge"
stop_slurm() {
  local ids
  if [ -n "${SLURM_CONF:-}" ] && ids=$(squeue -h -o %i 2>/dev/null) && [ -n "$ids" ]; then
    scancel $ids 2>/dev/null
    for _ in $(seq 40); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.5; done
  fi
  # The daemons remove their pid files as they exit.
  local f pids=()
  for f in "$S/slurmd.pid" "$S/slurmctld.pid" "$S/munge/pid"; do
    pids+=("$(cat "$f" 2>/dev/null)")
  done
  for p in "${pids[@]}"; do [ -n "$p" ] && kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do
      [ -n "$p" ] && kill -0 "$p" 2>/dev/null || break
      sleep 0.1
    done
  done
  return 0
}
# The logs of a failed run are printed; SLURM_TEST_KEEP=DIR keeps the whole scratch dir there.
trap 'rc=$?; stop_slurm; [ $rc -ne 0 ] && { tail -n 30 "$S"/*.log "$WORK"/job-*.log 2>/dev/null || true; }
      [ -n "${SLURM_TEST_KEEP:-}" ] && cp -r "$WORK" "$SLURM_TEST_KEEP"; rm -rf "$WORK"; exit $rc' EXIT
# SLURM_TEST_CASES="1 3": run only those cases (while working on one).
want() { [ -z "${SLURM_TEST_CASES:-}" ] || [[ " $SLURM_TEST_CASES " == *" $1 "* ]]; }

read -r ctld_port slurmd_port < <("$PY" -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
mungekey --create --force --keyfile "$S/munge/key" >/dev/null
munged --force --socket "$S/munge/sock" --key-file "$S/munge/key" --pid-file "$S/munge/pid" \
  --log-file "$S/munge/log" --seed-file "$S/munge/seed" || fail "munged did not start"
host=$(hostname -s)
# proctrack/linuxproc and task/none: no cgroups needed (containers rarely delegate them).
# cred_expire: a requeued job waits this long before it may start again (default 120 s).
cat >"$S/slurm.conf" <<CONF
ClusterName=drbenchtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge/sock,cred_expire=5
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerParameters=sched_interval=1
KillWait=10
MinJobAge=3600
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$S/slurm.conf
slurmctld || fail "slurmctld did not start ($S/slurmctld.log)"
slurmd || fail "slurmd did not start ($S/slurmd.log)"
for _ in $(seq 120); do
  [ "$(sinfo -h -o %t 2>/dev/null)" = "idle" ] && break
  sleep 0.5
done
[ "$(sinfo -h -o %t)" = "idle" ] || fail "the node is not idle after 60 s: $(sinfo)"
echo "slurm up: $(sinfo -h -o '%P %D %c %t')"

# ---- the sweep: built-in methods beside a traced external PCA that logs each of its runs ----
cat >"$WORK/traced_pca.py" <<'PY'
import os, sys, time
import numpy as np
from drbench.external import read_task, write_output
task = read_task(sys.argv[1])
with open(os.environ["TRACE_LOG"], "a") as log:  # one line per run of a task: reruns show
    log.write(f"{task.dataset} {task.seed} {task.dim}\n")
# A task of known length that uses no CPU; TRACE_SLEEP_REQUEUED once the job log TRACE_JOB_LOG
# says the job was requeued.
requeued = False
if os.environ.get("TRACE_JOB_LOG"):
    with open(os.environ["TRACE_JOB_LOG"], errors="replace") as f:
        requeued = "requeueing" in f.read()
time.sleep(float(os.environ.get("TRACE_SLEEP_REQUEUED" if requeued else "TRACE_SLEEP", "0")))
X = task.X_train
mean = X.mean(axis=0)
W = np.linalg.svd(X - mean, full_matrices=False)[2][:task.dim].T
W = W * np.sign(W[np.abs(W).argmax(axis=0), np.arange(W.shape[1])])
write_output(sys.argv[2], (X - mean) @ W,
             None if task.X_test is None else (task.X_test - mean) @ W)
PY
sweep() {  # sweep NAME REPEATS
  cat <<YAML
name: $1
seed: 11
datasets:
  - {name: iris, source: bundled, preprocess: [standardize]}
  - name: blobs
    source: generator
    generator: gaussian_blobs
    params: {n: 150, classes: 3}
    preprocess: [center]
splits: {train_ratio: [0.5], repeats: $2}
methods:
  - {method: pca, label: PCA, dims: [1, 2]}
  - {method: lda, label: LDA, dims: [2]}
  - {method: external, label: traced PCA, command: [/usr/bin/python3, ./traced_pca.py], dims: [2]}
evaluation: {knn: [1, 3]}
output: {path: $1.h5}
YAML
}
sweep small 4 >"$WORK/small.yaml"  # 32 tasks, 8 traced
sweep long 8 >"$WORK/long.yaml"    # 64 tasks, 16 traced
export TRACE_LOG=$WORK/trace.log TRACE_SLEEP=0 DRBENCH
cd "$WORK"
for c in small long; do
  "${MPIRUN[@]}" -np 2 "$DRBENCH" run "$c.yaml" --output "ref-$c.h5" --quiet --no-table
  "$DRBENCH" aggregate "ref-$c.h5" --no-store --long "ref-$c.csv"
done

# ---- helpers ----
submit() {  # submit [SBATCH OPTION...] -- [DRBENCH RUN ARG...]: prints the job id
  local opts=()
  while [ "$1" != "--" ]; do
    opts+=("$1")
    shift
  done
  shift
  # 30 minutes: the example's own --signal=B:USR1@600 comes 20 minutes in, after every job here.
  sbatch --parsable --nodes=1 --ntasks-per-node=2 --time=30 --output="$WORK/job-%j.log" \
    "${opts[@]}" "$SBATCH_FILE" "$@"
}
field() { scontrol show job -o "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
wait_job() {  # wait_job ID SECONDS: until the job has ended; its state in $state
  local t0=$SECONDS
  while :; do
    state=$(field "$1" JobState)
    case "$state" in
      COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE)
        return 0 ;;
    esac
    [ $((SECONDS - t0)) -lt "$2" ] || fail "job $1 still $state after $2 s"
    sleep 0.5
  done
}
same_table() {  # same_table RESULTS... REF.csv: the pooled --long table equals the reference's
  local ref=${*: -1}
  "$DRBENCH" aggregate "${@:1:$#-1}" --no-store --long "$WORK/got.csv"
  cmp -s "$WORK/got.csv" "$ref" || { diff "$WORK/got.csv" "$ref" | head; fail "$* table differs"; }
}
once_each() {  # once_each N: the trace log holds N runs, no task run twice
  local runs distinct
  runs=$(wc -l <"$TRACE_LOG")
  distinct=$(sort -u "$TRACE_LOG" | wc -l)
  [ "$runs" -eq "$1" ] && [ "$distinct" -eq "$1" ] ||
    fail "traced tasks: $runs runs of $distinct distinct tasks, expected $1 runs of $1"
}
ranks_of() { "$PY" -c "import h5py,sys; print(h5py.File(sys.argv[1]).attrs['ranks'])" "$1"; }
new_trace() { : >"$TRACE_LOG"; }

# srun launches Debian's Open MPI through PMIx only (srun --mpi=pmix); with PMI-2 its ranks stop
# in MPI_Init ("OMPI was not built with SLURM's PMI support"). MpiDefault is none here, as on
# clusters that leave the choice to the job: SLURM_MPI_TYPE reaches srun inside the job.
if srun --mpi=list 2>&1 | grep -qw pmix; then
  export SLURM_MPI_TYPE=pmix
  LAUNCH=srun
else
  echo "no srun case: this Slurm has no PMIx (srun --mpi=list: $(srun --mpi=list 2>&1 | tr '\n' ' '))"
  LAUNCH=mpirun
fi

# small_job LAUNCHER OUT: the small sweep as one job launched by LAUNCHER into $WORK/OUT; it must
# complete with plain mpirun's table, every task once, in one MPI world of 2 ranks (two singletons
# would each run the whole sweep). $job is the job's id.
small_job() {
  new_trace
  export TRACE_SLEEP=0.2
  job=$(DRBENCH_LAUNCH=$1 submit -- small.yaml --output "$WORK/$2")
  wait_job "$job" 120
  [ "$state" = COMPLETED ] || fail "$1 job $job ended $state, expected COMPLETED"
  same_table "$2" ref-small.csv
  once_each 8
  [ "$(ranks_of "$2")" = 2 ] || fail "$1 in the job ran $(ranks_of "$2") rank(s) per world, not 2"
}

# ---- 1. a job that finishes, mpirun inside the allocation ----
case1() {
  small_job mpirun one.h5
  expect_in "$WORK/job-$job.log" "drbench exited with status 0"
  same_task_tables ref-small.h5 one.h5
  echo "case 1 ok: sbatch + mpirun, same table as plain mpirun"
}
if want 1; then case1; fi

# ---- 2. srun as the launcher (the example's default) ----
case2() {
  small_job srun srun.h5
  echo "case 2 ok: sbatch + srun --mpi=pmix, same table"
}
if want 2 && [ "$LAUNCH" = srun ]; then case2; fi

# ---- 3. the time limit: SIGUSR1 before it, a clean stop, requeue, resume, until done ----
# Slurm checks time limits every 30 s and sends the signal at the first check that is within
# 30 s of the lead time: with --time=1 and @45, at the first check of the allocation (0-30 s in),
# and the kill 30 s or more later. 16 traced tasks of 6 s (48 s on 2 ranks) cannot finish in the
# first allocation; once requeued they take no time but Python's start, so the run ends after
# one requeue, or a few on a machine so loaded that Python takes seconds to start.
case3() {
  new_trace
  local log=$WORK/job-limit.log
  export TRACE_SLEEP=6 TRACE_SLEEP_REQUEUED=0 TRACE_JOB_LOG=$log
  t0=$SECONDS
  job=$(DRBENCH_LAUNCH=$LAUNCH submit --time=1 --signal=B:USR1@45 --output="$log" -- long.yaml \
    --output "$WORK/limit.h5")
  wait_job "$job" 600
  unset TRACE_JOB_LOG
  [ "$state" = COMPLETED ] || fail "time-limited job $job ended $state, expected COMPLETED"
  restarts=$(field "$job" Restarts)
  [ "$restarts" -ge 1 ] || fail "job $job was never requeued (Restarts=$restarts)"
  [ "$(grep -c 'stopped cleanly; requeueing' "$log")" -eq "$restarts" ] ||
    fail "$restarts requeues but $(grep -c 'stopped cleanly' "$log") clean stops in $log"
  [ "$(grep -c 'stopped by a signal' "$log")" -eq "$restarts" ] || fail "drbench's stops in $log"
  expect_in "$log" "drbench exited with status 0"
  same_table limit.h5 ref-long.csv
  same_task_tables ref-long.h5 limit.h5
  once_each 16
  # Seconds from the signal to the requeue, per stop.
  stops=$(awk '/time limit near/ {split($2, t, "T"); s = t[2]}
               /stopped cleanly/ {split($2, u, "T"); print s, u[2]}' "$log" |
          while read -r a b; do
            echo $(($(date -ud "$b" +%s) - $(date -ud "$a" +%s)))
          done | tr '\n' ' ')
  echo "case 3 ok: time limit ($LAUNCH): $restarts requeue(s), signal to requeue: ${stops}s," \
    "$((SECONDS - t0)) s from submission to completion, each of 16 traced tasks run once"
}
if want 3; then case3; fi

# ---- 4. scancel mid-run, then the same sbatch again resumes ----
case4() {
  new_trace
  export TRACE_SLEEP=0.5
  job=$(DRBENCH_LAUNCH=mpirun submit -- long.yaml --output "$WORK/cancel.h5")
  for _ in $(seq 1200); do [ -s cancel.h5.journal ] && break; sleep 0.1; done
  [ -s cancel.h5.journal ] || fail "no task recorded by job $job in 120 s"
  sleep 2
  scancel "$job"
  wait_job "$job" 60
  [ "$state" = CANCELLED ] || fail "cancelled job $job ended $state"
  job=$(DRBENCH_LAUNCH=mpirun submit -- long.yaml --output "$WORK/cancel.h5")
  wait_job "$job" 300
  [ "$state" = COMPLETED ] || fail "resubmitted job $job ended $state, expected COMPLETED"
  done_before=$(sed -n 's/.* tasks, \([0-9]*\) already done.*/\1/p' "$WORK/job-$job.log" | head -n 1)
  [ -n "$done_before" ] && [ "$done_before" -gt 0 ] && [ "$done_before" -lt 64 ] ||
    fail "the resubmitted job did not resume (already done: '$done_before')"
  same_table cancel.h5 ref-long.csv
  same_task_tables ref-long.h5 cancel.h5
  distinct=$(sort -u "$TRACE_LOG" | wc -l)
  [ "$distinct" -eq 16 ] || fail "$distinct of 16 traced tasks ran"
  echo "case 4 ok: scancel (mpirun) after $done_before of 64 tasks, resubmitted, resumed," \
    "$(($(wc -l <"$TRACE_LOG") - 16)) traced task(s) run again"
}
if want 4; then case4; fi

# ---- 5. a job array of slices, one partition per array task and file, joined into one table ----
case5() {
  new_trace
  export TRACE_SLEEP=0.2
  job=$(DRBENCH_LAUNCH=$LAUNCH submit --array=0-3 --ntasks-per-node=1 -- small.yaml \
    --repeats %a --output "$WORK/arr-r%a.h5")
  local t0=$SECONDS
  while [ -n "$(squeue -h -j "$job" -o %i 2>/dev/null)" ]; do
    [ $((SECONDS - t0)) -lt 300 ] || fail "array job $job still queued after 300 s"
    sleep 0.5
  done
  states=$(scontrol show job -o "$job" | tr ' ' '\n' | sed -n 's/^JobState=//p' | sort | uniq -c)
  [ "$(echo "$states" | tr -s ' ')" = " 4 COMPLETED" ] || fail "array job $job: $states"
  same_table arr-r0.h5 arr-r1.h5 arr-r2.h5 arr-r3.h5 ref-small.csv
  "$DRBENCH" aggregate arr-r{0,1,2,3}.h5 >"$WORK/arr.md"
  "$DRBENCH" aggregate ref-small.h5 --no-store >"$WORK/ref.md"
  cmp -s "$WORK/arr.md" "$WORK/ref.md" || fail "the array's markdown table differs"
  once_each 8
  echo "case 5 ok: job array of 4 slices (--repeats %a), one table equal to the single run's"
}
if want 5; then case5; fi
