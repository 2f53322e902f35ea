#!/usr/bin/env bash
# Tasks placed by memory on one machine, its node budget stated with --node-memory: two KPCA fits
# that need 54 MiB each (19.3 MiB beyond the 34.7 MiB every rank holds), 60 % of a 90 MiB node
# whose two ranks get 45 MiB each, beside 202 small tasks. Refused where every task must fit one
# rank's share; validate and plan say which tasks run placed and what it costs; the 2-rank run
# holds the other rank back while each runs, lends it that rank's core (2 threads, recorded), and
# its table equals the 1-rank run's. A task that fits no node is refused naming the node's room.
. "$(dirname "$0")/../support/cli_lib.sh"
cp "$SRC/tests/configs/placement.yaml" "$WORK/big.yaml"

expect_fail "one rank's share" "$DRBENCH" validate "$WORK/big.yaml" --memory-per-rank 45M
expect_in "$WORK/err" "'methods[1]'"
expect_in "$WORK/err" "KPCA (kpca)"
expect_fail "both limits" "$DRBENCH" validate "$WORK/big.yaml" --memory-per-rank 45M --node-memory 90M
expect_in "$WORK/err" "fix: one of them"
# 60 MiB leave no node room for 19.3 MiB beside two ranks' 34.7 MiB each.
expect_fail "no node" "$DRBENCH" validate "$WORK/big.yaml" --node-memory 60M --ranks-per-node 2
expect_in "$WORK/err" "no node has room for it even with its other ranks held back"

"$DRBENCH" validate "$WORK/big.yaml" --node-memory 90M --ranks-per-node 2 >"$WORK/validate.out"
cat "$WORK/validate.out"
expect_in "$WORK/validate.out" "limit 45 MiB (--node-memory 90M / 2 ranks on the node)"
expect_in "$WORK/validate.out" "placed by memory: 2 task(s) above one rank's share"
expect_in "$WORK/validate.out" "dataset blobs, split ratio=0.5 (1001 points in 10-D), KPCA (kpca)"
expect_in "$WORK/validate.out" "19.3 MiB beyond what every rank holds, 1 rank(s) held back"
# One rank per node: its share is the whole node, nothing is placed.
"$DRBENCH" validate "$WORK/big.yaml" --node-memory 90M >"$WORK/validate1.out"
if grep -q "placed by memory" "$WORK/validate1.out"; then fail "placed with one rank per node"; fi

"$DRBENCH" plan "$WORK/big.yaml" --ranks 2,4 --ranks-per-node 2 --node-memory 90M \
  >"$WORK/plan.out" 2>/dev/null
cat "$WORK/plan.out"
expect_in "$WORK/plan.out" "placed by memory: 2 task(s) first"
expect_in "$WORK/plan.out" "on 1 node(s) of up to 2 ranks"
expect_in "$WORK/plan.out" "on 2 node(s) of up to 2 ranks"
expect_in "$WORK/plan.out" "more wall than if every rank could take them"

"$DRBENCH" run "$WORK/big.yaml" --output "$WORK/one.h5" --quiet --no-table
"${MPIRUN[@]}" -np 2 "$DRBENCH" run "$WORK/big.yaml" --node-memory 90M --output "$WORK/two.h5" \
  --no-table 2>"$WORK/two.err" || { cat "$WORK/two.err"; fail "the placed run failed"; }
expect_in "$WORK/two.err" "placed by memory: 2 task(s) above one rank's share run first"
same_task_tables "$WORK/one.h5" "$WORK/two.h5"
"$PY" - "$WORK/one.h5" "$WORK/two.h5" <<'PY'
import sys, h5py
for f, lent in ((sys.argv[1], 1), (sys.argv[2], 2)):
    t = h5py.File(f, "r")["tasks"]
    keys = [k.decode() for k in t["key"][()]]
    threads = t["threads"][()]
    big = [i for i, k in enumerate(keys) if k.startswith("blobs|") and "|KPCA|" in k]
    assert len(big) == 2 and all(threads[i] == lent for i in big), (f, threads[big])
    assert sum(threads) == len(keys) + 2 * (lent - 1), (f, sum(threads))
print("placed tasks: 2 threads at 2 ranks, 1 at 1 rank; every other task 1")
PY
