#!/usr/bin/env bash
# method: external (docs/external-methods.md). scikit-learn's Isomap through the Python SDK beside
# drbench's own isomap on the same oil partitions (1-NN errors within 0.5 points); a PCA written
# in Octave beside drbench's pca (the same errors); every bad command a failed task with its
# reason while the sweep goes on; labels, parameters and arguments with shell metacharacters
# reach the command as data; SIGTERM leaves no process of a command behind; validation refuses a
# missing command and --probe-external dry-runs the rest.
. "$(dirname "$0")/../support/cli_lib.sh"
EX="$SRC/examples/external"
"$PY" -c "import sklearn" 2>/dev/null || {
  [ "${CI:-}" = "true" ] && fail "python3-sklearn missing (scripts/install-deps.sh --test)"
  echo "SKIP: python3-sklearn not installed"; exit 0; }
have_octave=1
command -v octave-cli >/dev/null || {
  [ "${CI:-}" = "true" ] && fail "octave-cli missing (scripts/install-deps.sh --test installs octave)"
  echo "SKIP (Octave part): octave-cli not installed"; have_octave=0; }

mean_errors() {  # mean_errors FILE: "label mean_1nn_error" per method, and each task's error
  "$PY" - "$1" <<'PY'
import sys, h5py, numpy as np
t = h5py.File(sys.argv[1])["tasks"]
labels, err, status = t["label"].asstr()[()], t["knn_error"][()], t["status"][()]
assert (status == 0).all(), list(zip(labels, status, t["error"].asstr()[()]))
for l in sorted(set(labels)):
    e = err[labels == l].reshape(-1)
    print(l.replace(" ", "_"), e.mean())
PY
}

# --- scikit-learn Isomap against drbench's isomap, and Octave PCA against drbench's pca ---
need_shared oil.h5
octave_entry=""
[ $have_octave = 1 ] && octave_entry="
  - {method: pca, label: pca, dims: [2]}
  - method: external
    label: octave_pca
    command: [$PY, -m, drbench.octave, $EX/octave_pca.m]
    params: {center: {type: bool, default: true}}
    dims: [2]"
cat >"$WORK/iso.yaml" <<YAML
seed: 11
datasets: [{name: oil, source: file, preprocess: [standardize]}]
splits: {train_per_class: [100], repeats: 2}
methods:
  - {method: isomap, label: isomap, dims: [2], grid: {neighbours: 10}}
  - method: external
    label: sk_isomap
    command: [$PY, $EX/sk_isomap.py]
    params: {neighbours: {type: int, default: 10, min: 1}}
    dims: [2]$octave_entry
evaluation: {knn: [1]}
YAML
"$DRBENCH" validate "$WORK/iso.yaml" --probe-external >"$WORK/probe" 2>&1 || { cat "$WORK/probe"; fail "probe of good commands failed"; }
expect_in "$WORK/probe" "probe sk_isomap: ok"
"${MPIRUN[@]}" -np 2 "$DRBENCH" run "$WORK/iso.yaml" --output "$WORK/iso.h5" --quiet --no-table
mean_errors "$WORK/iso.h5" >"$WORK/means"
cat "$WORK/means"
"$PY" - "$WORK/means" $have_octave <<'PY'
import sys
m = dict(l.split() for l in open(sys.argv[1]))
m = {k: float(v) for k, v in m.items()}
d = abs(m["isomap"] - m["sk_isomap"])
assert d <= 0.005, f"Isomap 1-NN errors differ by {100 * d:.2f} points (drbench {m['isomap']}, sklearn {m['sk_isomap']})"
if sys.argv[2] == "1":
    assert abs(m["pca"] - m["octave_pca"]) < 1e-12, m
PY
"$DRBENCH" aggregate "$WORK/iso.h5" --no-store --ttest isomap >"$WORK/table"
expect_in "$WORK/table" "sk_isomap"

# --- bad commands: each a failed task with its reason; the others still run ---
cat >"$WORK/bad.py" <<'PY'
import sys, time, h5py, numpy as np
mode, inp, out = sys.argv[1], sys.argv[-2], sys.argv[-1]
f = h5py.File(inp)
n, m, dim = f["X_train"].shape[0], f["X_test"].shape[0], int(f.attrs["dim"])
if mode == "exit":
    print("something went wrong in the method", file=sys.stderr); sys.exit(3)
if mode == "hang":
    time.sleep(1000)
if mode == "nothing":
    sys.exit(0)
Z, T = np.zeros((n, dim)), np.zeros((m, dim))
if mode == "shape":
    Z = np.zeros((n, dim + 1))
if mode == "nan":
    T[0, 0] = np.nan
with h5py.File(out, "w") as o:
    o["Z_train"], o["Z_test"] = Z, T
PY
bad_entry() {  # bad_entry MODE [MORE KEYS]: the hanging one gets a 3 s timeout of its own
  printf '  - {method: external, label: %s, command: [%s, %s, %s], dims: [2]%s}\n' \
    "$1" "$PY" "$WORK/bad.py" "$1" "${2:-}"
}
{
  echo "seed: 1"
  echo "datasets: [{name: iris, source: bundled}]"
  echo "splits: {train_ratio: [0.5], repeats: 1}"
  echo "methods:"
  echo "  - {method: pca, dims: [2]}"
  for mode in exit nothing shape nan ok; do bad_entry $mode; done
  bad_entry hang ", timeout: 3"
} >"$WORK/bad.yaml"
mkdir "$WORK/scratch"
set +e
TMPDIR="$WORK/scratch" "$DRBENCH" run "$WORK/bad.yaml" --output "$WORK/bad.h5" --quiet --no-table \
  2>"$WORK/err"
rc=$?
set -e
# (Open MPI keeps its own session directory there too.)
left=$(ls -A "$WORK/scratch" | grep '^drbench-external-' || true)
[ -z "$left" ] || fail "scratch directories left behind: $left"
[ $rc -eq 4 ] || { cat "$WORK/err"; fail "a run with failing commands exited $rc, expected 4"; }
"$PY" - "$WORK/bad.h5" <<'PY'
import sys, h5py
t = h5py.File(sys.argv[1])["tasks"]
got = dict(zip(t["label"].asstr()[()], zip(t["status"][()], t["error"].asstr()[()])))
def expect(label, status, *texts):
    s, e = got[label]
    assert s == status, (label, s, e)
    for x in texts:
        assert x in e, (label, x, e)
expect("pca", 0); expect("ok", 0)
expect("exit", 1, "exit status 3", "something went wrong in the method", "bad.py")
expect("hang", 2, "timed out after", "its timeout: 3 s")
expect("nothing", 1, "wrote no output file")
expect("shape", 1, "'Z_train' is", "expected 75 x 2")
expect("nan", 1, "'Z_test' contains NaN")
PY
expect_in "$WORK/err" "5 of 7 task(s) failed"
# A failing probe is refused by validate.
grep -v "label: hang" "$WORK/bad.yaml" >"$WORK/bad2.yaml"
expect_fail "probing a command that writes the wrong shape" "$DRBENCH" validate "$WORK/bad2.yaml" --probe-external
expect_in "$WORK/err" "probe shape: FAILED"
expect_in "$WORK/err" "failed its probe"

# --- a command that does not exist, or is not executable: refused before anything runs ---
sed "s#command: \[$PY, $WORK/bad.py, ok\]#command: [no-such-command-xyz, ok]#" "$WORK/bad.yaml" >"$WORK/missing.yaml"
expect_fail "a missing command" "$DRBENCH" run "$WORK/missing.yaml" --output "$WORK/m.h5"
expect_in "$WORK/err" "'no-such-command-xyz' is not an executable on PATH"
[ ! -e "$WORK/m.h5" ] || fail "a refused config wrote results"
cp "$WORK/bad.py" "$WORK/noexec.py"
chmod -x "$WORK/noexec.py"
sed "s#command: \[$PY, $WORK/bad.py, ok\]#command: [$WORK/noexec.py, ok]#" "$WORK/bad.yaml" >"$WORK/noexec.yaml"
expect_fail "a command that is not executable" "$DRBENCH" validate "$WORK/noexec.yaml"
expect_in "$WORK/err" "is not an executable file"
# A shell string instead of an argv list is refused.
sed "s#command: \[$PY, $WORK/bad.py, ok\]#command: \"$PY $WORK/bad.py ok\"#" "$WORK/bad.yaml" >"$WORK/string.yaml"
expect_fail "a command given as one string" "$DRBENCH" validate "$WORK/string.yaml"
expect_in "$WORK/err" "must be a list (argv)"

# --- shell metacharacters in the label, a parameter and an argument arrive as data ---
mkdir "$WORK/meta"
cat >"$WORK/meta.py" <<'PY'
import sys, h5py, numpy as np
from drbench.external import read_task, write_output
t = read_task(sys.argv[-2])
open(sys.argv[-3], "w").write("\n".join([sys.argv[1], t.label, t.params["mode"]]))
write_output(sys.argv[-1], t.X_train[:, :t.dim], t.X_test[:, :t.dim])
PY
ARG='$(touch PWNED_ARG); `touch PWNED_TICK` | touch PWNED_PIPE'
cat >"$WORK/meta.yaml" <<YAML
seed: 1
datasets: [{name: iris, source: bundled}]
splits: {train_ratio: [0.5], repeats: 1}
methods:
  - method: external
    label: 'x \$(touch PWNED_LABEL); rm -f $WORK/meta.py & echo'
    command: [$PY, $WORK/meta.py, '$ARG', $WORK/meta/seen.txt]
    params: {mode: {type: choice, default: 'a;b', choices: ['a;b', '\$(touch PWNED_PARAM) > /dev/null']}}
    grid: {mode: ['\$(touch PWNED_PARAM) > /dev/null']}
    dims: [2]
YAML
(cd "$WORK/meta" && "$DRBENCH" run "$WORK/meta.yaml" --output "$WORK/meta/m.h5" --quiet --no-table)
"$PY" - "$WORK/meta/seen.txt" "$ARG" "$WORK" <<'PY'
import sys
arg, label, param = open(sys.argv[1]).read().split("\n")
assert arg == sys.argv[2], arg
assert label == f"x $(touch PWNED_LABEL); rm -f {sys.argv[3]}/meta.py & echo", label
assert param == "$(touch PWNED_PARAM) > /dev/null", param
PY
[ -f "$WORK/meta.py" ] || fail "the label's 'rm' ran"
if find "$WORK" /tmp -maxdepth 3 -name 'PWNED_*' 2>/dev/null | grep -q .; then fail "a metacharacter was run by a shell"; fi

# --- SIGTERM twice: the run stops, the command's whole process group dies, the task is not recorded ---
cat >"$WORK/sleeper.py" <<'PY'
import subprocess, sys, time
subprocess.Popen(["sleep", "987654"])  # a grandchild in the command's process group
time.sleep(1000)
PY
cat >"$WORK/term.yaml" <<YAML
seed: 1
datasets: [{name: iris, source: bundled}]
splits: {train_ratio: [0.5], repeats: 1}
methods:
  - {method: external, label: sleeper, command: [$PY, $WORK/sleeper.py], dims: [2]}
YAML
"$DRBENCH" run "$WORK/term.yaml" --output "$WORK/term.h5" --no-table >"$WORK/out" 2>"$WORK/err" &
job=$!
# Up to 5 minutes: on a loaded 2-core machine the run's start, its data check and Python's start
# have taken over 30 s.
for _ in $(seq 3000); do pgrep -f "sleep 987654" >/dev/null && break; sleep 0.1; done
pgrep -f "sleep 987654" >/dev/null || fail "the command never started its grandchild"
# The first stop signal lets running tasks finish; the second abandons them.
kill -TERM $job
sleep 0.5
kill -TERM $job
rc=0
wait $job || rc=$?
[ $rc -eq 75 ] || { cat "$WORK/err"; fail "exit status $rc after SIGTERM, expected 75"; }
expect_in "$WORK/err" "stopped by a signal: 0 of 1 tasks are saved"
sleep 0.5
if orphans=$(pgrep -f "sleep 987654"); then kill $orphans; fail "an orphan of the command outlived drbench"; fi
if pgrep -f "$WORK/sleeper.py" >/dev/null; then fail "the command outlived drbench"; fi

# scancel signals every process of the job: drbench and its command get SIGTERM together (here
# the command sends it to both), and srun delivers SIGUSR1 to all of them. The task is then no
# failure: SIGUSR1 leaves the command running, a command ended by SIGTERM as the run stops is not
# recorded, and the resumed run does it.
cat >"$WORK/job_signal.py" <<'PY'
import os, signal, sys
from drbench.external import read_task, write_output
marker, task = sys.argv[1], read_task(sys.argv[2])
os.kill(os.getpid(), signal.SIGUSR1)  # ignored: the command goes on
if not os.path.exists(marker):
    open(marker, "w").close()
    os.kill(os.getppid(), signal.SIGTERM)
    os.kill(os.getpid(), signal.SIGTERM)
write_output(sys.argv[3], task.X_train[:, :task.dim],
             None if task.X_test is None else task.X_test[:, :task.dim])
PY
cat >"$WORK/jobsig.yaml" <<YAML
seed: 1
datasets: [{name: iris, source: bundled}]
splits: {train_ratio: [0.5], repeats: 1}
methods:
  - {method: external, label: signalled, command: [$PY, $WORK/job_signal.py, $WORK/marker], dims: [2]}
YAML
rc=0
"$DRBENCH" run "$WORK/jobsig.yaml" --output "$WORK/jobsig.h5" --no-table >"$WORK/out" 2>"$WORK/err" || rc=$?
[ $rc -eq 75 ] || { cat "$WORK/err"; fail "exit status $rc when the job's SIGTERM ended the command, expected 75"; }
expect_in "$WORK/err" "stopped by a signal: 0 of 1 tasks are saved"
"$DRBENCH" run "$WORK/jobsig.yaml" --output "$WORK/jobsig.h5" --no-table >"$WORK/out" 2>"$WORK/err" ||
  { cat "$WORK/err"; fail "the resumed run failed"; }
expect_in "$WORK/err" "0 already done"
expect_in "$WORK/err" "1/1 tasks done, 0 failed"
echo "external ok"
