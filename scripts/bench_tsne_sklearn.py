#!/usr/bin/python3
"""t-SNE speed, drbench against scikit-learn, side by side in one run on the same input.

Fashion-MNIST from Debian's dataset-fashion-mnist (train + test = 70,000 images, pixels / 255),
the first N images in file order, PCA to 50 dimensions (computed once here and handed to both
sides), 2-D t-SNE, perplexity 30, 1000 iterations, one thread everywhere. scikit-learn runs with
init="pca", learning_rate="auto" (n / 48 on its gradient, the same step as drbench's n / 12 on the
gradient / 4), early exaggeration 12, angle 0.5. Prints one row per (side, method, N) with the
wall and CPU time of the fit (affinities included, data loading not), the final KL divergence and
the ratios drbench / scikit-learn. On a shared machine the CPU-time ratio is the steadier one.

    apt-get install -y dataset-fashion-mnist
    bash scripts/build.sh -DDRBENCH_BENCHMARKS=ON
    /usr/bin/python3 scripts/bench_tsne_sklearn.py [--bh 10000] [--exact 2500] [--only drbench]
        [--memory]   # wrap each run in /usr/bin/time -v and report the peak resident memory

Each side runs in its own process (peak memory is per side); the sides alternate per size.
"""
import argparse
import os
import sys
import tempfile

# First: it makes every BLAS one-threaded before numpy loads.
from bench_common import CHILD_PRELUDE, run_json, write_matrix
from fmnist_idx import FMNIST, read_idx

import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "build", "benchmarks", "bench_tsne")

SKLEARN_CHILD = CHILD_PRELUDE + r"""
from sklearn.manifold import TSNE
method, iters = sys.argv[2], int(sys.argv[3])
t0, c0 = time.perf_counter(), time.process_time()
ts = TSNE(n_components=2, perplexity=30.0, early_exaggeration=12.0, learning_rate="auto",
          n_iter=iters, init="pca", method=method, angle=0.5, n_jobs=1, random_state=0)
ts.fit_transform(X)
print(json.dumps({"seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0,
                  "kl": float(ts.kl_divergence_),
                  "n_iter": int(ts.n_iter_)}))
"""


def fashion_pca50(n):
    if not os.path.isdir(FMNIST):
        sys.exit(f"{FMNIST} missing (fix: apt-get install -y dataset-fashion-mnist)")
    X = np.concatenate([read_idx(os.path.join(FMNIST, "train-images-idx3-ubyte.gz")),
                        read_idx(os.path.join(FMNIST, "t10k-images-idx3-ubyte.gz"))]
                       ).reshape(-1, 784)[:n]
    X = X.astype(np.float64) / 255.0
    X -= X.mean(0)
    # PCA by the covariance eigendecomposition: deterministic and cheap at 784 x 784.
    w, V = np.linalg.eigh(X.T @ X)
    return X @ V[:, ::-1][:, :50]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bh", type=int, nargs="*", default=[10000])
    ap.add_argument("--exact", type=int, nargs="*", default=[2500])
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--only", choices=["drbench", "sklearn"])
    ap.add_argument("--memory", action="store_true")
    a = ap.parse_args()
    if a.only != "sklearn" and not os.path.exists(BENCH):
        sys.exit(f"{BENCH} missing (fix: bash scripts/build.sh -DDRBENCH_BENCHMARKS=ON)")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for method, sizes in (("barnes_hut", a.bh), ("exact", a.exact)):
            for n in sizes:
                path = os.path.join(tmp, f"fmnist_{n}.f64")
                write_matrix(fashion_pca50(n), path)
                res = {}
                if a.only != "sklearn":
                    res["drbench"] = run_json([BENCH, path, method, str(a.iterations)], a.memory)
                if a.only != "drbench":
                    res["sklearn"] = run_json([sys.executable, "-c", SKLEARN_CHILD, path, method,
                                               str(a.iterations)], a.memory)
                for side, r in res.items():
                    rows.append((side, method, n, r))
                    mem = f"  peak {r['peak_mib']:.0f} MiB" if "peak_mib" in r else ""
                    print(f"{side:8s} {method:10s} N={n:6d}  wall {r['seconds']:8.2f} s  "
                          f"cpu {r['cpu_seconds']:8.2f} s  KL {r['kl']:.4f}{mem}", flush=True)
                if len(res) == 2:
                    d, s = res["drbench"], res["sklearn"]
                    print(f"{'ratio':8s} {method:10s} N={n:6d}  drbench / sklearn: wall "
                          f"{d['seconds'] / s['seconds']:.3f}  cpu "
                          f"{d['cpu_seconds'] / s['cpu_seconds']:.3f}", flush=True)


if __name__ == "__main__":
    main()
