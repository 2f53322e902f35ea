#!/usr/bin/env python3
"""Reference solutions for the [linear] unit tests, computed independently with numpy/scipy.

Writes tests/fixtures/linear/*.csv: a small 3-class data set (points as rows) and, for each graph
method, the projection matrix (d x dim) and eigenvalues the C++ code must reproduce (up to the sign
of each column). Run from the repository root: python3 scripts/make_linear_fixtures.py
"""
import os

import numpy as np
import scipy.linalg as sla
from scipy.sparse.csgraph import shortest_path

OUT = "tests/fixtures/linear"
rng = np.random.default_rng(20261121)
d, C, per, dim, k = 6, 3, 15, 3, 5
centres = 3.0 * rng.standard_normal((C, d))
X = np.vstack([centres[c] + rng.standard_normal((per, d)) * np.linspace(0.5, 2.0, d)
               for c in range(C)])
y = np.repeat(np.arange(C), per)
n = X.shape[0]
Xc = (X - X.mean(0)).T  # d x n, centred

D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
order = np.argsort(D2 + np.diag(np.full(n, np.inf)), axis=1, kind="stable")[:, :k]
adj = np.zeros((n, n), bool)
for i in range(n):
    adj[i, order[i]] = True
adj = adj | adj.T


def gen_eig(A, B, largest):
    w, V = sla.eigh(A, B)
    idx = np.argsort(w)[::-1][:dim] if largest else np.argsort(w)[:dim]
    return w[idx], V[:, idx]


def save(name, values, V):
    np.savetxt(f"{OUT}/{name}_values.csv", values[None, :], delimiter=",", fmt="%.17g")
    np.savetxt(f"{OUT}/{name}_A.csv", V, delimiter=",", fmt="%.17g")


os.makedirs(OUT, exist_ok=True)
np.savetxt(f"{OUT}/X.csv", X, delimiter=",", fmt="%.17g")
np.savetxt(f"{OUT}/y.csv", y[None, :], delimiter=",", fmt="%d")

# LPP (He & Niyogi): heat kernel on the symmetric kNN graph, t = mean squared kNN distance.
t = np.mean([D2[i, order[i]].mean() for i in range(n)])
W = np.where(adj, np.exp(-D2 / t), 0.0)
Dg = np.diag(W.sum(1))
save("lpp", *gen_eig(Xc @ (Dg - W) @ Xc.T, Xc @ Dg @ Xc.T, largest=False))

# SLPP: heat kernel on all same-class pairs, t = mean squared same-class distance.
same = (y[:, None] == y[None, :]) & ~np.eye(n, dtype=bool)
iu = np.triu_indices(n, 1)
ts = D2[iu][same[iu]].mean()
Ws = np.where(same, np.exp(-D2 / ts), 0.0)
Ds = np.diag(Ws.sum(1))
save("slpp", *gen_eig(Xc @ (Ds - Ws) @ Xc.T, Xc @ Ds @ Xc.T, largest=False))

# Geodesics on the Euclidean-weighted kNN graph, tau = -H S H / 2.
G = np.where(adj, np.sqrt(D2), 0.0)
DG = shortest_path(G, method="D", directed=False)
assert np.isfinite(DG).all(), "fixture graph must be connected"
H = np.eye(n) - np.ones((n, n)) / n
tau = -H @ (DG ** 2) @ H / 2

# IP (Cai et al. 2007): X tau X^T a = l X X^T a, largest.
save("ip", *gen_eig(Xc @ tau @ Xc.T, Xc @ Xc.T, largest=True))

# IP+SR: top eigenvectors of tau, then ridge regression with alpha relative to trace/d.
w, U = np.linalg.eigh(tau)
top = np.argsort(w)[::-1][:dim]
Y = U[:, top]
G2 = Xc @ Xc.T
alpha = 0.01 * np.trace(G2) / d
save("ip_sr", w[top], np.linalg.solve(G2 + alpha * np.eye(d), Xc @ Y))

# OIP (Zheng et al. 2012, Algorithm 1): smallest eigenvectors of M = X (X^T X - 2 tau) X^T.
M = Xc @ (Xc.T @ Xc - 2 * tau) @ Xc.T
w, V = np.linalg.eigh((M + M.T) / 2)
save("oip", w[:dim], V[:, :dim])
print("wrote", OUT)
