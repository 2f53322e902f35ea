#!/usr/bin/env bash
# The neighbour graph version of a results file (root attribute graph_version,
# docs/results-format.md): a run records this build's; a file from before the attribute (version 1,
# the retired brute-force search of the graph methods) is recognised by `drbench info` and
# drbench.results.load, resumes when nothing is left to run, and is refused, untouched, when a
# resume would add tasks computed with the one search to it, with the key and the fix. Also
# `drbench info --progress`, what the report's progress line reads.
. "$(dirname "$0")/../support/cli_lib.sh"
cat >"$WORK/g.yaml" <<'YAML'
name: graphver
seed: 5
datasets: [{name: iris, source: bundled, preprocess: [standardize]}]
splits: {train_ratio: [0.5], repeats: 2}
methods:
  - {method: lle, label: LLE, dims: [2], grid: {neighbours: [8]}}
  - {method: laplacian_eigenmaps, label: LE, dims: [2], grid: {neighbours: [20]}}
evaluation: {knn: [1]}
YAML
"$DRBENCH" run "$WORK/g.yaml" --output "$WORK/new.h5" --quiet --no-table
"$DRBENCH" info "$WORK/new.h5" >"$WORK/info"
expect_in "$WORK/info" "neighbours  graph version 3 (this build's"

# Version 1: the attribute dropped, as every file written before it. The whole file resumes with
# nothing to run and keeps its version; half of it (repeat 0 only) is refused.
"$PY" - "$WORK/new.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    assert int(f.attrs["graph_version"]) == 3, dict(f.attrs)
PY
cp "$WORK/new.h5" "$WORK/old.h5"
"$DRBENCH" run "$WORK/g.yaml" --output "$WORK/half.h5" --repeats 0 --quiet --no-table
# The report's progress line asks the program (the one reader of journals): a slice keeps an
# emptied journal, 2 of 4 tasks are in the file, 2 left.
"$DRBENCH" info "$WORK/half.h5" --progress >"$WORK/progress"
expect_in "$WORK/progress" "$(printf 'file\ttasks\texpected\tfinished\tjournal\tjournal_tasks\tleft')"
expect_in "$WORK/progress" "$(printf '%s\t2\t4\t0\t%s\t0\t2' "$WORK/half.h5" "$WORK/half.h5.journal")"
for f in old half; do
  "$PY" - "$WORK/$f.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    del f.attrs["graph_version"]
PY
done
"$DRBENCH" info "$WORK/old.h5" >"$WORK/info"
expect_in "$WORK/info" "graph version 1 (the file predates the attribute"
PYTHONPATH="$SRC/python" DRBENCH_PROGRAM="$DRBENCH" "$PY" - "$WORK/old.h5" <<'PY'
import sys
from drbench import results
r = results.load(sys.argv[1])
assert r.graph_version == 1, r.graph_version
assert any("neighbour graph version 1" in n for n in r.notes), r.notes
PY

"$DRBENCH" run "$WORK/g.yaml" --output "$WORK/old.h5" --quiet --no-table
"$PY" - "$WORK/old.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    assert int(f.attrs.get("graph_version", 1)) == 1, "a resume with nothing to run relabelled the file"
PY

sum_before=$(cat "$WORK/half.h5" "$WORK/half.h5.journal" | sha256sum)
expect_fail "a version-1 file resumed with tasks left" \
  "$DRBENCH" run "$WORK/g.yaml" --output "$WORK/half.h5" --quiet --no-table
expect_in "$WORK/err" "half.h5: its 2 finished task(s) were computed with neighbour graph version 1"
expect_in "$WORK/err" "(root attribute graph_version, absent"
expect_in "$WORK/err" "this drbench computes version 3, and one file never mixes the two"
expect_in "$WORK/err" "fix: rerun with --force-new"
[ "$(cat "$WORK/half.h5" "$WORK/half.h5.journal" | sha256sum)" = "$sum_before" ] ||
  fail "the refused run changed the file or its journal"

# The fix: --force-new starts over under this build.
"$DRBENCH" run "$WORK/g.yaml" --output "$WORK/half.h5" --force-new --quiet --no-table
"$DRBENCH" info "$WORK/half.h5" >"$WORK/info"
expect_in "$WORK/info" "graph version 3"
same_task_tables "$WORK/half.h5" "$WORK/new.h5"

# Slices of two versions are never joined into one table.
"$DRBENCH" run "$WORK/g.yaml" --output "$WORK/r1.h5" --repeats 1 --quiet --no-table
"$PY" - "$WORK/r1.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    f.attrs["graph_version"] = 1
PY
"$DRBENCH" run "$WORK/g.yaml" --output "$WORK/r0.h5" --repeats 0 --quiet --no-table
expect_fail "slices of two graph versions" "$DRBENCH" aggregate "$WORK/r0.h5" "$WORK/r1.h5"
expect_in "$WORK/err" "neighbour graph version"
echo "graph_version: ok"
