#!/usr/bin/env bash
# Several nodes on one machine (tests/support/netns_nodes.sh): Open MPI across two network
# namespaces of two ranks each, each node in its own memory cgroup. Checks what differs across
# nodes: the per-node memory split (MPI's shared-memory split gives 2 ranks per node, the tighter
# node's cgroup limit decides one rank's share), a dataset file read by ranks on every node, tasks
# placed by memory on both nodes (two tasks each needing 60 % of a node's stated budget, beside 202
# small ones: refused where every task must fit one rank's share, run here, same table as one
# rank), and a node lost mid-run (every process of node 2 killed): the job ends with mpirun's
# message naming the lost node and drbench's own, the results file and journal stay readable, and
# the same command resumes to the same table as one rank. Skipped, with the reason, where the
# kernel or the user cannot make namespaces.
. "$(dirname "$0")/../support/cli_lib.sh"
. "$SRC/tests/support/netns_nodes.sh"
trap 'netns_nodes_down; rm -rf "$WORK"' EXIT
# Node 1 600 MiB, node 2 400 MiB: one rank's share is 400 MiB / 2 ranks.
if ! netns_nodes_up 2 600 400; then
  echo "SKIP: $NETNS_SKIP"
  exit 0
fi
[ -n "${NODE_CGROUPS[1]}" ] || echo "note: no memory cgroups here; the per-node limit is not checked"
MPI=("${MPIRUN[@]}" "${MPI_NODES[@]}" -np 4 --timeout 100)

# A dataset file every node reads: 600 points, 3 classes, 12-D.
mkdir -p "$WORK/data"
"$PY" - "$WORK/data/blobs.csv" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(3)
y = np.repeat(np.arange(3), 200)
X = rng.normal(size=(600, 12)) + 3.0 * y[:, None] * (np.arange(12) % 3 == y[:, None])
with open(sys.argv[1], "w") as f:
    f.write(",".join(f"x{i}" for i in range(12)) + ",label\n")
    for row, label in zip(X, y):
        f.write(",".join(f"{v:.6f}" for v in row) + f",{label}\n")
PY
cat >"$WORK/sweep.yaml" <<YAML
name: nodes
seed: 5
data_path: $WORK/data
datasets: [{name: blobs, source: csv, path: blobs.csv, preprocess: [standardize]}]
splits: {train_ratio: [0.3, 0.5], repeats: 25}
methods:
  - {method: pca, label: PCA, dims: [1, 2]}
  - {method: lpp, label: LPP, dims: [2], grid: {neighbours: [5, 10]}}
  - {method: kpca, label: KPCA, dims: [2]}
evaluation: {knn: [1, 3], selection: min_mean_error}
output: {path: $WORK/unused.h5}
YAML

# 1. Per-node memory split and a dataset read on every node.
"$DRBENCH" run "$WORK/sweep.yaml" --output "$WORK/one.h5" --quiet --no-table
"${MPI[@]}" "$DRBENCH" run "$WORK/sweep.yaml" --output "$WORK/four.h5" --no-table 2>"$WORK/four.err" ||
  { cat "$WORK/four.err"; fail "the run across two nodes failed"; }
expect_in "$WORK/four.err" "4 rank(s)"
if [ -n "${NODE_CGROUPS[1]}" ]; then
  expect_in "$WORK/four.err" "limit 200 MiB (the least over the nodes of each node's memory / the ranks on it"
fi
same_task_tables "$WORK/one.h5" "$WORK/four.h5"
"$PY" - "$WORK/four.h5" <<'PY'
import sys, h5py, numpy as np
ranks = h5py.File(sys.argv[1], "r")["tasks/rank"][()]
# Ranks 0-1 are node 1, 2-3 node 2 (the hostfile's slots in order): both nodes read the file.
per = np.bincount(ranks, minlength=4)
assert per[:2].sum() > 0 and per[2:].sum() > 0, per
print("tasks per rank:", per.tolist())
PY

# 2. Tasks placed by memory: 202 small tasks and two KPCA fits on 1001 of 2000 points that need
# 54 MiB (19.3 MiB beyond the 34.7 MiB every rank holds), 60 % of a node stated at 90 MiB, above
# one rank's 45 MiB.
cp "$SRC/tests/configs/placement.yaml" "$WORK/big.yaml"
"$DRBENCH" run "$WORK/big.yaml" --output "$WORK/big1.h5" --quiet --no-table
# Where every task must fit one rank's share it is refused, as every run was before placement.
expect_fail "per-rank limit" "$DRBENCH" validate "$WORK/big.yaml" --memory-per-rank 45M
expect_in "$WORK/err" "'methods[1]'"
"$DRBENCH" validate "$WORK/big.yaml" --node-memory 90M --ranks-per-node 2 >"$WORK/validate.out"
expect_in "$WORK/validate.out" "placed by memory: 2 task(s) above one rank's share"
expect_in "$WORK/validate.out" "1 rank(s) held back"
"${MPI[@]}" "$DRBENCH" run "$WORK/big.yaml" --node-memory 90M --output "$WORK/big4.h5" --no-table \
  2>"$WORK/big4.err" || { cat "$WORK/big4.err"; fail "the placed run failed"; }
expect_in "$WORK/big4.err" "placed by memory: 2 task(s) above one rank's share run first"
expect_in "$WORK/big4.err" "on 2 node(s)"
same_task_tables "$WORK/big1.h5" "$WORK/big4.h5"
"$PY" - "$WORK/big4.h5" <<'PY'
import sys, h5py
t = h5py.File(sys.argv[1], "r")["tasks"]
keys = [k.decode() for k in t["key"][()]]
threads, ranks = t["threads"][()], t["rank"][()]
big = [i for i, k in enumerate(keys) if k.startswith("blobs|") and "|KPCA|" in k]
assert len(big) == 2, big
# Each ran with the held rank's core lent: 2 threads, recorded; every other task 1.
assert all(threads[i] == 2 for i in big), threads[big]
assert sum(threads) == len(keys) + 2, sum(threads)
print("placed tasks ran on ranks", [int(ranks[i]) for i in big], "with", [int(threads[i]) for i in big], "threads")
PY

# 3. A node lost mid-run: once results are being committed, every process of node 2 (its daemon
# and both ranks) is frozen and then killed.
"${MPI[@]}" "$DRBENCH" run "$WORK/sweep.yaml" --output "$WORK/lost.h5" --no-table \
  >"$WORK/lost.out" 2>"$WORK/lost.err" &
job=$!
for _ in $(seq 400); do
  [ -s "$WORK/lost.h5.journal" ] && break
  sleep 0.05
done
[ -s "$WORK/lost.h5.journal" ] || fail "no result was committed before the node was to be lost"
# Frozen first, so the tasks its ranks hold stay unfinished however fast node 1 goes on; then
# lost.
for p in $(node_pids 1); do kill -STOP "$p" 2>/dev/null || true; done
sleep 1
for p in $(node_pids 1); do kill -9 "$p" 2>/dev/null || true; done
rc=0
wait "$job" || rc=$?
cat "$WORK/lost.err" >&2
[ "$rc" -ne 0 ] || fail "the job went on as if nothing was lost"
expect_in "$WORK/lost.err" "${NODE_IPS[1]}"
# What was committed is intact: the snapshot where rank 0 lived to write it, else the journal,
# which every reader names with the fix; either way fewer than all 250 tasks.
if "$DRBENCH" info "$WORK/lost.h5" >"$WORK/info.out" 2>&1; then
  grep -E "^  tasks " "$WORK/info.out"
  grep -qE "^  tasks +[0-9]+ of 250 have a result" "$WORK/info.out" &&
    ! grep -qE "^  tasks +250 of 250" "$WORK/info.out" || fail "the node was not lost mid-run"
else
  cat "$WORK/info.out"
  expect_in "$WORK/info.out" "the run was interrupted before it wrote this file; its journal"
  expect_in "$WORK/info.out" "rerun the same \`drbench run\` command"
fi
"${MPI[@]}" "$DRBENCH" run "$WORK/sweep.yaml" --output "$WORK/lost.h5" --no-table \
  2>"$WORK/resume.err" || { cat "$WORK/resume.err"; fail "the resume failed"; }
grep -E "already done" "$WORK/resume.err"
same_task_tables "$WORK/one.h5" "$WORK/lost.h5"
echo "nodes: per-node split, placement and a lost node checked"
