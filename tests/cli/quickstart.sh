#!/usr/bin/env bash
# The README's quickstart: two ranks, a table on stdout, a results file that h5py and
# `drbench aggregate` read back.
. "$(dirname "$0")/../support/cli_lib.sh"
"${MPIRUN[@]}" -np 2 "$DRBENCH" run "$SRC/configs/quickstart.yaml" --output "$WORK/q.h5" >"$WORK/table" 2>"$WORK/err"
expect_in "$WORK/table" "PCA"
expect_in "$WORK/table" "±"
# The default memory limit shares the node between the two ranks MPI counts on it.
expect_in "$WORK/err" "memory per rank: about"
expect_in "$WORK/err" "on this node / 2 ranks"
"$DRBENCH" aggregate "$WORK/q.h5" --format csv >"$WORK/agg.csv"
"$DRBENCH" aggregate "$WORK/q.h5" --format tex >"$WORK/agg.tex"
expect_in "$WORK/agg.tex" "tabular"
"$PY" "$SRC/examples/read_results.py" "$WORK/q.h5" >"$WORK/py.txt"
expect_in "$WORK/py.txt" "PCA"
"$DRBENCH" --version >"$WORK/v"
expect_in "$WORK/v" "OpenBLAS"
"$DRBENCH" methods >"$WORK/m"
expect_in "$WORK/m" "lda"
"$DRBENCH" datasets >"$WORK/d"
expect_in "$WORK/d" "swiss_roll"
echo "quickstart ok"
