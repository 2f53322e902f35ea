#!/usr/bin/python3
"""Reference factorisations from scikit-learn's NMF for tests/unit/test_linear_nmf.cpp.

Run once from the repository root: /usr/bin/python3 scripts/make_nmf_fixture.py
tests/fixtures/nmf_sklearn.txt holds, one block after another:
- X (8 rows, 60 points): non-negative data of rank about 3 plus noise, and 10 new points (8 rows);
- for each of (cd, nndsvda), (cd, nndsvd), (mu, nndsvda): W' (3 rows, 60 points), H (3 rows,
  8 columns), the transform of the new points (3 rows, 10 columns) and one row holding
  [reconstruction_err_, n_iter_].
With 8 features randomized_svd's 3 + 10 random directions span the whole row space, so its NNDSVD
start equals the exact SVD's.
"""
import numpy as np
from sklearn.decomposition import NMF

rng = np.random.default_rng(2005)
W0 = rng.gamma(2.0, 1.0, (70, 3))
H0 = rng.gamma(1.0, 1.0, (3, 8))
X = W0 @ H0 + 0.1 * rng.random((70, 8))
Xtr, Xte = X[:60], X[60:]

blocks = [Xtr.T, Xte.T]
for solver, init in [("cd", "nndsvda"), ("cd", "nndsvd"), ("mu", "nndsvda")]:
    nmf = NMF(n_components=3, solver=solver, init=init, max_iter=200, tol=1e-4)
    W = nmf.fit_transform(Xtr)
    print(solver, init, "iterations", nmf.n_iter_, "error", nmf.reconstruction_err_)
    row = np.zeros((1, 60))
    row[0, 0], row[0, 1] = nmf.reconstruction_err_, nmf.n_iter_
    pad = lambda M: np.hstack([M, np.zeros((M.shape[0], 60 - M.shape[1]))])
    blocks += [W.T, pad(nmf.components_), pad(nmf.transform(Xte).T), row]
np.savetxt("tests/fixtures/nmf_sklearn.txt", np.vstack(blocks[:1] + [np.hstack(
    [blocks[1], np.zeros((8, 50))])] + blocks[2:]), fmt="%.17g")
