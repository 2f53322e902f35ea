#!/usr/bin/env bash
# The command line an expert expects: key=value overrides (checked like the file, recorded in the
# results, resumable), a slice of a config (--only/--dataset) into the same results file,
# `drbench info`, tables stored by the run itself, no lock file left behind, and `drbench plot`
# saying why it drew nothing.
. "$(dirname "$0")/../support/cli_lib.sh"
CFG="$SRC/tests/configs/small.yaml"
OUT="$WORK/o.h5"

# Overrides: one repeat, PCA at one dim, no embeddings kept.
"$DRBENCH" run "$CFG" splits.repeats=1 "methods[1].dims=[2]" output.keep_embeddings=false \
  --output "$OUT" --quiet >"$WORK/table"
"$DRBENCH" info "$OUT" >"$WORK/info"
expect_in "$WORK/info" "splits.repeats=1, methods[1].dims=[2], output.keep_embeddings=false"
# 2 datasets x 2 ratios x 1 repeat x 3 methods (PCA at one dim only).
expect_in "$WORK/info" "12 of 12 have a result (0 failed), 0 without one"
expect_in "$WORK/info" "embeddings  kept for 0 task(s)"
"$PY" - "$OUT" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
assert "tables" in f and len(f["tables"]) > 0, "the run stored no tables"
assert "# command-line override: splits.repeats=1" in f.attrs["config"]
PY
[ ! -e "$OUT.lock" ] || fail "the run left $OUT.lock behind"
# The same command resumes: nothing runs again.
"$DRBENCH" run "$CFG" splits.repeats=1 "methods[1].dims=[2]" output.keep_embeddings=false \
  --output "$OUT" >/dev/null 2>"$WORK/err"
expect_in "$WORK/err" "12 tasks, 12 already done"
# Other overrides are another experiment: refused without --force-new.
expect_fail "changed override" "$DRBENCH" run "$CFG" splits.repeats=2 --output "$OUT" --quiet
expect_in "$WORK/err" "different config"

# A slice, then the rest, into one file; the tables appear once the file is complete.
S="$WORK/s.h5"
"$DRBENCH" run "$CFG" splits.repeats=1 --only pca --dataset iris --output "$S" >/dev/null 2>"$WORK/err"
expect_in "$WORK/err" "slice (--only/--dataset/--repeats): 4 task(s) to run now"
"$DRBENCH" info "$S" >"$WORK/info"
expect_in "$WORK/info" "4 of 16 have a result"
expect_in "$WORK/info" "finished    no"
expect_in "$WORK/info" "iris / pca: holdout, 4, 0 failed, 1 setting(s), 2 dim(s)"
expect_in "$WORK/info" "tables      none stored"
[ ! -e "$S.lock" ] || fail "the slice left $S.lock behind"
"$DRBENCH" run "$CFG" splits.repeats=1 --output "$S" --quiet >/dev/null
"$DRBENCH" info "$S" >"$WORK/info"
expect_in "$WORK/info" "16 of 16 have a result"
"$PY" -c "import h5py,sys; assert len(h5py.File(sys.argv[1],'r')['tables']) > 0" "$S"

# A slice of partitions, then the rest: --repeats runs only those repeat indices.
R="$WORK/r.h5"
"$DRBENCH" run "$CFG" splits.repeats=3 --repeats 1-2 --only pca --dataset iris --output "$R" \
  >/dev/null 2>"$WORK/err"
expect_in "$WORK/err" "slice (--only/--dataset/--repeats): 8 task(s) to run now"
"$PY" - "$R" <<'PY'
import sys, h5py
keys = [k.decode() if isinstance(k, bytes) else k for k in h5py.File(sys.argv[1], "r")["tasks/key"][:]]
done = [k for k in keys]
assert done and all("|r0|" not in k for k in done), done
PY
"$DRBENCH" run "$CFG" splits.repeats=3 --repeats 0 --only pca --dataset iris --output "$R" \
  >/dev/null 2>"$WORK/err"
expect_in "$WORK/err" "8 already done"
expect_in "$WORK/err" "4 task(s) to run now"
expect_fail "a repeat beyond the config's" "$DRBENCH" run "$CFG" splits.repeats=3 --repeats 3 --output "$R"
expect_in "$WORK/err" "numbered 0 to 2"
expect_fail "a repeat list that is not numbers" "$DRBENCH" run "$CFG" --repeats 2-x --output "$R"
expect_in "$WORK/err" "'x' is not a repeat number"

# plot with nothing to draw says why and how.
"$DRBENCH" run "$CFG" splits.repeats=1 "splits.train_ratio=[0.5]" "methods=[{method: pca, dims: [2]}]" \
  output.keep_embeddings=false output.keep_traces=false --output "$WORK/p.h5" --quiet >/dev/null
"$DRBENCH" plot "$WORK/p.h5" -o "$WORK/figs" >"$WORK/plot.out" 2>"$WORK/plot.err"
expect_in "$WORK/plot.out" "0 figures drawn"
expect_in "$WORK/plot.err" "output.keep_embeddings: true"
expect_in "$WORK/plot.err" "no error curves"
# The memory check of a slice covers the slice's methods only.
cat >"$WORK/big.yaml" <<'YAML'
datasets: [{name: b, source: generator, generator: gaussian_blobs, params: {n: 20000, dim: 10}}]
splits: {train_ratio: [0.9]}
methods: [{method: pca, dims: [2]}, {method: kpca, dims: [2]}]
YAML
expect_fail "kpca over the limit" "$DRBENCH" run "$WORK/big.yaml" --memory-per-rank 2G --output "$WORK/big.h5" --quiet
expect_in "$WORK/err" "kpca"
"$DRBENCH" run "$WORK/big.yaml" --memory-per-rank 2G --only pca --output "$WORK/big.h5" --quiet --no-table
echo "overrides ok"
