#!/usr/bin/python3
"""scikit-learn fit times on the same 2,000 USPS points as benchmarks/bench_nonlinear.cpp.

Usage: DRBENCH_DATA=/work/shared/datasets /usr/bin/python3 scripts/time_sklearn_nonlinear.py
"""
import os
import time

import h5py
import numpy as np
from sklearn.decomposition import KernelPCA
from sklearn.manifold import MDS, Isomap, LocallyLinearEmbedding, SpectralEmbedding

path = os.path.join(os.environ.get("DRBENCH_DATA", "../shared/datasets"), "usps.h5")
with h5py.File(path, "r") as f:
    X = np.asarray(f["X"])[0:8000:4]
print(f"X: {X.shape}")
med = np.median(np.sqrt(((X[:1000, None, :] - X[None, :1000, :]) ** 2).sum(-1)))
models = {
    "kpca (rbf, sigma=median)": KernelPCA(2, kernel="rbf", gamma=1 / (2 * med**2),
                                          eigen_solver="arpack"),
    "isomap (k=10)": Isomap(n_neighbors=10, n_components=2),
    "lle (k=10, dense)": LocallyLinearEmbedding(n_neighbors=10, n_components=2,
                                                eigen_solver="dense"),
    "lle (k=10, arpack)": LocallyLinearEmbedding(n_neighbors=10, n_components=2,
                                                 eigen_solver="arpack"),
    "spectral embedding (k=10)": SpectralEmbedding(2, affinity="nearest_neighbors",
                                                   n_neighbors=10),
    "mds (smacof metric, 1 init, 100 it)": MDS(2, n_init=1, max_iter=100),
}
for name, m in models.items():
    t = time.perf_counter()
    m.fit_transform(X)
    print(f"{name:40s} {time.perf_counter() - t:8.2f} s")
