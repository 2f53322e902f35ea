#!/usr/bin/env bash
# Issue 38's probe, the cases about the machine rather than the files: an external command that
# makes its output a FIFO, leaves a process in a session of its own, declares a huge dataset, or
# finds TMPDIR full; scratch folders and processes left by a SIGKILLed drbench; a tiny address
# space; a nested memory cgroup; a CSV without information. Cases that need root (a tmpfs, a
# cgroup) are skipped with the reason where they cannot be set up.
. "$(dirname "$0")/../support/cli_lib.sh"
cd "$WORK"
mkdir -p tmp
export TMPDIR=$WORK/tmp
first_dims_command "$WORK/ok_cmd.py"
ext_yaml() {  # ext_yaml COMMAND...: one external task on iris under a 20 s limit
  local argv
  argv=$(printf '%s, ' "$@")
  cat <<YAML
seed: 1
max_task_seconds: 20
datasets: [{name: iris, source: bundled}]
splits: {train_ratio: [0.5]}
methods:
  - {method: external, label: ext, command: [${argv%, }], dims: [2]}
YAML
}
no_crash() {  # no_crash FILE: no traceback, uncaught exception or crash in it
  ! grep -qE "Traceback|terminate called|Segmentation|bad_alloc" "$1" ||
    { cat "$1"; fail "a crash instead of a message in $1"; }
}

# ------------------------------------------------------------------------ FIFO output
printf '#!/bin/sh\nmkfifo "$2"\n' >fifo.sh && chmod +x fifo.sh
ext_yaml ./fifo.sh >fifo.yaml
start=$(date +%s) && rc=0
timeout 60 "$DRBENCH" run fifo.yaml --output fifo.h5 --no-table 2>err || rc=$?
[ "$rc" = 4 ] || { cat err; fail "FIFO output: exit $rc, expected 4 (a failed task)"; }
[ $(($(date +%s) - start)) -lt 30 ] || fail "FIFO output: the run waited on the FIFO"
expect_in err "is not a regular file (a FIFO"
[ -z "$(ls -d tmp/drbench-external-* 2>/dev/null)" ] || { ls -la tmp; fail "FIFO output: scratch left"; }

# ------------------------------------------------------------------------ huge declared size
cat >huge.py <<'PY'
import sys, h5py
with h5py.File(sys.argv[2], "w") as f:  # declared, never written: the file stays tiny
    f.create_dataset("Z_train", shape=(2**40, 2), dtype="f8")
    f.create_dataset("Z_test", shape=(75, 2), dtype="f8")
PY
ext_yaml "$PY" "$WORK/huge.py" >huge.yaml
rc=0 && "$DRBENCH" run huge.yaml --output huge.h5 --no-table 2>err || rc=$?
[ "$rc" = 4 ] || { cat err; fail "huge declared size: exit $rc, expected 4"; }
no_crash err
expect_in err "the command must write Z_train"
! grep -q "force-new\|restore the file" err || { cat err; fail "huge size: the results file's fix"; }

# ------------------------------------------------------------------------ a setsid child
cat >setsid.sh <<SH
#!/bin/sh
setsid sleep 313 </dev/null >/dev/null 2>&1 &
exec $PY $WORK/ok_cmd.py "\$@"
SH
chmod +x setsid.sh
ext_yaml ./setsid.sh >setsid.yaml
"$DRBENCH" run setsid.yaml --output setsid.h5 --quiet --no-table || fail "setsid: the run failed"
sleep 0.5
! pgrep -x -f "sleep 313" >/dev/null || { pkill -x -f "sleep 313"; fail "setsid: child left running"; }

# ------------------------------------------------------------------------ drbench SIGKILLed
# The command starts a child and waits; drbench is killed: its scratch folder and the child stay
# until the next drbench with an external task removes the one and kills the other.
cat >slow.sh <<'SH'
#!/bin/sh
sleep 317 &
sleep 317
SH
chmod +x slow.sh
ext_yaml ./slow.sh >slow.yaml
"$DRBENCH" run slow.yaml --output slow.h5 --quiet --no-table 2>/dev/null &
pid=$!
for _ in $(seq 100); do pgrep -x -f "sleep 317" >/dev/null && break; sleep 0.1; done
sleep 0.3
kill -9 $pid && wait $pid 2>/dev/null || true
sleep 0.3
left=$(ls -d tmp/drbench-external-* 2>/dev/null | wc -l)
[ "$left" -ge 1 ] || fail "SIGKILL: expected the killed run's scratch folder to be left"
pgrep -x -f "sleep 317" >/dev/null || fail "SIGKILL: expected the command's child to be left"
"$DRBENCH" run setsid.yaml --output again.h5 --no-table 2>err || { cat err; fail "rerun failed"; }
expect_in err "removed 1 scratch folder(s) drbench-external-* under $TMPDIR left by a drbench"
expect_in err "killed 2 process(es) their commands had left running"  # both sleeps
sleep 0.3
[ -z "$(ls -d tmp/drbench-external-* 2>/dev/null)" ] || { ls -la tmp; fail "SIGKILL: stale scratch left"; }
! pgrep -x -f "sleep 317" >/dev/null || { pkill -x -f "sleep 317"; fail "SIGKILL: child left"; }

# ------------------------------------------------------------------------ full TMPDIR
# Full: refused before MPI_Init (Open MPI's session files live there too). Nearly full: the
# command's input does not fit, the task is a failure of the environment, and rerunning the same
# command with space retries it.
mkdir -p full
if mount -t tmpfs -o size=16m tmpfs full 2>/dev/null; then
  trap 'umount "$WORK/full" 2>/dev/null; rm -rf "$WORK"' EXIT
  ext_yaml "$PY" "$WORK/ok_cmd.py" >okx.yaml
  sed -i 's/{name: iris, source: bundled}/{name: big, source: generator, generator: gaussian_blobs, params: {n: 300000}}/' okx.yaml
  rc=0 && TMPDIR=$WORK/full "$DRBENCH" run okx.yaml --output full.h5 --no-table 2>err || rc=$?
  [ "$rc" = 4 ] || { cat err; fail "nearly full TMPDIR: exit $rc, expected 4"; }
  no_crash err
  expect_in err "environment: No space left on device"
  expect_in err "TMPDIR ($WORK/full)"
  "$DRBENCH" run okx.yaml --output full.h5 --no-table 2>err || { cat err; fail "full: rerun"; }
  expect_in err "retrying 1 failed task(s) (failures of the environment)"
  dd if=/dev/zero of=full/fill bs=4k 2>/dev/null || true
  rc=0 && TMPDIR=$WORK/full "$DRBENCH" run okx.yaml --output full2.h5 --no-table 2>err || rc=$?
  [ "$rc" = 2 ] || { cat err; fail "full TMPDIR: exit $rc, expected 2 (refused)"; }
  expect_in err "No space left on device in TMPDIR ($WORK/full"
  no_crash err
  umount full
  trap 'rm -rf "$WORK"' EXIT
else
  echo "SKIP (full TMPDIR): cannot mount a tmpfs here (needs root)"
fi

# ------------------------------------------------------------------------ memory limits
pca_config '{name: iris, source: bundled}' >ok.yaml
# A tiny address space: the memory model's refusal before anything runs, not a crash.
rc=0 && prlimit --as=$((200 << 20)) "$DRBENCH" run ok.yaml --output as.h5 --no-table 2>err || rc=$?
[ "$rc" = 2 ] || { cat err; fail "tiny address space: exit $rc, expected 2 (refused)"; }
no_crash err
expect_in err "memory"
[ ! -e as.h5 ] || fail "tiny address space: a results file was written"
# A nested memory cgroup (as a batch system sets) is the node's budget.
cg=""
for base in "/sys/fs/cgroup/memory$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)" \
  "/sys/fs/cgroup$(awk -F: '$1 == 0 {print $3}' /proc/self/cgroup)"; do
  if mkdir "$base/drbench-test-$$" 2>/dev/null; then
    cg="$base/drbench-test-$$"
    break
  fi
done
if [ -n "$cg" ] && { echo $((300 << 20)) >"$cg/memory.limit_in_bytes" 2>/dev/null ||
  echo $((300 << 20)) >"$cg/memory.max" 2>/dev/null; }; then
  rc=0
  sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" validate "$3"' sh "$cg" "$DRBENCH" ok.yaml \
    >out 2>err || rc=$?
  rmdir "$cg" 2>/dev/null || true
  [ "$rc" = 0 ] || { cat err; fail "cgroup: validate failed"; }
  expect_in out "limit 300 MiB"
else
  [ -n "$cg" ] && rmdir "$cg"
  echo "SKIP (nested memory cgroup): cannot create a memory cgroup here (needs root and cgroupfs)"
fi

# ------------------------------------------------------------------------ CSV without information
{
  for i in $(seq 54); do echo "0,0,0,a"; done
  for i in $(seq 6); do echo "0,0,0,b"; done
} >flat.csv
pca_config "{name: flat, source: csv, path: $WORK/flat.csv}" >flat.yaml
"$DRBENCH" validate flat.yaml >out 2>err || { cat err; fail "flat CSV: validate refused"; }
expect_in err "dataset 'flat' has no information: its 60 points are identical"
expect_in err "all zero"
echo "hostile_env ok"
exit 0
