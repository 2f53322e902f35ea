#!/usr/bin/env bash
# Progress inside a long task: on a terminal (run under script(1)) a fit past its first 5 s shows
# its iteration of the loop's cap, its objective and an ETA on the progress line; Sammon has a
# loop of its own, which reports like the shared optimisers do and stops at max_task_seconds. Off
# in a log (stderr a file) and under --quiet. 1,500 points: an idle machine must not finish the
# 100,000 iterations within the 9 s.
. "$(dirname "$0")/../support/cli_lib.sh"
command -v script >/dev/null || { echo "SKIP: script(1) not installed (bsdutils)"; exit 0; }
cat >"$WORK/long.yaml" <<'YAML'
seed: 1
max_task_seconds: 9
datasets:
  - {name: blobs, source: generator, generator: gaussian_blobs, params: {n: 1500, classes: 3, dim: 10}}
splits: {train_ratio: [0.5]}
methods:
  - {method: sammon, dims: [2], grid: {iterations: 100000, tolerance: 0}}
YAML
cd "$WORK"
rc=0
script -q -e -c "'$DRBENCH' run long.yaml --output tty.h5 --no-table" /dev/null >tty.out 2>&1 || rc=$?
[ "$rc" = 4 ] || { cat tty.out; fail "exit $rc, expected 4 (the task stops at max_task_seconds)"; }
tr '\r' '\n' <tty.out >tty.lines
grep -E "^\S*\[drbench\] task blobs\|.*sammon.*: iteration [0-9]+/100000, objective [0-9.e+-]+, [0-9]+ s, ETA [0-9hms ]+ at most" \
  tty.lines >/dev/null || { cat tty.lines; fail "no progress line with iteration/cap, objective and ETA"; }
expect_in tty.lines "ran past max_task_seconds"
rc=0
"$DRBENCH" run long.yaml --output log.h5 --no-table >log.out 2>log.err || rc=$?
[ "$rc" = 4 ] || { cat log.err; fail "log run: exit $rc, expected 4"; }
! grep -q "iteration [0-9]*/" log.err || { cat log.err; fail "progress lines in a log"; }
echo "progress ok"
