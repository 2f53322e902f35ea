#!/usr/bin/python3
"""scikit-learn's exact kNN on the shapes of benchmarks/bench_knn.cpp, one thread, k = 5 (or the
third argument: 1 for the 1-NN rows of BM_Knn1).

Gaussian points (BM_KnnPath: 5,000 test against 5,000 training points in 2..32 dimensions, and
1,000 vs 1,000 in 12-D) and USPS principal scores (BM_KnnUspsPath: even columns train, odd ones
test). Each cell is KNeighborsClassifier(algorithm=...).fit(train).predict(test), the median of
`repeats` runs, as CPU milliseconds (the process's own time, fair on a shared machine) and wall
milliseconds. Side by side with drbench (bench_knn's <0> blocked, <1> k-d tree, <2> knn_indices,
<3> float32 pre-filter), each pinned to its own core in one run:

    export OPENBLAS_NUM_THREADS=1
    taskset -c 1 ./build/benchmarks/bench_knn --benchmark_filter='KnnPath|KnnUspsPath' &
    taskset -c 0 /usr/bin/python3 scripts/bench_knn_sklearn.py [repeats] [usps.h5] [k]; wait
"""
import os
import sys

# First: it makes every BLAS one-threaded before numpy loads.
from bench_common import median_ms

import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402


def row(name, train, ytrain, test, repeats, k=5):
    cells = []
    for algo in ("kd_tree", "ball_tree", "brute"):
        clf = KNeighborsClassifier(n_neighbors=k, algorithm=algo, n_jobs=1)
        t = median_ms(lambda: clf.fit(train, ytrain).predict(test), repeats)
        cells.append(f"{t['cpu']:>8.1f} {t['wall']:>8.1f}")
    print(f"{name:<22} " + "  ".join(cells), flush=True)


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    usps = sys.argv[2] if len(sys.argv) > 2 else "/work/shared/datasets/usps.h5"
    k = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    print(f"scikit-learn {sklearn.__version__}, k = {k}, median of {repeats}, ms (CPU, wall)")
    print(f"{'data':<22} {'kd_tree':>17}  {'ball_tree':>17}  {'brute':>17}")
    rng = np.random.default_rng(4)
    for d, n, m in [(2, 5000, 5000), (9, 5000, 5000), (12, 5000, 5000), (16, 5000, 5000),
                    (20, 5000, 5000), (12, 1000, 1000)]:
        train, test = rng.standard_normal((n, d)), rng.standard_normal((m, d))
        ytrain = rng.integers(0, 10, n)
        row(f"gauss {d}-D {n}x{m}", train, ytrain, test, repeats, k)
    if os.path.exists(usps):
        import h5py

        with h5py.File(usps, "r") as f:
            X = np.asarray(f["X"], dtype=float)
            y = np.asarray(f["y"]).ravel()
        C = X - X.mean(axis=0)
        Z = C @ np.linalg.svd(C, full_matrices=False)[2].T
        for d in (2, 9, 16, 20):
            row(f"usps pca {d}-D", Z[0::2, :d], y[0::2], Z[1::2, :d], repeats, k)


if __name__ == "__main__":
    main()
