#!/usr/bin/env bash
# A protocol per method: one config holds PCA and LDA (holdout) beside t-SNE, UMAP and PaCMAP
# (transductive, by `auto` or by name), runs to one results file, and every table (md, csv, tex,
# long csv, `info`, `drbench.results.load`, the HTML report) shows each row's protocol. Files of
# different protocols aggregate together with a protocol column and a caption that says the
# t-tests cross protocols; a file from before /tasks/protocol reads as its config's protocol.
. "$(dirname "$0")/../support/cli_lib.sh"
cat >"$WORK/mixed.yaml" <<'YAML'
name: mixed
seed: 5
datasets: [{name: iris, source: bundled, preprocess: [standardize]}]
splits: {train_ratio: [0.5], repeats: 3}
methods:
  - {method: pca, label: PCA, dims: [2]}
  - {method: lda, label: LDA, dims: [2], protocol: holdout}
  - {method: tsne, label: t-SNE, dims: [2], grid: {gradient: exact, perplexity: 10, iterations: 150, exaggeration_iterations: 50}}
  - {method: umap, label: UMAP, dims: [2], protocol: transductive, grid: {iterations: 40}}
  - {method: pacmap, label: PaCMAP, dims: [2], grid: {iterations: 60}}
evaluation: {knn: [1], protocol: auto, ttest_against: PCA}
YAML
"$DRBENCH" validate "$WORK/mixed.yaml" >"$WORK/validate.out"
"$DRBENCH" run "$WORK/mixed.yaml" --quiet --no-table --output "$WORK/mixed.h5"
"$PY" - "$WORK/mixed.h5" <<'PY'
import sys, h5py
t = h5py.File(sys.argv[1], "r")["tasks"]
got = dict(zip(t["label"].asstr()[:], t["protocol"].asstr()[:]))
want = {"PCA": "holdout", "LDA": "holdout", "t-SNE": "transductive", "UMAP": "transductive",
        "PaCMAP": "transductive"}
assert got == want, got
PY
"$DRBENCH" aggregate "$WORK/mixed.h5" --no-store >"$WORK/mixed.md"
expect_in "$WORK/mixed.md" "| method | protocol | ratio=0.5 | failed |"
for row in "PCA | holdout" "LDA | holdout" "t-SNE | transductive" "UMAP | transductive" \
  "PaCMAP | transductive"; do
  expect_in "$WORK/mixed.md" "| $row | "
done
expect_in "$WORK/mixed.md" "protocols differ by row (holdout: fitted on the training points"
expect_in "$WORK/mixed.md" "the t-tests compare rows of different protocols too"
"$DRBENCH" aggregate "$WORK/mixed.h5" --no-store --format csv >"$WORK/mixed.csv"
expect_in "$WORK/mixed.csv" ",ci95_high,protocol"
expect_in "$WORK/mixed.csv" "iris,LDA,ratio,0.5,2,1,"
grep -q '^iris,t-SNE,.*,transductive$' "$WORK/mixed.csv" || fail "csv: t-SNE row lacks its protocol"
grep -q '^iris,LDA,.*,holdout$' "$WORK/mixed.csv" || fail "csv: LDA row lacks its protocol"
"$DRBENCH" aggregate "$WORK/mixed.h5" --no-store --format tex >"$WORK/mixed.tex"
expect_in "$WORK/mixed.tex" "Method & Protocol & ratio=0.5"
expect_in "$WORK/mixed.tex" "UMAP & transductive & "
"$DRBENCH" aggregate "$WORK/mixed.h5" --no-store --long "$WORK/long.csv" --details
head -1 "$WORK/long.csv" | grep -q ',reference,protocol$' || fail "long csv: no protocol column"
"$DRBENCH" aggregate "$WORK/mixed.h5" --no-store --ranks >"$WORK/ranks.md"
expect_in "$WORK/ranks.md" "methods of different protocols ranked together: holdout: PCA, LDA; transductive: t-SNE, UMAP, PaCMAP"
"$DRBENCH" info "$WORK/mixed.h5" >"$WORK/info.txt"
expect_in "$WORK/info.txt" "protocol    holdout (PCA, LDA); transductive (t-SNE, UMAP, PaCMAP)"
expect_in "$WORK/info.txt" "iris / PaCMAP: transductive, 3, 0 failed"
expect_in "$WORK/info.txt" "iris / LDA: holdout, 3, 0 failed"

# The stored tables (written when the run finished) and the Python reader carry it too.
DRBENCH_PROGRAM="$DRBENCH" "$PY" - "$WORK/mixed.h5" <<PY
import sys
sys.path.insert(0, "$SRC/python")
from drbench import results
r = results.load(sys.argv[1])
assert r.tables_source == "stored", r.tables_source
got = dict(zip(r.tables["method"], r.tables["protocol"]))
assert got == {"PCA": "holdout", "LDA": "holdout", "t-SNE": "transductive",
               "UMAP": "transductive", "PaCMAP": "transductive"}, got
assert set(r.tasks["protocol"]) == {"holdout", "transductive"}
PY

# The HTML report: a protocol column in the mixed table, named per row.
if "$PY" -c "import matplotlib" 2>/dev/null; then
  "$DRBENCH" report "$WORK/mixed.h5" -o "$WORK/mixed.html" >/dev/null
  expect_in "$WORK/mixed.html" "<th>method</th><th>protocol</th>"
  expect_in "$WORK/mixed.html" "<tr><td>LDA</td><td>holdout</td>"
  expect_in "$WORK/mixed.html" "<tr><td>PaCMAP</td><td>transductive</td>"
  expect_in "$WORK/mixed.html" "protocols differ by row"
else
  echo "SKIP (report): no matplotlib"
fi

# Two files, one protocol each: pooled into one table, each row with its file's protocol.
sed -e '/label: t-SNE/d' -e '/label: UMAP/d' -e '/label: PaCMAP/d' \
  -e 's/protocol: auto, //' "$WORK/mixed.yaml" >"$WORK/hold.yaml"
sed -e '/label: PCA/d' -e '/label: LDA/d' -e '/label: UMAP/d' -e 's/label: PaCMAP/label: PaCMAP2/' \
  -e 's/protocol: auto, ttest_against: PCA/protocol: transductive/' "$WORK/mixed.yaml" >"$WORK/trans.yaml"
"$DRBENCH" run "$WORK/hold.yaml" --quiet --no-table --output "$WORK/hold.h5"
"$DRBENCH" run "$WORK/trans.yaml" --quiet --no-table --output "$WORK/trans.h5"
"$DRBENCH" aggregate "$WORK/hold.h5" --no-store >"$WORK/hold.md"
expect_in "$WORK/hold.md" "; holdout protocol (fitted on the training points, test points mapped)"
grep -q "| protocol |" "$WORK/hold.md" && fail "a one-protocol table has a protocol column"
"$DRBENCH" aggregate "$WORK/hold.h5" "$WORK/trans.h5" --ttest PCA >"$WORK/both.md"
expect_in "$WORK/both.md" "| t-SNE | transductive | "
expect_in "$WORK/both.md" "| PaCMAP2 | transductive | "
expect_in "$WORK/both.md" "| LDA | holdout | "
expect_in "$WORK/both.md" "the t-tests compare rows of different protocols too"
"$DRBENCH" aggregate "$WORK/hold.h5" "$WORK/trans.h5" --ttest PCA --format csv >"$WORK/both.csv"
grep -q '^iris,PaCMAP2,.*,transductive$' "$WORK/both.csv" || fail "pooled csv: no protocol"
# The transductive file alone names its protocol in the caption.
"$DRBENCH" aggregate "$WORK/trans.h5" --no-store >"$WORK/trans.md"
expect_in "$WORK/trans.md" "; transductive protocol (training and test points embedded together, test labels hidden)"

# A file from before /tasks/protocol: every task reads as its config-level protocol.
cp "$WORK/trans.h5" "$WORK/old.h5"
"$PY" -c "import h5py,sys; f=h5py.File(sys.argv[1],'r+'); del f['tasks/protocol']" "$WORK/old.h5"
"$DRBENCH" info "$WORK/old.h5" >"$WORK/old.txt"
expect_in "$WORK/old.txt" "protocol    transductive (every method)"
"$DRBENCH" aggregate "$WORK/old.h5" --no-store >"$WORK/old.md"
diff "$WORK/trans.md" <(sed "s|$WORK/old.h5|$WORK/trans.h5|g" "$WORK/old.md") ||
  fail "a file without /tasks/protocol tabulates differently"
DRBENCH_PROGRAM="$DRBENCH" "$PY" - "$WORK/old.h5" <<PY
import sys
sys.path.insert(0, "$SRC/python")
from drbench import results
r = results.load(sys.argv[1])
assert set(r.tasks["protocol"]) == {"transductive"}, set(r.tasks["protocol"])
assert set(r.tables["protocol"]) == {"transductive"}, set(r.tables["protocol"])
PY

# Validation names the fix on the entry.
sed -e 's/protocol: auto, //' "$WORK/mixed.yaml" >"$WORK/bad.yaml"
expect_fail "t-SNE under holdout" "$DRBENCH" validate "$WORK/bad.yaml"
expect_in "$WORK/err" "'methods[2].method': method 'tsne' has no out-of-sample map, so it cannot run under the holdout protocol (fix: set protocol: transductive (or protocol: auto) on this entry"
sed -e 's/protocol: holdout}/protocol: transductive}/' "$WORK/mixed.yaml" >"$WORK/bad2.yaml"
expect_fail "LDA transductive" "$DRBENCH" validate "$WORK/bad2.yaml"
expect_in "$WORK/err" "'methods[1].protocol': method 'lda' is supervised and cannot fit partially labelled data"
expect_in "$WORK/err" "(fix: set protocol: holdout (or protocol: auto), or drop this method)"
echo "protocols: ok"
