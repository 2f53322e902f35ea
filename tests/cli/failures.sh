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

# The progress line counts the failures already in the file, as the summary below it does.
expect_in "$WORK/err3" "4/4 tasks done, 2 failed"
# --retry-failed reruns exactly the failed tasks (here they fail again, the same way).
set +e
"$DRBENCH" run "$WORK/f.yaml" --output "$WORK/f.h5" --no-table --retry-failed 2>"$WORK/err4"
rc=$?
set -e
[ $rc -eq 4 ] || { cat "$WORK/err4"; fail "--retry-failed exited $rc, expected 4"; }
expect_in "$WORK/err4" "4 tasks, 2 already done"
expect_in "$WORK/err4" "retrying 2 failed task(s) (--retry-failed)"
expect_in "$WORK/err4" "2 of 4 task(s) failed"
expect_fail "--retry-failed with --force-new" "$DRBENCH" run "$WORK/f.yaml" --retry-failed --force-new
# A finished slice is read by aggregate: printed, marked incomplete, not stored.
"$DRBENCH" run "$WORK/f.yaml" --output "$WORK/slice.h5" --only identity --quiet --no-table
"$DRBENCH" aggregate "$WORK/slice.h5" >"$WORK/table" 2>"$WORK/err5" ||
  { cat "$WORK/err5"; fail "aggregate refused a finished slice"; }
expect_in "$WORK/table" "identity"
expect_in "$WORK/err5" "tables not stored in $WORK/slice.h5"
# A failure of the environment (exit status 127: the command could not be executed) is recorded
# as such and retried by a plain resume.
printf '#!/bin/sh\nexit 127\n' >"$WORK/missing.sh"
chmod +x "$WORK/missing.sh"
cat >"$WORK/env.yaml" <<YAML
seed: 3
datasets: [{name: iris, source: bundled}]
splits: {train_ratio: [0.5], repeats: 1}
methods:
  - {method: external, label: gone, command: [$WORK/missing.sh], dims: [2]}
output: {path: $WORK/env.h5}
YAML
for attempt in 1 2; do
  set +e
  "$DRBENCH" run "$WORK/env.yaml" --no-table 2>"$WORK/err6"
  rc=$?
  set -e
  [ $rc -eq 4 ] || { cat "$WORK/err6"; fail "the missing program: exit $rc, expected 4"; }
  expect_in "$WORK/err6" "environment: "
done
expect_in "$WORK/err6" "retrying 1 failed task(s) (failures of the environment)"
# A failing command's stderr keeps its lines, indented under the error.
printf '#!/bin/sh\nprintf "Traceback (most recent call last):\\n  File x\\nValueError: boom\\n" >&2\nexit 1\n' \
  >"$WORK/tb.sh"
chmod +x "$WORK/tb.sh"
sed -e "s|$WORK/missing.sh|$WORK/tb.sh|" -e "s|env.h5|tb.h5|" "$WORK/env.yaml" >"$WORK/tb.yaml"
set +e
"$DRBENCH" run "$WORK/tb.yaml" --no-table --quiet 2>"$WORK/err7"
set -e
grep -qx "    ValueError: boom" "$WORK/err7" || { cat "$WORK/err7"; fail "the traceback lost its lines"; }
echo "retry ok"

# data_path is relative to the config's directory; one relative to the current directory (what
# earlier versions read) is refused with the mend.
mkdir -p "$WORK/sub" "$WORK/d"
sed 's|^seed: 3|seed: 3\ndata_path: d|' "$WORK/f.yaml" >"$WORK/sub/c.yaml"
(cd "$WORK" && expect_fail "data_path relative to the current directory" "$DRBENCH" validate sub/c.yaml)
expect_in "$WORK/err" "relative to the config's directory"
expect_in "$WORK/err" "exists relative to the current directory"
mkdir -p "$WORK/sub/d"
(cd "$WORK" && "$DRBENCH" validate sub/c.yaml >/dev/null) || fail "data_path beside the config refused"
echo "data_path ok"
