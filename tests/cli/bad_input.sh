#!/usr/bin/env bash
# Bad input is refused before anything runs, with file, line and key, and no results file appears.
. "$(dirname "$0")/../support/cli_lib.sh"
CFG="$SRC/tests/configs/small.yaml"
check_refused() {  # check_refused NAME EXPECTED_TEXT: config in $WORK/NAME.yaml
  expect_fail "$1" "${MPIRUN[@]}" -np 2 "$DRBENCH" run "$WORK/$1.yaml" --output "$WORK/$1.h5" --quiet
  expect_in "$WORK/err" "$2"
  [ ! -e "$WORK/$1.h5" ] && [ ! -e "$WORK/$1.h5.journal" ] || fail "$1: a results file was written"
}
printf 'name: x\nmethods: [\n' >"$WORK/malformed.yaml"
check_refused malformed "malformed.yaml:"
sed 's/method: pca/method: pcaa/' "$CFG" >"$WORK/unknown_method.yaml"
check_refused unknown_method "pcaa"
sed 's/repeats: 4/repeats: four/' "$CFG" >"$WORK/wrong_type.yaml"
check_refused wrong_type "repeats"
sed 's/knn: \[1, 3\]/knn: [1, 3]\n  kn: [1]/' "$CFG" >"$WORK/unknown_key.yaml"
check_refused unknown_key "kn"
# LDA on 3 classes allows at most 2 dimensions.
sed 's/dims: \[2\]$/dims: [5]/' "$CFG" >"$WORK/lda_dims.yaml"
check_refused lda_dims "lda"
# Data with a NaN.
printf '1,2,0\n3,nan,1\n5,6,0\n7,8,1\n' >"$WORK/nan.csv"
cat >"$WORK/nan_data.yaml" <<YAML
name: nan
datasets: [{name: bad, source: csv, path: $WORK/nan.csv}]
splits: {train_ratio: [0.5]}
methods: [{method: identity, dims: [1]}]
YAML
check_refused nan_data "NaN"
# A file that is not there.
sed 's/source: bundled/source: file\n    path: no_such_file.h5/' "$CFG" >"$WORK/missing.yaml"
check_refused missing "no_such_file.h5"
expect_fail "missing config" "$DRBENCH" run "$WORK/none.yaml"
expect_in "$WORK/err" "none.yaml"
echo "bad input ok"
