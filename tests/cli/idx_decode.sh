#!/usr/bin/env bash
# The IDX reader against numpy's own big-endian encoding: files of every element type (plain and
# .gz) and an MNIST-style folder (train + t10k) written by numpy and gzip, read by drbench through
# `source: idx`, and every point the identity baseline keeps compared bit for bit with what numpy
# wrote. Then the memory model's load transient: a CSV read in full for a max_points far below its
# size is reported as the load, and a limit the tasks fit but the load does not is refused at the
# dataset; the same points as IDX, whose reader decodes only the kept images, have none.
. "$(dirname "$0")/../support/cli_lib.sh"
"$PY" -c "import numpy" 2>/dev/null || { echo "SKIP: numpy not installed"; exit 0; }
"$PY" - "$WORK" <<'PY'
import gzip, os, sys
import numpy as np
work = sys.argv[1]
rng = np.random.default_rng(26)
codes = {"u1": 0x08, "i1": 0x09, ">i2": 0x0B, ">i4": 0x0C, ">f4": 0x0D, ">f8": 0x0E}

def images(n, dtype):
    if dtype in ("u1",):
        return rng.integers(0, 256, size=(n, 3, 4))
    if dtype == "i1":
        return rng.integers(-128, 128, size=(n, 3, 4))
    if dtype == ">i2":
        return rng.integers(-32768, 32768, size=(n, 3, 4))
    if dtype == ">i4":
        return rng.integers(-2**31, 2**31, size=(n, 3, 4))
    return rng.normal(0, 1e3, size=(n, 3, 4)).astype(dtype)

def save(stem, n, dtype, gz):
    x = images(n, dtype).astype(dtype)
    y = (np.arange(n) % 4).astype("u1")
    for name, a, t in ((stem + "-images-idx3-ubyte", x, dtype), (stem + "-labels-idx1-ubyte", y, "u1")):
        head = bytes([0, 0, codes[t], a.ndim]) + b"".join(int(s).to_bytes(4, "big") for s in a.shape)
        path = os.path.join(work, name + (".gz" if gz else ""))
        with (gzip.open(path, "wb") if gz else open(path, "wb")) as f:
            f.write(head + a.astype(t).tobytes())
    np.save(os.path.join(work, os.path.basename(stem) + ".npy"), x.reshape(n, -1).astype(np.float64))

os.makedirs(os.path.join(work, "fm"))
save("fm/train", 40, "u1", True)
save("fm/t10k", 12, "u1", True)
for i, t in enumerate(codes):
    save("t%d" % i, 24, t, i % 2 == 1)
# Many small images, for the load transient below, as IDX and as CSV (which is read in full).
os.makedirs(os.path.join(work, "big"))
rows = []
for stem, n in (("train", 3000), ("t10k", 1000)):
    x = rng.integers(0, 256, size=(n, 10, 10)).astype("u1")
    y = (np.arange(n) % 4).astype("u1")
    rows.append(np.hstack([x.reshape(n, -1), y[:, None]]))
    for name, a in ((stem + "-images-idx3-ubyte", x), (stem + "-labels-idx1-ubyte", y)):
        with open(os.path.join(work, "big", name), "wb") as f:
            f.write(bytes([0, 0, 8, a.ndim]) + b"".join(int(s).to_bytes(4, "big") for s in a.shape))
            f.write(a.tobytes())
np.savetxt(os.path.join(work, "big.csv"), np.vstack(rows), fmt="%d", delimiter=",",
           header=",".join(["p%d" % i for i in range(100)] + ["label"]), comments="")
PY
{
  echo "name: idx_decode"
  echo "seed: 3"
  echo "datasets:"
  echo "  - {name: fm, source: idx, path: $WORK/fm}"
  for i in 0 1 2 3 4 5; do
    gz=""; [ $((i % 2)) = 1 ] && gz=".gz"
    echo "  - {name: t$i, source: idx, path: $WORK/t$i-images-idx3-ubyte$gz}"
  done
  echo "splits: {train_ratio: [0.5]}"
  echo "methods: [{method: identity, dims: [12]}]"
  echo "output: {path: $WORK/d.h5, keep_embeddings: true}"
} >"$WORK/d.yaml"
"$DRBENCH" run "$WORK/d.yaml" --quiet --no-table
"$PY" - "$WORK" <<'PY'
import os, sys
import h5py, numpy as np
work = sys.argv[1]
f = h5py.File(os.path.join(work, "d.h5"), "r")
names = [n.decode() if isinstance(n, bytes) else n for n in f["tasks/dataset"][()]]
for t, name in zip(f["tasks/id"][()], names):
    # The folder is train then t10k, one column per image, pixels row by row.
    want = (np.vstack([np.load(os.path.join(work, "train.npy")), np.load(os.path.join(work, "t10k.npy"))])
            if name == "fm" else np.load(os.path.join(work, name + ".npy")))
    e = f["embeddings/%d" % t]
    got = np.full_like(want, np.nan)
    for part in ("train", "test"):
        got[e[part + "_index"][()]] = e[part][()]
        assert np.array_equal(e[part + "_label"][()], e[part + "_index"][()] % 4 if name != "fm" else
                              np.concatenate([np.arange(40) % 4, np.arange(12) % 4])[e[part + "_index"][()]]), name
    assert np.array_equal(got, want), name
print("idx decode: %d datasets bit-identical to numpy" % len(names))
PY
# The load transient: 4000 points of 100 features read from CSV (3.1 MiB), 20 kept, PCA on 10 of
# them. The load outweighs every task, and a limit below it is refused at the dataset.
BIG=("datasets=[{name: big, source: csv, path: $WORK/big.csv, max_points: 20}]"
     "methods=[{method: pca, dims: [2]}]")
"$DRBENCH" validate "$WORK/d.yaml" "${BIG[@]}" >"$WORK/v"
expect_in "$WORK/v" "while loading (dataset big: 4000 points read in 100-D, 20 kept), above the largest task's"
need=$(sed -n 's/^peak memory per rank: about \([0-9.]*\) MiB while loading.*/\1/p' "$WORK/v")
[ -n "$need" ] || fail "no load peak in MiB in $WORK/v"
expect_fail "load above the limit" "$DRBENCH" validate "$WORK/d.yaml" "${BIG[@]}" \
  --memory-per-rank "$(awk -v m="$need" 'BEGIN { printf "%dK", (m - 1) * 1024 }')"
expect_in "$WORK/err" "'datasets[0]': loading dataset big: 4000 points read in 100-D, 20 kept, needs about"
expect_in "$WORK/err" "a lower max_points does not lower the load"
"$DRBENCH" validate "$WORK/d.yaml" "${BIG[@]}" \
  --memory-per-rank "$(awk -v m="$need" 'BEGIN { printf "%dK", (m + 1) * 1024 }')" >/dev/null
# The same points as IDX: only the 20 kept images are decoded, so loading holds no more than them.
"$DRBENCH" validate "$WORK/d.yaml" "datasets=[{name: big, source: idx, path: $WORK/big, max_points: 20}]" \
  "methods=[{method: pca, dims: [2]}]" >"$WORK/v"
if grep -q "while loading" "$WORK/v"; then cat "$WORK/v"; fail "IDX with max_points: a load transient"; fi
echo "idx_decode ok"
