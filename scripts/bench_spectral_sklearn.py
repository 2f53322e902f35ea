#!/usr/bin/python3
"""Sparse spectral methods, drbench against scikit-learn, side by side in one run on the same input.

Fashion-MNIST from Debian's dataset-fashion-mnist (train + test = 70,000 images, pixels / 255),
the first N images in file order, PCA to 50 dimensions (computed once here and handed to both
sides), 2-D embeddings, 10 neighbours, one thread everywhere. Each fit runs in its own process
under /usr/bin/time -v (wall time, CPU time, peak resident memory), the sides alternating per
method. drbench: laplacian_eigenmaps (heat weights on the kNN graph), lle (reg 1e-3), isomap with
`landmarks` (--landmarks, 0 = full), through build/benchmarks/bench_spectral, which also prints
the method's own memory estimate (MethodInfo::memory). scikit-learn: SpectralEmbedding
(affinity='nearest_neighbors', a 0/0.5/1 kNN connectivity graph) and LocallyLinearEmbedding, both
eigen_solver='arpack' (shift-invert through SuperLU, as drbench's LLE); Isomap has no landmark
variant there.

    apt-get install -y dataset-fashion-mnist
    bash scripts/build.sh -DDRBENCH_BENCHMARKS=ON
    /usr/bin/python3 scripts/bench_spectral_sklearn.py --sizes 20000
    /usr/bin/python3 scripts/bench_spectral_sklearn.py --sizes 60000 --only drbench \\
        --methods laplacian_eigenmaps lle isomap --landmarks 1000

The machine this ran on was shared with other jobs: compare rows of one run only, and prefer the
CPU seconds to the wall seconds.
"""
import argparse
import json
import os
import sys
import tempfile

# First: it makes every BLAS one-threaded before numpy loads.
from bench_common import CHILD_PRELUDE, run_json, write_matrix  # noqa: E402

# The same Fashion-MNIST PCA-50 matrix as the t-SNE benchmark.
from bench_tsne_sklearn import fashion_pca50  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "build", "benchmarks", "bench_spectral")

SKLEARN_CHILD = CHILD_PRELUDE + r"""
from sklearn.manifold import LocallyLinearEmbedding, SpectralEmbedding
method, k = sys.argv[2], int(sys.argv[3])
t0 = time.perf_counter()
c0 = time.process_time()
if method == "laplacian_eigenmaps":
    est = SpectralEmbedding(n_components=2, affinity="nearest_neighbors", n_neighbors=k,
                            eigen_solver="arpack", random_state=0, n_jobs=1)
else:
    est = LocallyLinearEmbedding(n_neighbors=k, n_components=2, reg=1e-3, eigen_solver="arpack",
                                 random_state=0, n_jobs=1)
Y = est.fit_transform(X)
print(json.dumps({"seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0,
                  "finite": bool(np.isfinite(Y).all())}))
"""


def run(cmd):
    return run_json(cmd, memory=True, on_error="return")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[20000])
    ap.add_argument("--methods", nargs="+", default=["laplacian_eigenmaps", "lle"],
                    choices=["laplacian_eigenmaps", "lle", "isomap"])
    ap.add_argument("--neighbours", type=int, default=10)
    ap.add_argument("--landmarks", type=int, default=1000)
    ap.add_argument("--graph", default="auto", choices=["exact", "approximate", "auto"])
    ap.add_argument("--only", choices=["drbench", "sklearn"])
    a = ap.parse_args()
    if a.only != "sklearn" and not os.path.exists(BENCH):
        sys.exit(f"{BENCH} missing (fix: bash scripts/build.sh -DDRBENCH_BENCHMARKS=ON)")
    with tempfile.TemporaryDirectory() as tmp:
        for n in a.sizes:
            path = os.path.join(tmp, f"fmnist_{n}.f64")
            write_matrix(fashion_pca50(n), path)
            for method in a.methods:
                res = {}
                if a.only != "sklearn":
                    extra = [f"landmarks={a.landmarks}"] if method == "isomap" else []
                    res["drbench"] = run([BENCH, path, method, f"neighbours={a.neighbours}",
                                          f"neighbour_graph={a.graph}"] + extra)
                if a.only != "drbench" and method != "isomap":
                    res["sklearn"] = run([sys.executable, "-c", SKLEARN_CHILD, path, method,
                                          str(a.neighbours)])
                for side, r in res.items():
                    if "error" in r:
                        print(f"{side:8s} {method:20s} N={n:6d}  failed: {r['error']}", flush=True)
                        continue
                    est = (f"  estimate {r['estimate_mib']:.0f} MiB"
                           if "estimate_mib" in r else "")
                    print(f"{side:8s} {method:20s} N={n:6d}  {r['seconds']:8.2f} s wall  "
                          f"{r['cpu_seconds']:8.2f} s cpu  peak {r['peak_mib']:.0f} MiB{est}  "
                          f"{json.dumps(r)}", flush=True)


if __name__ == "__main__":
    main()
