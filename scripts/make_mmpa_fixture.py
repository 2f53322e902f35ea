#!/usr/bin/env python3
"""Reference MMPA solutions for tests/unit/test_linear_mmpa.cpp, computed independently with numpy/scipy.

Reads the shared [linear] fixture data (tests/fixtures/linear/X.csv, y.csv, points as rows) and
writes tests/fixtures/linear/mmpa_{threshold,knn}_{A,values}.csv: the projection (d x dim) and
the eigenvalues mu of  S_b a = mu (S_w + sigma * trace(S_w)/d * I) a  (largest first) for the two
graph rules of methods/linear/mmpa/mmpa.hpp. Run from the repository root:
    python3 scripts/make_mmpa_fixture.py
"""
import numpy as np
import scipy.linalg as sla

DIR = "tests/fixtures/linear"
DIM = 3
SIGMA = 0.5  # the tests pass the same value
K_W, K_B = 4, 6

X = np.loadtxt(f"{DIR}/X.csv", delimiter=",")
y = np.loadtxt(f"{DIR}/y.csv", delimiter=",").astype(int).ravel()
n, d = X.shape
D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
same = y[:, None] == y[None, :]
intra = same & ~np.eye(n, dtype=bool)
inter = ~same


def threshold_graphs():
    eps_w, eps_b = D[intra].mean(), D[inter].mean()
    return (intra & (D > eps_w)).astype(float), (inter & (D < eps_b)).astype(float)


def knn_graphs():
    Ww, Wb = np.zeros((n, n)), np.zeros((n, n))
    for i in range(n):
        cand = np.flatnonzero(intra[i])  # farthest first, ties to the lower index
        far = cand[np.lexsort((cand, -D[i, cand]))][:K_W]
        cand = np.flatnonzero(inter[i])
        near = cand[np.lexsort((cand, D[i, cand]))][:K_B]
        Ww[i, far] = Ww[far, i] = 1
        Wb[i, near] = Wb[near, i] = 1
    return Ww, Wb


def solve(Ww, Wb):
    Xc = (X - X.mean(0)).T
    Sw = Xc @ (np.diag(Ww.sum(1)) - Ww) @ Xc.T
    Sb = Xc @ (np.diag(Wb.sum(1)) - Wb) @ Xc.T
    w, V = sla.eigh(Sb, Sw + SIGMA * np.trace(Sw) / d * np.eye(d))
    idx = np.argsort(w)[::-1][:DIM]
    return w[idx], V[:, idx]


for name, graphs in (("threshold", threshold_graphs), ("knn", knn_graphs)):
    values, V = solve(*graphs())
    np.savetxt(f"{DIR}/mmpa_{name}_values.csv", values[None, :], delimiter=",", fmt="%.17g")
    np.savetxt(f"{DIR}/mmpa_{name}_A.csv", V, delimiter=",", fmt="%.17g")
