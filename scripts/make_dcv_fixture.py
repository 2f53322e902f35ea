#!/usr/bin/env python3
"""Reference DCV solution for tests/unit/test_linear_dcv.cpp, computed independently with numpy.

Cevikalp, Neamtu, Wilkes & Barkana, "Discriminative common vectors for face recognition",
IEEE TPAMI 27(1), 2005. The C++ code finds the null space of S_w from an SVD of the within-class
differences x - m_c; this script follows the paper's other route (the Gram-Schmidt method):
  1. the difference subspace B = span{x_k^c - x_1^c : k > 1, all c} (= range of S_w), given an
     orthonormal basis by Gram-Schmidt;
  2. the common vector of class c is its first sample minus that sample's projection on B;
  3. W = eigenvectors of S_com = A_com A_com^T (A_com = common vectors minus their mean) with
     nonzero eigenvalue, found from the small C x C matrix A_com^T A_com as in the paper.

The data set is small-sample (d = 22 > n - C = 16) and two coordinates are constant, like the
always-blank border pixels of digit images: they lie in the null space of S_w but carry no class
information, so they must not change the projection.

Writes tests/fixtures/linear/dcv_{X,y,W,common}.csv (points and common vectors as rows, W as
d x (C-1)). Run from the repository root: /usr/bin/python3 scripts/make_dcv_fixture.py
"""
import numpy as np

OUT = "tests/fixtures/linear"
rng = np.random.default_rng(20261122)
d_var, C, per = 20, 4, 5
centres = 2.0 * rng.standard_normal((C, d_var))
scales = np.linspace(0.3, 1.5, d_var)
X = np.vstack([centres[c] + rng.standard_normal((per, d_var)) * scales for c in range(C)])
X = np.hstack([X, np.full((C * per, 1), 0.7), np.full((C * per, 1), -1.0)])
y = np.repeat(np.arange(C), per)
n, d = X.shape


def gram_schmidt(D, tol=1e-10):
    """Orthonormal basis of the columns of D (modified Gram-Schmidt, dependent columns dropped)."""
    basis = []
    scale = np.linalg.norm(D, axis=0).max()
    for v in D.T:
        v = v.copy()
        for _ in range(2):  # re-orthogonalise once for accuracy
            for q in basis:
                v -= (q @ v) * q
        if np.linalg.norm(v) > tol * scale:
            basis.append(v / np.linalg.norm(v))
    return np.array(basis).T


diffs = np.hstack([(X[y == c][1:] - X[y == c][0]).T for c in range(C)])  # d x (n - C)
B = gram_schmidt(diffs)
assert B.shape[1] == n - C
first = np.array([X[y == c][0] for c in range(C)])  # C x d
common = first - (first @ B) @ B.T
# Any other sample of the class gives the same common vector.
for c in range(C):
    for x in X[y == c]:
        assert np.allclose(x - B @ (B.T @ x), common[c], atol=1e-10)

A_com = (common - common.mean(0)).T  # d x C
lam, V = np.linalg.eigh(A_com.T @ A_com)
order = np.argsort(lam)[::-1][: C - 1]
lam, V = lam[order], V[:, order]
assert lam[-1] > 1e-8 * lam[0] and np.all(np.diff(lam) < 0)
W = A_com @ V / np.sqrt(lam)  # unit eigenvectors of S_com

np.savetxt(f"{OUT}/dcv_X.csv", X, delimiter=",", fmt="%.17g")
np.savetxt(f"{OUT}/dcv_y.csv", y[None, :], delimiter=",", fmt="%d")
np.savetxt(f"{OUT}/dcv_W.csv", W, delimiter=",", fmt="%.17g")
np.savetxt(f"{OUT}/dcv_common.csv", common, delimiter=",", fmt="%.17g")
