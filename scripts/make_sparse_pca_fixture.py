#!/usr/bin/python3
"""Reference sparse PCA from scikit-learn's SparsePCA for tests/unit/test_linear_sparse_pca.cpp.

Run once from the repository root: /usr/bin/python3 scripts/make_sparse_pca_fixture.py
tests/fixtures/sparse_pca_sklearn.txt holds, one block after another (columns padded with zeros):
X (10 rows, 80 points) from three sparse loading vectors plus noise; 10 new points (10 rows);
then for alpha = 1 and alpha = 5: components_ (3 rows, 10 columns), fit_transform (3 rows, 80),
the transform of the new points (3 rows, 10) and one row [error_[-1], n_iter_].
method='lars' solves each lasso exactly, which drbench's coordinate descent to round-off matches.
"""
import numpy as np
from sklearn.decomposition import SparsePCA

rng = np.random.default_rng(2009)
L = np.zeros((10, 3))
L[0:4, 0] = [1.0, 0.8, -0.6, 0.5]
L[4:7, 1] = [1.0, -0.9, 0.7]
L[6:10, 2] = [0.5, 1.0, 0.6, -0.8]
Z = rng.standard_normal((3, 90)) * np.array([[3.0], [2.0], [1.5]])
X = L @ Z + 0.3 * rng.standard_normal((10, 90)) + 2.0
Xtr, Xte = X[:, :80], X[:, 80:]


def pad(M, width=80):
    return np.hstack([M, np.zeros((M.shape[0], width - M.shape[1]))])


blocks = [Xtr, pad(Xte)]
for alpha in (1.0, 5.0):
    spca = SparsePCA(n_components=3, alpha=alpha, method="lars", random_state=0)
    Y = spca.fit_transform(Xtr.T)
    print("alpha", alpha, "iterations", spca.n_iter_, "objective", spca.error_[-1],
          "zeros", int(np.sum(spca.components_ == 0)))
    info = np.zeros((1, 80))
    info[0, 0], info[0, 1] = spca.error_[-1], spca.n_iter_
    blocks += [pad(spca.components_), Y.T, pad(spca.transform(Xte.T).T), info]
np.savetxt("tests/fixtures/sparse_pca_sklearn.txt", np.vstack(blocks), fmt="%.17g")
