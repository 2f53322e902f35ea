#!/usr/bin/env bash
# A table run in pieces (one profile per column, as configs/gplrf_usps.yaml runs Table 1 on a small
# machine) and aggregated together is the table the whole run gives: same partitions, same chosen
# settings, same t-tests. Pieces that share a cell, or that select differently, are refused.
. "$(dirname "$0")/../support/cli_lib.sh"
{
  iris_sweep pieces 11 '{train_per_class: [3, 6], repeats: 5}'
  cat <<'YAML'
  - {method: identity, label: 1NN}
evaluation: {knn: [1, 3], ttest_against: LDA, selection: {rule: min_mean_error, halving: {repeats: 2, keep: 2}}}
profiles:
  col3: {splits: {train_per_class: [3]}}
  col6: {splits: {train_per_class: [6]}}
  col6_all: {splits: {train_per_class: [6]}, evaluation: {selection: min_mean_error}}
YAML
} >"$WORK/p.yaml"
run() { "$DRBENCH" run "$WORK/p.yaml" --quiet --no-table "$@"; }
run --output "$WORK/whole.h5"
run --profile col3 --output "$WORK/c3.h5"
run --profile col6 --output "$WORK/c6.h5"
"$DRBENCH" aggregate "$WORK/whole.h5" --no-store >"$WORK/whole.md"
before=$(sha256sum <"$WORK/c3.h5")
"$DRBENCH" aggregate "$WORK/c3.h5" "$WORK/c6.h5" >"$WORK/pieces.md"
expect_in "$WORK/pieces.md" "Cells from 2 results files, each cell from one: $WORK/c3.h5, $WORK/c6.h5."
expect_in "$WORK/pieces.md" "| LDA | "
expect_in "$WORK/pieces.md" "per_class=3 | per_class=6"
grep -v "^Cells from" "$WORK/pieces.md" | sed '1{/^$/d}' >"$WORK/pieces_only.md"
diff "$WORK/whole.md" "$WORK/pieces_only.md" || fail "the table in pieces differs from the whole run's"
"$DRBENCH" aggregate "$WORK/whole.h5" --no-store --long "$WORK/whole.csv"
"$DRBENCH" aggregate "$WORK/c6.h5" "$WORK/c3.h5" --long "$WORK/pieces.csv"
[ "$(sort "$WORK/whole.csv")" = "$(sort "$WORK/pieces.csv")" ] || fail "--long of the pieces differs"
# Aggregating several files stores nothing in any of them (each keeps the tables its run stored).
[ "$(sha256sum <"$WORK/c3.h5")" = "$before" ] || fail "aggregating several files changed c3.h5"
"$PY" -c "import h5py,sys; assert len(h5py.File(sys.argv[1])['tables']) > 0, 'the run stored no tables'" "$WORK/c3.h5"
# The same cell in two files: refused, naming both.
expect_fail "overlapping pieces" "$DRBENCH" aggregate "$WORK/c3.h5" "$WORK/whole.h5"
expect_in "$WORK/err" "cannot put $WORK/c3.h5 and $WORK/whole.h5 in one table: both hold iris / LDA at per_class=3"
# A piece selected another way cannot share the caption.
run --profile col6_all --output "$WORK/c6all.h5"
expect_fail "different selection" "$DRBENCH" aggregate "$WORK/c3.h5" "$WORK/c6all.h5"
expect_in "$WORK/err" "the successive-halving repeats differs (2 against 0)"
expect_fail "a missing piece" "$DRBENCH" aggregate "$WORK/c3.h5" "$WORK/nothing.h5"
expect_in "$WORK/err" "nothing.h5"
echo "pieces: ok"
