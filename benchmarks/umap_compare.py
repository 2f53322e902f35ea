#!/usr/bin/python3
"""drbench's umap beside umap-learn (Debian's umap-learn 0.5.3) and, where installed, uwot
(r-cran-uwot), on the same Fashion-MNIST points, in the same run (the machine is shared, so only
same-run comparisons mean anything).

Data: the first N training images of Fashion-MNIST (/usr/share/datasets/fashion-mnist), min-max
scaled per pixel, PCA to 50-D (scikit-learn, full SVD), written once and read by every tool.
Each tool fits 2-D with 15 neighbours, min_dist 0.1 and the same epochs on one thread
(NUMBA_NUM_THREADS=1, OPENBLAS_NUM_THREADS=1; umap-learn gets a random_state, which also keeps it
on one thread). umap-learn compiles with numba on first use: it fits a 5,000-point warm-up first
(above umap-learn's 4,096-point brute-force threshold, so the same code paths compile) and the
full fit is timed alone. Peak memory is /usr/bin/time -v's maximum resident set of each process
(umap-learn's includes the warm-up and numba itself).

Scores, computed here the same way for every embedding: leave-one-out 1-NN error over all N
points, and sklearn.manifold.trustworthiness (5 neighbours) against the 50-D input on a fixed
sample of 5,000 points.

  build:  cmake -S . -B build -DDRBENCH_BENCHMARKS=ON && cmake --build build --target bench_umap
  run:    /usr/bin/python3 benchmarks/umap_compare.py --n 20000 --epochs 200 --test 10000 \
              --also pacmap,trimap
  uwot runs where R and r-cran-uwot are installed, and is skipped otherwise; with --also
  pacmap,trimap the authors' packages run beside drbench's where drbench.references imports them
  (scripts/get_references.sh; DRBENCH_REFERENCES names their folder).
"""
import argparse
import gzip
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FMNIST = "/usr/share/datasets/fashion-mnist"


def read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def prepare(n, out, n_test=0, out_test=None):
    """The first n training images (and the first n_test test images, scaled and projected with
    the training points' min-max and PCA), written for every tool."""
    from sklearn.decomposition import PCA
    X = read_idx(os.path.join(FMNIST, "train-images-idx3-ubyte.gz"))[:n].reshape(n, -1)
    y = read_idx(os.path.join(FMNIST, "train-labels-idx1-ubyte.gz"))[:n].astype(np.int64)
    X = X.astype(np.float64)
    lo, hi = X.min(0), X.max(0)
    scale = lambda A: (A - lo) / np.where(hi > lo, hi - lo, 1.0)
    pca = PCA(50, svd_solver="full").fit(scale(X))
    Z = pca.transform(scale(X))
    write_bin(out, Z)
    if not n_test:
        return Z, y, None, None
    Xt = read_idx(os.path.join(FMNIST, "t10k-images-idx3-ubyte.gz"))[:n_test].reshape(n_test, -1)
    yt = read_idx(os.path.join(FMNIST, "t10k-labels-idx1-ubyte.gz"))[:n_test].astype(np.int64)
    Zt = pca.transform(scale(Xt.astype(np.float64)))
    write_bin(out_test, Zt)
    return Z, y, Zt, yt


def write_bin(path, Z):
    with open(path, "wb") as f:
        f.write(struct.pack("<QQ", Z.shape[0], Z.shape[1]))
        f.write(np.ascontiguousarray(Z, dtype="<f8").tobytes())


def read_bin(path):
    with open(path, "rb") as f:
        n, d = struct.unpack("<QQ", f.read(16))
        return np.frombuffer(f.read(), dtype="<f8").reshape(n, d)


def timed(cmd, env):
    """Runs cmd under /usr/bin/time -v; returns (stdout, wall seconds, peak RSS in MiB)."""
    t0 = time.time()
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd, env=env, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"failed: {' '.join(cmd)}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1))
    return p.stdout, wall, rss / 1024.0


UMAP_LEARN = r"""
import sys, time, struct, json
import numpy as np
import umap
src, dst, epochs = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(src, "rb") as f:
    n, d = struct.unpack("<QQ", f.read(16))
    Z = np.frombuffer(f.read(), dtype="<f8").reshape(n, d)
warm = umap.UMAP(n_neighbors=15, min_dist=0.1, n_epochs=epochs, random_state=0)
warm.fit(Z[:5000])
t0, c0 = time.time(), time.process_time()
model = umap.UMAP(n_neighbors=15, min_dist=0.1, n_epochs=epochs, random_state=1)
E = model.fit_transform(Z)
secs, cpu = time.time() - t0, time.process_time() - c0
with open(dst, "wb") as f:
    f.write(struct.pack("<QQ", E.shape[0], E.shape[1]))
    f.write(np.ascontiguousarray(E, dtype="<f8").tobytes())
print("fit_seconds", secs)
print("fit_cpu_seconds", cpu)
if len(sys.argv) > 4:
    with open(sys.argv[4], "rb") as f:
        n, d = struct.unpack("<QQ", f.read(16))
        Zt = np.frombuffer(f.read(), dtype="<f8").reshape(n, d)
    t0, c0 = time.time(), time.process_time()
    Et = model.transform(Zt)
    print("transform_seconds", time.time() - t0)
    print("transform_cpu_seconds", time.process_time() - c0)
    with open(dst + ".test", "wb") as f:
        f.write(struct.pack("<QQ", Et.shape[0], Et.shape[1]))
        f.write(np.ascontiguousarray(Et, dtype="<f8").tobytes())
"""

UWOT = r"""
args <- commandArgs(TRUE)
con <- file(args[1], "rb"); n <- readBin(con, "integer", 2, size = 8); d <- n[2]; n <- n[1]
Z <- matrix(readBin(con, "double", n * d), nrow = n, byrow = TRUE); close(con)
set.seed(1)  # uwot 0.1.14 has no seed argument
t0 <- proc.time()
E <- uwot::umap(Z, n_neighbors = 15, min_dist = 0.1, n_epochs = as.integer(args[3]),
                n_threads = 1, n_sgd_threads = 1)
t1 <- proc.time()
secs <- t1[["elapsed"]] - t0[["elapsed"]]
cpu <- (t1[["user.self"]] + t1[["sys.self"]]) - (t0[["user.self"]] + t0[["sys.self"]])
con <- file(args[2], "wb"); writeBin(as.integer(c(nrow(E), ncol(E))), con, size = 8)
writeBin(as.vector(t(E)), con); close(con)
cat("fit_seconds", secs, "\nfit_cpu_seconds", cpu, "\n")
"""


# The authors' PaCMAP and TriMap at drbench's defaults (pacmap: 10 neighbours, MN ratio 0.5, FP
# ratio 2, 450 iterations, PCA start; trimap: 12 inliers, 4 outliers, 3 random, lr 0.1, 400
# iterations), imported as drbench.references does (scripts/get_references.sh's folder, exact
# kNN in place of faiss/annoy, which Debian lacks), one thread; numba compiles in a 2,000-point
# warm-up fit first, which is not timed.
PACKAGE = r"""
import sys, time, struct
import numpy as np
sys.path.insert(0, sys.argv[4])
from drbench import references as R
R._add_search_path()
name, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
with open(src, "rb") as f:
    n, d = struct.unpack("<QQ", f.read(16))
    Z = np.frombuffer(f.read(), dtype="<f8").reshape(n, d).astype(np.float32)
def fit(X, seed):
    if name == "pacmap":
        pacmap = R._import_without("pacmap", "faiss")
        est = pacmap.PaCMAP(n_components=2, n_neighbors=10, MN_ratio=0.5, FP_ratio=2.0,
                            num_iters=450, random_state=seed, apply_pca=True)
        return est.fit_transform(X, init="pca")
    trimap = R._import_without("trimap", "annoy")
    np.random.seed(seed)
    R._seed_numba(seed)
    est = trimap.TRIMAP(n_dims=2, n_inliers=12, n_outliers=4, n_random=3, lr=0.1, n_iters=400,
                        verbose=False)
    return est.fit_transform(X)
fit(Z[:2000], 0)
t0, c0 = time.time(), time.process_time()
E = fit(Z, 1)
secs, cpu = time.time() - t0, time.process_time() - c0
with open(dst, "wb") as f:
    f.write(struct.pack("<QQ", E.shape[0], E.shape[1]))
    f.write(np.ascontiguousarray(E, dtype="<f8").tobytes())
mod = sys.modules["pacmap" if name == "pacmap" else "trimap"]
print("version", R._version(mod))
print("fit_seconds", secs)
print("fit_cpu_seconds", cpu)
"""


def package_available(name):
    """Whether drbench.references can import the authors' package (and its version)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from drbench import references as R; "
            "R._add_search_path(); m = R._import_without(sys.argv[2], "
            "{'pacmap': 'faiss', 'trimap': 'annoy'}[sys.argv[2]]); print(R._version(m))")
    p = subprocess.run(["/usr/bin/python3", "-c", code, os.path.join(ROOT, "python"), name],
                       capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None


def loo_1nn_error(E, y):
    from sklearn.neighbors import NearestNeighbors
    nn = NearestNeighbors(n_neighbors=2).fit(E)
    _, idx = nn.kneighbors(E)
    # Column 0 is the point itself unless a duplicate sits at distance 0 too.
    other = np.where(idx[:, 0] == np.arange(len(E)), idx[:, 1], idx[:, 0])
    return float(np.mean(y[other] != y))


def scores(Z, E, y, sample):
    from sklearn.manifold import trustworthiness
    return {"1nn_error_pct": 100 * loo_1nn_error(E, y),
            "trustworthiness": float(trustworthiness(Z[sample], E[sample], n_neighbors=5))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--epochs", type=int, default=200)
    ap.add_argument("--graph", default="auto,exact",
                    help="drbench's neighbour_graph settings, one fit each (comma list)")
    ap.add_argument("--test", type=int, default=0,
                    help="also map this many Fashion-MNIST test images with each UMAP's transform "
                         "and score their 1-NN error against the training embedding")
    ap.add_argument("--also", default="",
                    help="other drbench methods to fit and score on the same data at their "
                         "defaults (comma list, e.g. pacmap,trimap; exact graph)")
    ap.add_argument("--skip", default="", help="comma list of tools to leave out")
    ap.add_argument("--json", default="", help="write the numbers here too")
    args = ap.parse_args()
    # -DDRBENCH_BENCHMARKS=ON builds it under build/benchmarks/.
    bench = next((p for p in (os.path.join(ROOT, "build", "benchmarks", "bench_umap"),
                              os.path.join(ROOT, "build", "bench_umap")) if os.path.exists(p)), None)
    skip = set(args.skip.split(",")) if args.skip else set()
    if bench is None and "drbench" not in skip:
        raise SystemExit("bench_umap is missing: cmake -S . -B build -DDRBENCH_BENCHMARKS=ON && "
                         "cmake --build build --target bench_umap")
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               MKL_NUM_THREADS="1")
    tmp = tempfile.mkdtemp(prefix="umap_compare_")
    src = os.path.join(tmp, "fmnist.bin")
    tsrc = os.path.join(tmp, "fmnist_test.bin")
    Z, y, Zt, yt = prepare(args.n, src, args.test, tsrc)
    sample = np.random.default_rng(0).choice(args.n, size=min(5000, args.n), replace=False)
    rows = {}
    cmds = {}
    for graph in filter(None, args.graph.split(",")):
        cmds[f"drbench ({graph} graph)"] = [
            bench, src, os.path.join(tmp, f"drbench ({graph} graph).bin"), "method=umap",
            "threads=1", f"iterations={args.epochs}", "neighbours=15", "min_dist=0.1",
            f"neighbour_graph={graph}"] + ([f"test={tsrc}"] if args.test else [])
    for m in filter(None, args.also.split(",")):
        cmds[f"drbench {m}"] = [bench, src, os.path.join(tmp, f"drbench {m}.bin"), f"method={m}",
                                "threads=1", "neighbour_graph=exact"]
    for m in filter(None, args.also.split(",")):
        if m not in ("pacmap", "trimap"):
            continue
        version = package_available(m)
        if version is None:
            print(f"{m} package: not importable (scripts/get_references.sh), skipped")
            continue
        cmds[f"{m} {version} (package)"] = [
            "/usr/bin/python3", "-c", PACKAGE, m, src,
            os.path.join(tmp, f"{m} {version} (package).bin"), os.path.join(ROOT, "python")]
    cmds["umap-learn"] = ["/usr/bin/python3", "-c", UMAP_LEARN, src,
                          os.path.join(tmp, "umap-learn.bin"), str(args.epochs)] + (
                              [tsrc] if args.test else [])
    if shutil.which("Rscript") and subprocess.run(
            ["Rscript", "-e", "library(uwot)"], capture_output=True).returncode == 0:
        cmds["uwot"] = ["Rscript", "-e", UWOT, src, os.path.join(tmp, "uwot.bin"),
                        str(args.epochs)]
    else:
        print("uwot: not installed (apt-get install r-cran-uwot), skipped")
    for name, cmd in cmds.items():
        if name.split(" ")[0] in skip:
            continue
        out, wall, rss = timed(cmd, env)
        fit = float(re.search(r"fit_seconds\s+([0-9.eE+-]+)", out).group(1))
        cpu = float(re.search(r"fit_cpu_seconds\s+([0-9.eE+-]+)", out).group(1))
        E = read_bin(os.path.join(tmp, name + ".bin"))
        extra = {}
        if args.test and os.path.exists(os.path.join(tmp, name + ".bin.test")):
            from sklearn.neighbors import KNeighborsClassifier
            Et = read_bin(os.path.join(tmp, name + ".bin.test"))
            pred = KNeighborsClassifier(1).fit(E, y).predict(Et)
            extra = dict(test_1nn_error_pct=100 * float(np.mean(pred != yt)),
                         transform_cpu_seconds=float(re.search(
                             r"transform_cpu_seconds\s+([0-9.eE+-]+)", out).group(1)))
        rows[name] = dict(**extra, fit_seconds=fit, fit_cpu_seconds=cpu, process_seconds=wall, peak_rss_mib=rss,
                          **scores(Z, E, y, sample))
        print(name, json.dumps(rows[name]), flush=True)
        if name.startswith("drbench"):
            print("  " + " ".join(l for l in out.splitlines() if l.startswith("note")))
    base = scores(Z, Z, y, sample)
    print(f"\nFashion-MNIST first {args.n} training images, minmax + PCA 50, 2-D, 15 neighbours, "
          f"min_dist 0.1, {args.epochs} epochs, one thread")
    print(f"50-D input: 1-NN error {base['1nn_error_pct']:.2f} %\n")
    print("| tool | fit wall s | fit CPU s | process wall s | peak RSS MiB | 1-NN error % | "
          "trustworthiness |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, r in rows.items():
        print(f"| {name} | {r['fit_seconds']:.1f} | {r['fit_cpu_seconds']:.1f} | "
              f"{r['process_seconds']:.1f} | "
              f"{r['peak_rss_mib']:.0f} | {r['1nn_error_pct']:.2f} | {r['trustworthiness']:.4f} |")
    if args.test:
        print(f"\nTransform of the first {args.test} test images: 1-NN error against the training "
              "embedding")
        print("| tool | transform CPU s | test 1-NN error % |")
        print("|---|---:|---:|")
        for name, r in rows.items():
            if "test_1nn_error_pct" in r:
                print(f"| {name} | {r['transform_cpu_seconds']:.1f} | "
                      f"{r['test_1nn_error_pct']:.2f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"n": args.n, "epochs": args.epochs, "rows": rows, "input": base}, f,
                      indent=1)
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
