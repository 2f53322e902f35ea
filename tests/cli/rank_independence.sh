#!/usr/bin/env bash
# The same config run on 1 and on 3 ranks gives identical task tables and embeddings.
. "$(dirname "$0")/../support/cli_lib.sh"
"${MPIRUN[@]}" -np 1 "$DRBENCH" run "$SRC/tests/configs/small.yaml" --output "$WORK/np1.h5" --quiet --no-table
"${MPIRUN[@]}" -np 3 "$DRBENCH" run "$SRC/tests/configs/small.yaml" --output "$WORK/np3.h5" --quiet --no-table
same_task_tables "$WORK/np1.h5" "$WORK/np3.h5"
