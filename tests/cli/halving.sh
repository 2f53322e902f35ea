#!/usr/bin/env bash
# selection: {halving: ...}: every setting on the first repeats, the best per cell on the rest;
# the same tasks and results on 1 and 2 ranks, a resumed stop, and a caption that says so.
. "$(dirname "$0")/../support/cli_lib.sh"
{
  iris_sweep halving 5 '{train_ratio: [0.3, 0.6], repeats: 6}'
  echo 'evaluation: {knn: [1], selection: {rule: min_mean_error, halving: {repeats: 2, keep: 2}}}'
} >"$WORK/h.yaml"
"${MPIRUN[@]}" -np 1 "$DRBENCH" run "$WORK/h.yaml" --output "$WORK/a.h5" --no-table 2>"$WORK/err"
expect_in "$WORK/err" "successive halving"
"${MPIRUN[@]}" -np 2 "$DRBENCH" run "$WORK/h.yaml" --output "$WORK/b.h5" --quiet --no-table
"$PY" - "$WORK/a.h5" "$WORK/b.h5" <<'PY'
import sys, collections, h5py, numpy as np
def rows(p):
    t = h5py.File(p)["tasks"]
    key, err = t["key"].asstr()[()], t["knn_error"][()][:, 0]
    return dict(zip(key, err)), t
a, t = rows(sys.argv[1])
b, _ = rows(sys.argv[2])
assert a == b, "1 and 2 ranks ran different tasks or got different errors"
# LDA: 4 settings x 2 repeats + 2 kept x 4 repeats per split; PCA: one setting, all 6 repeats.
assert len(a) == 2 * (4 * 2 + 2 * 4) + 2 * 2 * 6, len(a)
label, setting, split, rep = (t[c].asstr()[()] if t[c].dtype.kind == "O" else t[c][()]
                              for c in ("label", "setting", "split_value", "repeat"))
for s in (0.3, 0.6):
    lda = (label == "LDA") & (split == s)
    first = collections.defaultdict(list)
    for k, st, r in zip(t["key"].asstr()[()][lda], setting[lda], rep[lda]):
        if r < 2: first[st].append(a[k])
    best = sorted(first, key=lambda st: (np.mean(first[st]), st))[:2]
    later = set(setting[lda & (rep >= 2)])
    assert later == set(best), (later, best)
PY
# A finished halving run is finished although most expanded tasks never ran: no journal is left,
# so its tables can be stored.
[ ! -e "$WORK/a.h5.journal" ] || fail "a finished halving run left its journal behind"
"$DRBENCH" aggregate "$WORK/a.h5" >/dev/null
"$DRBENCH" aggregate "$WORK/a.h5" --no-store >"$WORK/table"
expect_in "$WORK/table" "by successive halving (every setting on 2 partitions, the best 2 on all)"
# Stopped in the first stage and resumed: the same file in the end.
DRBENCH_FAULT_TERM_AFTER=5 "$DRBENCH" run "$WORK/h.yaml" --output "$WORK/c.h5" --quiet --no-table \
  && fail "a stopped run exited 0"
"$DRBENCH" run "$WORK/h.yaml" --output "$WORK/c.h5" --quiet --no-table
"$PY" - "$WORK/a.h5" "$WORK/c.h5" <<'PY'
import sys, h5py
k = [dict(zip(h5py.File(p)["tasks/key"].asstr()[()], h5py.File(p)["tasks/knn_error"][()][:, 0]))
     for p in sys.argv[1:]]
assert k[0] == k[1], "resumed halving run differs"
PY
# Two ranks where rank 0's own worker holds the first stage's one slow task: rank 1 finishes the
# stage first and asks for second-stage work while rank 0 is still in the first. That request was
# answered by the first stage (an empty chunk), rank 1 left without work, and rank 0 waited forever.
cat >"$WORK/race.yaml" <<'YAML'
name: race
seed: 3
datasets:
  - {name: blobs, source: generator, generator: gaussian_blobs, params: {n: 600, classes: 3}}
splits: {train_ratio: [0.5], repeats: 3}
methods:
  - {method: sammon, label: Sammon, dims: [2], grid: {tolerance: [0], iterations: [3000]}}
  - {method: pca, label: PCA, dims: [1, 2]}
evaluation: {knn: [1], selection: {rule: min_mean_error, halving: {repeats: 1, keep: 1}}}
YAML
"$DRBENCH" run "$WORK/race.yaml" --output "$WORK/r1.h5" --quiet --no-table
rc=0
timeout 300 "${MPIRUN[@]}" -np 2 "$DRBENCH" run "$WORK/race.yaml" --output "$WORK/r2.h5" --quiet \
  --no-table || rc=$?
[ "$rc" -eq 0 ] || fail "halving on 2 ranks with a slow first-stage task on rank 0: exit $rc (124: hung)"
same_task_tables "$WORK/r1.h5" "$WORK/r2.h5"
# A slice completes its own cells: LDA alone, then PCA, into one file, gives the whole run's tasks
# (the second stage of LDA's cells waits only for their own first stage).
"$DRBENCH" run "$WORK/h.yaml" --output "$WORK/s.h5" --only LDA --quiet --no-table
"$DRBENCH" run "$WORK/h.yaml" --output "$WORK/s.h5" --only PCA --quiet --no-table
same_task_tables "$WORK/a.h5" "$WORK/s.h5"
echo "halving ok"
