#!/usr/bin/python3
"""scikit-learn fit times for every drbench method that has a scikit-learn counterpart, on the
same 2,000 USPS points as benchmarks/bench_linear.cpp and benchmarks/bench_nonlinear.cpp (rows
floor(i * 9298 / 2000) of usps.h5, 256-D, 10 classes) and with the same latent dimensions (9 for
the linear methods, 2 for the kernel and manifold ones). One BLAS/OpenMP thread, as the C++
benchmarks are run. Prints the median wall time of the repeated fits, in milliseconds.

    DRBENCH_DATA=/work/shared/datasets /usr/bin/python3 scripts/bench_sklearn.py [name ...]

With names, only the matching rows run (substring match, e.g. `isomap lle`).
"""
import os
import sys

# First, before numpy loads its BLAS: one thread, like `OPENBLAS_NUM_THREADS=1 bench_*`.
from bench_common import median_ms

import warnings  # noqa: E402

import h5py  # noqa: E402
import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from sklearn.decomposition import PCA, KernelPCA  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.manifold import MDS, Isomap, LocallyLinearEmbedding, SpectralEmbedding  # noqa: E402

warnings.filterwarnings("ignore")


def load():
    path = os.path.join(os.environ.get("DRBENCH_DATA", "../shared/datasets"), "usps.h5")
    with h5py.File(path, "r") as f:
        X = np.asarray(f["X"], dtype=np.float64)
        y = np.asarray(f["y"])
    idx = (np.arange(2000) * X.shape[0]) // 2000
    return X[idx], y[idx]


def median_distance(X):
    # drbench's width=median: median pairwise distance of every ceil(n/1000)-th point.
    S = X[:: (X.shape[0] + 999) // 1000]
    sq = (S**2).sum(1)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2 * S @ S.T, 0)
    return np.sqrt(np.median(D2[np.triu_indices(S.shape[0], 1)]))


X, y = load()
sigma = median_distance(X)  # drbench kpca default: rbf, sigma = 1 x median distance
gamma = 1 / (2 * sigma**2)
# (row name, drbench counterpart, fit, repeats)
rows = [
    ("pca (svd_solver=auto: randomized)", "pca", lambda: PCA(9).fit(X), 10),
    ("pca (svd_solver=full)", "pca", lambda: PCA(9, svd_solver="full").fit(X), 10),
    ("pca as ppca (noise_variance_ = PPCA ML)", "ppca", lambda: PCA(9, svd_solver="full").fit(X),
     10),
    ("lda (solver=svd)", "lda", lambda: LinearDiscriminantAnalysis(n_components=9).fit(X, y), 10),
    ("lda (solver=eigen)", "lda",
     lambda: LinearDiscriminantAnalysis(n_components=9, solver="eigen").fit(X, y), 10),
    ("kpca (rbf, eigen_solver=auto: arpack)", "kpca",
     lambda: KernelPCA(2, kernel="rbf", gamma=gamma).fit(X), 3),
    ("kpca (rbf, eigen_solver=dense)", "kpca",
     lambda: KernelPCA(2, kernel="rbf", gamma=gamma, eigen_solver="dense").fit(X), 3),
    ("isomap (k=10)", "isomap", lambda: Isomap(n_neighbors=10, n_components=2).fit(X), 3),
    ("lle (k=10, reg=1e-3, arpack)", "lle",
     lambda: LocallyLinearEmbedding(n_neighbors=10, n_components=2, reg=1e-3,
                                    eigen_solver="arpack", random_state=0).fit(X), 3),
    ("lle (k=10, reg=1e-3, dense)", "lle",
     lambda: LocallyLinearEmbedding(n_neighbors=10, n_components=2, reg=1e-3,
                                    eigen_solver="dense").fit(X), 1),
    ("spectral embedding (kNN k=10, arpack)", "laplacian_eigenmaps",
     lambda: SpectralEmbedding(2, affinity="nearest_neighbors", n_neighbors=10,
                               random_state=0).fit(X), 3),
    # Not the same algorithm: scikit-learn's MDS is SMACOF (iterative stress majorisation),
    # drbench's mds is classical (one eigenproblem). SMACOF is the closer match to sammon.
    ("mds (SMACOF metric, n_init=1, max_iter=300)", "mds / sammon",
     lambda: MDS(2, n_init=1, max_iter=300, random_state=0).fit(X), 1),
    ("mds (SMACOF metric, default n_init=4)", "mds / sammon",
     lambda: MDS(2, random_state=0).fit(X), 1),
]

wanted = sys.argv[1:]
print(f"# scikit-learn {sklearn.__version__}, numpy {np.__version__}; X {X.shape}; "
      f"1 thread; median ms: wall, CPU")
for name, ours, fn, repeats in rows:
    if wanted and not any(w in name for w in wanted):
        continue
    t = median_ms(fn, repeats)
    print(f"{name:46s} {ours:20s} {t['wall']:10.1f} {t['cpu']:10.1f}", flush=True)
