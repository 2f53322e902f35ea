#!/usr/bin/env bash
# selection: validation: no test point reaches the choice (poisoned test labels and points leave
# every inner result and every chosen setting as they were), the same tasks and results on 1 and
# 2 ranks and after a kill and resume (with and without halving), captions that name the rule,
# and old files that keep theirs.
. "$(dirname "$0")/../support/cli_lib.sh"

# --- Poisoned test points: a dataset with its own split, the test part then scrambled.
"$PY" - "$WORK" <<'PY'
import sys, h5py, numpy as np
rng = np.random.default_rng(5)
n, d, classes = 240, 6, 3
y = np.repeat(np.arange(classes), n // classes)
X = rng.normal(size=(n, d)) + 1.5 * y[:, None] * rng.normal(size=(1, d))
split = np.tile([0, 1], n // 2)  # every other point is a test point
for name, (Xs, ys) in {
        "clean": (X, y),
        # Test labels permuted among the test points and test points replaced by noise.
        "poison": (np.where(split[:, None] == 1, 50 * rng.normal(size=X.shape), X),
                   np.where(split == 1, np.roll(y, 7), y))}.items():
    with h5py.File(f"{sys.argv[1]}/blobs_{name}.h5", "w") as f:
        f["X"], f["y"], f["split"] = Xs, ys, split
PY
poison_config() {  # poison_config DATAFILE SELECTION
  cat <<YAML
name: poison
seed: 4
datasets: [{name: blobs, source: file, path: $1, preprocess: [standardize]}]
splits: {own: true, repeats: 3}
methods:
  - {method: kpca, label: KPCA, dims: [2], grid: {kernel_width: [0.3, 1, 3, 10]}}
  - {method: lda, label: LDA, dims: [2], grid: {ridge: [1.0e-6, 10, 1000]}}
  - {method: pca, label: PCA, dims: [2]}
evaluation: {knn: [1], selection: $2}
YAML
}
for data in clean poison; do
  poison_config "$WORK/blobs_$data.h5" '{rule: validation, folds: 3}' >"$WORK/$data.yaml"
  "$DRBENCH" run "$WORK/$data.yaml" --output "$WORK/$data.h5" --quiet --no-table
  "$DRBENCH" aggregate "$WORK/$data.h5" --no-store --long "$WORK/$data.csv" >/dev/null
  "$DRBENCH" aggregate "$WORK/$data.h5" --no-store >"$WORK/$data.md"
done
"$PY" - "$WORK/clean.h5" "$WORK/poison.h5" "$WORK/clean.csv" "$WORK/poison.csv" <<'PY'
import sys, csv, h5py, numpy as np
def rows(p):
    t = h5py.File(p)["tasks"]
    return {k: (f, e) for k, f, e in zip(t["key"].asstr()[()], t["fold"][()], t["knn_error"][()][:, 0])}
clean, poison = rows(sys.argv[1]), rows(sys.argv[2])
assert clean.keys() == poison.keys(), "the poisoned run ran other tasks: the choice moved"
inner = [k for k, (f, _) in clean.items() if f >= 0]
assert len(inner) == 3 * 3 * (4 + 3), len(inner)
for k in inner:
    assert clean[k][1] == poison[k][1], f"inner task {k} saw the test points"
outer = [k for k, (f, _) in clean.items() if f < 0]
assert len(outer) == 3 * 3, len(outer)  # one test-point task per partition and method
assert any(clean[k][1] != poison[k][1] for k in outer), "the poison did not reach the test scores"
chosen = [{(r["method"]): r["setting"] for r in csv.DictReader(open(p))} for p in sys.argv[3:]]
assert chosen[0] == chosen[1], chosen
PY
expect_in "$WORK/clean.md" "of its training points (selection: validation), refitted on all of them"
expect_in "$WORK/clean.md" "3 inner folds"

# --- 1 and 2 ranks, kill and resume: identical task tables, with and without halving.
# Killed in the second round (the first holds the inner tasks and PCA's: 56 tasks without halving,
# 16 with it), after some choices were made and before others.
for case in '58 {rule: validation, folds: 3}' \
            '19 {rule: validation, fraction: 0.3, halving: {repeats: 2, keep: 2}}'; do
  kill_after=${case%% *} sel=${case#* }
  {
    iris_sweep sel 7 '{train_ratio: [0.4], repeats: 4}'
    echo "evaluation: {knn: [1], selection: $sel}"
  } >"$WORK/s.yaml"
  rm -f "$WORK"/s[abc].h5
  "${MPIRUN[@]}" -np 1 "$DRBENCH" run "$WORK/s.yaml" --output "$WORK/sa.h5" --quiet --no-table
  "${MPIRUN[@]}" -np 2 "$DRBENCH" run "$WORK/s.yaml" --output "$WORK/sb.h5" --quiet --no-table
  same_task_tables "$WORK/sa.h5" "$WORK/sb.h5"
  (DRBENCH_FAULT_KILL_AFTER=$kill_after "$DRBENCH" run "$WORK/s.yaml" --output "$WORK/sc.h5" --quiet \
    --no-table 2>/dev/null) && fail "the killed run exited 0"
  "$DRBENCH" run "$WORK/s.yaml" --output "$WORK/sc.h5" --quiet --no-table
  same_task_tables "$WORK/sa.h5" "$WORK/sc.h5"
done
"$DRBENCH" aggregate "$WORK/sa.h5" --no-store >"$WORK/table"
expect_in "$WORK/table" "selection: validation, by successive halving (every setting on 2 partitions, the best 2 on all)"
expect_in "$WORK/table" "holding out 30 % of each class"

# --- The oracle says what it is, and validate says what it costs.
{
  iris_sweep oracle 7 '{train_ratio: [0.4], repeats: 3}'
  echo "evaluation: {knn: [1], selection: min_mean_error}"
} >"$WORK/o.yaml"
"$DRBENCH" validate "$WORK/o.yaml" >/dev/null 2>"$WORK/err"
expect_in "$WORK/err" "the setting of LDA (4 settings) is chosen on the test error it reports, so those errors are optimistic"
"$DRBENCH" run "$WORK/o.yaml" --output "$WORK/o.h5" --quiet --no-table
"$DRBENCH" aggregate "$WORK/o.h5" --no-store >"$WORK/table"
expect_in "$WORK/table" "chosen on the test error, as the paper did (selection: min_mean_error)"
"$DRBENCH" info "$WORK/o.h5" >"$WORK/info"
expect_in "$WORK/info" "selection   min_mean_error"

# --- A file written before the rule was recorded: min_mean_error, in its captions and on resume.
sed 's/selection: min_mean_error/quality: []/' "$WORK/o.yaml" >"$WORK/old.yaml"
"$DRBENCH" run "$WORK/old.yaml" evaluation.selection=min_mean_error --output "$WORK/old.h5" \
  --quiet --no-table
"$PY" - "$WORK/old.h5" "$WORK/old.yaml" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:  # as an older drbench wrote it: no rule, no fold column
    del f.attrs["selection"]
    del f["tasks/fold"]
    f.attrs["config"] = open(sys.argv[2]).read()
PY
"$DRBENCH" aggregate "$WORK/old.h5" --no-store >"$WORK/table"
expect_in "$WORK/table" "chosen on the test error, as the paper did (selection: min_mean_error)"
"$DRBENCH" info "$WORK/old.h5" >"$WORK/info"
expect_in "$WORK/info" "the file predates the rule's record"
expect_fail "resuming an old file under the new default" \
  "$DRBENCH" run "$WORK/old.yaml" --output "$WORK/old.h5" --quiet --no-table
expect_in "$WORK/err" "was run under selection: min_mean_error"
sed 's/quality: \[\]/quality: [], selection: min_mean_error/' "$WORK/old.yaml" >"$WORK/old2.yaml"
"$DRBENCH" run "$WORK/old2.yaml" --output "$WORK/old.h5" --quiet --no-table
echo "selection: ok"
