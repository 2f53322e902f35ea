#!/usr/bin/env bash
# The GPLRF paper's first three USPS rows (1NN, PCA, LDA) with the config's quick profile (3
# partitions): every cell within 3 of the paper's standard deviations of the published mean.
. "$(dirname "$0")/../support/cli_lib.sh"
need_shared usps.h5
"${MPIRUN[@]}" -np 2 "$DRBENCH" run "$SRC/configs/usps_baselines.yaml" --quick \
  --output "$WORK/u.h5" --quiet --no-table
"$DRBENCH" aggregate "$WORK/u.h5" --format csv --no-store >"$WORK/u.csv"
"$PY" "$SRC/scripts/compare_to_paper.py" "$WORK/u.csv" "$SRC/tests/reference/gplrf_table1_usps.csv" \
  --max-sigma 3
# The same comparison shaped as the paper's table: ours / paper (signed gap) per split value.
"$PY" "$SRC/scripts/compare_to_paper.py" "$WORK/u.csv" "$SRC/tests/reference/gplrf_table1_usps.csv" \
  --md >"$WORK/u.md"
expect_in "$WORK/u.md" "| method | 10 | 20 | 30 | 40 | 50 |"
[ "$(grep -c '^| \(No transformation\|PCA\|LDA\) | .* / .* (.[0-9]*\.[0-9]) |' "$WORK/u.md")" = 3 ] \
  || { cat "$WORK/u.md"; fail "expected the three rows, each with ours / paper (gap)"; }
