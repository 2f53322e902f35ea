#!/usr/bin/python3
"""Where a UMAP fit spends its CPU time, drbench beside umap-learn 0.5.3, phase by phase, on the
same Fashion-MNIST points in the same run (the machine is shared: only same-run numbers compare).

Phases: the neighbour graph (drbench: the shared exact or HNSW graph, `neighbour_graph: auto`;
umap-learn: pynndescent's NN-descent), the fuzzy simplicial set (smooth kNN calibration and the
fuzzy union; in drbench's `cpu_seconds_graph` note together with the graph), the start (the a/b
fit, pruning, the spectral start's sparse eigensolver, scaling) and the SGD layout. Both on one
thread (NUMBA_NUM_THREADS=1, OPENBLAS_NUM_THREADS=1, n_jobs=1), process CPU seconds (std::clock
in bench_umap's notes; time.process_time around each umap-learn function, called as UMAP.fit
calls them, on float32 data as UMAP.fit converts it). umap-learn first runs every phase on 5,000
points so that numba's compilation is not timed.

  build:  cmake -S . -B build -DDRBENCH_BENCHMARKS=ON && cmake --build build --target bench_umap
  run:    /usr/bin/python3 benchmarks/umap_phases.py --n 60000 --epochs 200
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import umap_compare  # noqa: E402  (data preparation and bench_umap's location)

UMAP_LEARN = r"""
import sys, time, struct
import numpy as np
from umap.umap_ import (nearest_neighbors, fuzzy_simplicial_set, simplicial_set_embedding,
                        find_ab_params)
from umap.spectral import spectral_layout
src, epochs = sys.argv[1], int(sys.argv[2])
with open(src, "rb") as f:
    n, d = struct.unpack("<QQ", f.read(16))
    Z = np.frombuffer(f.read(), dtype="<f8").reshape(n, d).astype(np.float32)

def phases(X, seed):
    rs = np.random.RandomState(seed)
    out = {}
    c = time.process_time()
    ki, kd, _ = nearest_neighbors(X, 15, "euclidean", {}, False, rs, low_memory=True,
                                  use_pynndescent=True, n_jobs=1)
    out["graph"] = time.process_time() - c
    c = time.process_time()
    G, _, _ = fuzzy_simplicial_set(X, 15, rs, "euclidean", knn_indices=ki, knn_dists=kd)
    out["fuzzy"] = time.process_time() - c
    c = time.process_time()
    a, b = find_ab_params(1.0, 0.1)
    P = G.tocoo().copy()
    P.data[P.data < P.data.max() / float(epochs)] = 0.0
    P.eliminate_zeros()
    spectral_layout(X, P, 2, rs)
    out["start"] = time.process_time() - c
    c = time.process_time()
    simplicial_set_embedding(X, G, 2, 1.0, a, b, 1.0, 5, epochs, "spectral", rs, "euclidean",
                             {}, False, {}, False)
    # Its own spectral start again, then the layout.
    out["layout"] = time.process_time() - c - out["start"]
    return out

phases(Z[:5000], 0)
for k, v in phases(Z, 1).items():
    print(k, v)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=60000)
    ap.add_argument("--epochs", type=int, default=200)
    args = ap.parse_args()
    bench = next((p for p in (os.path.join(umap_compare.ROOT, "build", "benchmarks", "bench_umap"),
                              os.path.join(umap_compare.ROOT, "build", "bench_umap"))
                  if os.path.exists(p)), None)
    if bench is None:
        raise SystemExit("bench_umap is missing: cmake -S . -B build -DDRBENCH_BENCHMARKS=ON && "
                         "cmake --build build --target bench_umap")
    try:
        import umap  # noqa: F401
        have_umap = True
    except ImportError:
        have_umap = False
        print("umap-learn: not installed (apt-get install umap-learn), skipped")
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    tmp = tempfile.mkdtemp(prefix="umap_phases_")
    src = os.path.join(tmp, "fmnist.bin")
    umap_compare.prepare(args.n, src)
    out = subprocess.run([bench, src, os.path.join(tmp, "out.bin"), "method=umap", "threads=1",
                          f"iterations={args.epochs}", "neighbours=15", "min_dist=0.1"],
                         env=env, capture_output=True, text=True, check=True).stdout
    val = lambda key: float(re.search(key + r"\s+([0-9.eE+-]+)", out).group(1))
    fit, graph, start = val("fit_cpu_seconds"), val("cpu_seconds_graph"), val("cpu_seconds_start")
    kind = re.search(r"note neighbour_graph (\w+)", out).group(1)
    rows = {"drbench": {"graph + fuzzy set": graph, "start": start - graph, "layout": fit - start,
                        "fit": fit}}
    if have_umap:
        u = subprocess.run(["/usr/bin/python3", "-c", UMAP_LEARN, src, str(args.epochs)], env=env,
                           capture_output=True, text=True, check=True).stdout
        ph = {k: float(v) for k, v in (l.split() for l in u.splitlines() if l.strip())}
        rows["umap-learn"] = {"graph + fuzzy set": ph["graph"] + ph["fuzzy"],
                              "start": ph["start"], "layout": ph["layout"],
                              "fit": sum(ph.values()),
                              "of which NN-descent": ph["graph"]}
    shutil.rmtree(tmp)
    print(f"\nFashion-MNIST first {args.n} training images, minmax + PCA 50, 2-D, 15 neighbours, "
          f"{args.epochs} epochs, one thread; CPU seconds (drbench graph: {kind})\n")
    print("| phase | " + " | ".join(rows) + " |")
    print("|---|" + "---:|" * len(rows))
    for phase in ("graph + fuzzy set", "start", "layout", "fit"):
        print(f"| {phase} | " + " | ".join(f"{r[phase]:.2f}" for r in rows.values()) + " |")
    if have_umap:
        print(f"\n(umap-learn's NN-descent alone: {rows['umap-learn']['of which NN-descent']:.2f} s)")


if __name__ == "__main__":
    main()
