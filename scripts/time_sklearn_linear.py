#!/usr/bin/env python3
"""scikit-learn fit times for the methods in benchmarks/bench_linear.cpp (same problem size:
2,000 points x 256-D, 10 classes, 9 components). Prints the median of repeated fits, for both the
USPS subset (rows floor(i * 9298 / 2000)) and random Gaussian classes of the same shape.

    DRBENCH_DATA=/work/shared/datasets python3 scripts/time_sklearn_linear.py
"""
import os
import time
import warnings

import numpy as np
from sklearn.decomposition import PCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.manifold import Isomap

warnings.filterwarnings("ignore")  # Isomap warns about joining a disconnected kNN graph


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * np.median(times)


def problems():
    path = os.path.join(os.environ.get("DRBENCH_DATA", "../shared/datasets"), "usps.h5")
    if os.path.exists(path):
        import h5py
        with h5py.File(path) as f:
            idx = (np.arange(2000) * f["X"].shape[0]) // 2000
            yield "usps subset", f["X"][:][idx], f["y"][:][idx]
    rng = np.random.default_rng(2000)
    centres = 2.0 * rng.standard_normal((10, 256))
    y = np.arange(2000) % 10
    yield "random", centres[y] + rng.standard_normal((2000, 256)), y


for name, X, y in problems():
    print(f"# {name}: {X.shape[0]} x {X.shape[1]}, 9 components, median ms")
    print("pca (svd_solver=auto) %.2f" % median_time(lambda: PCA(9).fit(X), 20))
    print("pca (svd_solver=full) %.2f" % median_time(lambda: PCA(9, svd_solver="full").fit(X), 20))
    print("lda (solver=svd)      %.2f" %
          median_time(lambda: LinearDiscriminantAnalysis(n_components=9).fit(X, y), 20))
    print("lda (solver=eigen)    %.2f" %
          median_time(lambda: LinearDiscriminantAnalysis(n_components=9, solver="eigen",
                                                         shrinkage=None).fit(X, y), 20))
    print("isomap k=5 (for ip/oip geodesics) %.2f" %
          median_time(lambda: Isomap(n_neighbors=5, n_components=9).fit(X), 3))
