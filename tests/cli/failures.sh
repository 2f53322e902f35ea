#!/usr/bin/env bash
# A run in which a task fails exits 4 (not 0, not 2) and prints a failure summary even with
# --quiet, also when rerun on the finished file. A comment added to the config resumes instead of
# being refused, and each profile has its own default results file.
. "$(dirname "$0")/../support/cli_lib.sh"
# The method's own preprocessing leaves 1 feature, so dims [2] passes validation (checked against
# the dataset's chain, d = 4) and fails at run time: the documented way a task can still fail.
cat >"$WORK/f.yaml" <<'YAML'
seed: 3
datasets: [{name: iris, source: bundled}]
splits: {train_ratio: [0.5], repeats: 2}
methods:
  - method: identity
  - {method: pca, label: squeezed, dims: [2], preprocess: [{pca: {components: 1}}]}
output: {path: results/f.h5}
profiles:
  quick: {splits: {repeats: 1}}
YAML
set +e
"$DRBENCH" run "$WORK/f.yaml" --output "$WORK/f.h5" --quiet --no-table >"$WORK/out" 2>"$WORK/err"
rc=$?
set -e
[ $rc -eq 4 ] || { cat "$WORK/err"; fail "a run with failed tasks exited $rc, expected 4"; }
expect_in "$WORK/err" "2 of 4 task(s) failed"
expect_in "$WORK/err" "iris|ratio=0.5|r0|squeezed"
# Rerunning the finished file runs nothing and still reports the failures.
set +e
"$DRBENCH" run "$WORK/f.yaml" --output "$WORK/f.h5" --quiet --no-table 2>"$WORK/err2"
rc=$?
set -e
[ $rc -eq 4 ] || fail "the rerun exited $rc, expected 4"
expect_in "$WORK/err2" "2 of 4 task(s) failed"
# A comment and reformatting do not count as a change of the experiment.
{ echo "# a comment"; sed 's/seed: 3/seed:   3   # same seed/' "$WORK/f.yaml"; } >"$WORK/f2.yaml"
set +e
"$DRBENCH" run "$WORK/f2.yaml" --output "$WORK/f.h5" --no-table 2>"$WORK/err3"
rc=$?
set -e
[ $rc -eq 4 ] || { cat "$WORK/err3"; fail "the commented config was refused (exit $rc)"; }
expect_in "$WORK/err3" "4 already done"
# Default paths: the quick profile does not share the full run's file.
(cd "$WORK" && "$DRBENCH" validate f.yaml) | grep -qF "results -> results/f.h5" || fail "full path"
(cd "$WORK" && "$DRBENCH" validate f.yaml --quick) | grep -qF "results -> results/f-quick.h5" ||
  fail "the quick profile writes to the full run's file"
echo "failures ok"
