#!/usr/bin/python3
"""Reference embeddings from scikit-learn for tests/unit/test_manifold_local_alignment.cpp.

Run once from the repository root: /usr/bin/python3 scripts/make_local_alignment_fixtures.py
Writes tests/fixtures/local_alignment_sklearn.txt: first 3 rows X (3 x 100, a noisy piece of a
cylinder, one column per point), then 2 rows each of scikit-learn's LocallyLinearEmbedding with
method='ltsa', 'modified' and 'hessian' (unit-norm eigenvectors, dense solver, k=10, reg=1e-3),
and 2 rows of the modified method's transform of 10 new points given in 3 more rows (10 columns,
the rest of those rows zero). scikit-learn's 'hessian' is kept to show it equals its 'ltsa'.
"""
import numpy as np
from sklearn.manifold import LocallyLinearEmbedding

rng = np.random.default_rng(12)


def sheet(n):
    t = rng.uniform(0, 3 * np.pi / 2, n)
    h = rng.uniform(0, 2, n)
    return np.stack([np.cos(t), h, np.sin(t)], axis=1) + 0.01 * rng.standard_normal((n, 3))


X = sheet(100)
Xnew = sheet(10)
rows = [X.T]
for method in ("ltsa", "modified", "hessian"):
    lle = LocallyLinearEmbedding(n_neighbors=10, n_components=2, reg=1e-3, method=method,
                                 eigen_solver="dense").fit(X)
    rows.append(lle.embedding_.T)
    if method == "modified":
        new = np.zeros((5, 100))
        new[:3, :10] = Xnew.T
        new[3:, :10] = lle.transform(Xnew).T
np.savetxt("tests/fixtures/local_alignment_sklearn.txt", np.vstack(rows + [new]), fmt="%.17g")
