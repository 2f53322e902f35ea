#!/usr/bin/python3
"""Reference LLE embedding from scikit-learn for tests/unit/test_manifold_lle.cpp.

Run once from the repository root: /usr/bin/python3 scripts/make_lle_fixture.py
Writes tests/fixtures/lle_sklearn.txt: first 3 rows X (3 x 60, one column per point), then 2 rows
of sklearn's embedding (unit-norm eigenvectors of M, dense solver, k=8, reg=1e-3).
"""
import numpy as np
from sklearn.manifold import LocallyLinearEmbedding

rng = np.random.default_rng(7)
t = rng.uniform(0, 3 * np.pi / 2, 60)
h = rng.uniform(0, 2, 60)
X = np.stack([np.cos(t), h, np.sin(t)], axis=1) + 0.01 * rng.standard_normal((60, 3))
Y = LocallyLinearEmbedding(n_neighbors=8, n_components=2, reg=1e-3,
                           eigen_solver="dense").fit_transform(X)
np.savetxt("tests/fixtures/lle_sklearn.txt", np.vstack([X.T, Y.T]), fmt="%.17g")
