#!/usr/bin/env bash
# What a careless or hostile user tries (issue 38's probe): every reader of results files refuses
# a damaged, foreign, newer or interrupted file with a sentence and a fix (never a traceback);
# bad option values and overrides are refused naming the option; external commands cannot break
# stored text, task keys or the time limit. Each case is one `refused` line below.
. "$(dirname "$0")/../support/cli_lib.sh"
cd "$WORK"
# refused NAME "TEXT1|TEXT2" cmd...: a non-zero exit that is not a signal, every TEXT in stderr, a
# fix, and no Python traceback or uncaught C++ exception.
refused() {
  local name=$1 texts=$2 t
  shift 2
  set +e
  "$@" >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  set -e
  [ $rc -ne 0 ] || { cat "$WORK/out"; fail "$name: expected a refusal, got success"; }
  [ $rc -lt 124 ] || { cat "$WORK/err"; fail "$name: killed or timed out (exit $rc)"; }
  ! grep -qE "Traceback|terminate called|Segmentation|bad_alloc" "$WORK/err" ||
    { cat "$WORK/err"; fail "$name: a traceback or crash instead of a message"; }
  IFS='|' read -ra want <<<"$texts"
  for t in "${want[@]}"; do expect_in "$WORK/err" "$t"; done
  grep -qiE "fix|drbench help|usage" "$WORK/err" || { cat "$WORK/err"; fail "$name: no fix"; }
}
cat >ok.yaml <<'YAML'
seed: 1
datasets: [{name: iris, source: bundled}]
splits: {train_ratio: [0.5]}
methods: [{method: pca, dims: [2]}]
YAML
"$DRBENCH" run ok.yaml --output good.h5 --quiet --no-table

# ---------------------------------------------------------------- results files, every reader
: >zero.h5
head -c 3000 good.h5 >truncated.h5
"$PY" -c "import os; open('random.h5','wb').write(os.urandom(20000))"
cp good.h5 overwritten.h5
dd if=/dev/urandom of=overwritten.h5 bs=4096 seek=1 count=1 conv=notrunc 2>/dev/null
"$PY" -c "import h5py, numpy as np; h5py.File('data.h5', 'w')['X'] = np.zeros((3, 2))"
cp good.h5 newer.h5
"$PY" -c "import h5py; h5py.File('newer.h5', 'a').attrs['settings_version'] = 99"
# A run killed before its first snapshot: only the journal (and a stale lock) is left.
if DRBENCH_FAULT_KILL_AFTER=3 "$DRBENCH" run "$SRC/tests/configs/small.yaml" --output j.h5 \
  --quiet --no-table >/dev/null 2>&1; then fail "the fault-injected run should have died"; fi
[ -s j.h5.journal ] && [ ! -e j.h5 ] || fail "expected a journal and no results file"
# The Python API raises ValueError (its message is what the user sees), nothing else.
load() {
  "$PY" -c "
import sys
from drbench import results
try:
    results.load(sys.argv[1])
except ValueError as e:
    sys.exit(f'{e}')" "$1"
}
export PYTHONPATH="$SRC/python${PYTHONPATH:+:$PYTHONPATH}"
for f in zero truncated random overwritten data newer j nothere; do
  case $f in
    zero | random) want="not an HDF5 file" ;;
    truncated) want="damaged" ;;
    overwritten) want="" ;;  # which structure the 4 KiB hit decides the sentence
    data) want="not a drbench results file" ;;
    newer) want="written by a newer drbench|settings_version 99" ;;
    j) want="the run was interrupted|holds 3 finished task(s)|rerun the same" ;;
    nothere) want="no such file" ;;
  esac
  refused "info_$f" "$f.h5|$want" "$DRBENCH" info "$f.h5"
  refused "aggregate_$f" "$f.h5|$want" "$DRBENCH" aggregate "$f.h5" --no-store
  refused "plot_$f" "$f.h5|$want" "$DRBENCH" plot "$f.h5" -o figs
  refused "report_$f" "$f.h5|$want" "$DRBENCH" report "$f.h5" -o r.html
  refused "load_$f" "$f.h5|$want" load "$f.h5"
done
[ ! -e figs ] && [ ! -e r.html ] && [ ! -e r.html.tmp ] || fail "a refused reader wrote output"
# A resume of a newer file is refused and leaves it untouched.
cp newer.h5 newer_copy.h5
refused resume_newer "written by a newer drbench" "$DRBENCH" run ok.yaml --output newer.h5 --quiet
cmp -s newer.h5 newer_copy.h5 || fail "resume_newer: the newer file was modified"
# The journal-only run is recovered by rerunning it, as the message says.
"$DRBENCH" run "$SRC/tests/configs/small.yaml" --output j.h5 --no-table 2>err_j
expect_in err_j "3 already done"

# ---------------------------------------------------------------- overrides
for o in splits.repeats= seed= output.path= 'seed= '; do
  refused "override_empty_${o%%=*}" "${o%%=*}|the value is empty|=~' removes the key" \
    "$DRBENCH" run ok.yaml "$o" --output o.h5 --quiet
done
refused override_huge_index "methods[99999999999999999999].dims|out of range" \
  "$DRBENCH" run ok.yaml 'methods[99999999999999999999].dims=[2]' --output o.h5 --quiet
refused override_big_index "methods[99999999]|no such list entry" \
  "$DRBENCH" run ok.yaml 'methods[99999999].dims=[2]' --output o.h5 --quiet
[ ! -e o.h5 ] || fail "a refused override wrote a results file"

# ---------------------------------------------------------------- plan options
for bad in "--latency abc" "--latency -5" "--start -100" "--check -1" "--commit inf" \
  "--latency 1e999"; do
  refused "plan_${bad// /_}" "${bad%% *}|got '${bad#* }'" "$DRBENCH" plan ok.yaml --ranks 4 $bad
done
for bad in 1e3 99999999999 0 -2 4,x; do
  refused "plan_ranks_$bad" "--ranks" "$DRBENCH" plan ok.yaml --ranks "$bad"
done
[ ! -s "$WORK/out" ] || { cat "$WORK/out"; fail "plan printed part of a plan before refusing"; }
"$DRBENCH" plan ok.yaml --ranks 4,16 --latency 0.5 --start 0 --check 0 >plan.txt
expect_in plan.txt "rank 3"
