#!/usr/bin/env python3
"""Kernel LPP, one reading of the problem at a time, as a drbench external method
(docs/external-methods.md), so every variant sees the GPLRF table's own partitions and
preprocessing. configs/gplrf_usps_klpp_variants.yaml runs it; results/gplrf_usps_linear.md, section
"KLPP's curve", reads the results.

Parameters (each changes one thing against `formulation: subspace`, which is drbench's klpp):
  formulation  subspace: drbench's klpp. Centred Gram matrix Kc = U L U', coordinates
                 Z = L^1/2 U', (Z L Z' + ridge * mean eig(Z D Z') I) w = mu Z D Z' w, smallest mu,
                 w unit length (unit norm in feature space).
               direct: He & Niyogi's equation as written, in the n expansion coefficients a:
                 K L K a = mu (K D K + ridge * mean diag(K D K) I) a, smallest mu. With K
                 invertible and ridge -> 0 it is Laplacian eigenmaps on the training points
                 (v = K a solves L v = mu D v) and the test map k(x)' K^-1 v interpolates the LE
                 coordinates through the kernel.
               le_interp: direct's limit taken explicitly: L v = mu D v (the constant vector
                 dropped), a = (K + ridge * mean diag(K) I)^-1 v.
               largest: the maximisation form with an absolute ridge, K W K a = nu (K D K + ridge *
                 mean degree * I) a with the centred K, largest nu first, directions with
                 nu < 1e-3 dropped (a MATLAB toolbox's kernel LPP; ridge 0.01 its example's)
  centre       centre the Gram matrix in feature space (direct/le_interp; subspace always does)
  test_centre  the test kernel centred with the training statistics (train, the out-of-sample
               map's), with the test set's own (test), or not at all (none): readings of the
               test side an implementation might take
  laplacian    unnormalised L = D - W with D on the right; normalised: D^-1/2 L D^-1/2 with I on
               the right (the random-walk/symmetric reading)
  drop_trivial drop directions with mu < 1e-8 (the constant vector when K is not centred)
  scale        unit: each direction unit length in feature space (a' K a = 1, drbench);
               bnorm: a' B a = 1 (B the right-hand side; LE's D-orthonormal coordinates);
               coef: a' a = 1, the expansion coefficients of unit Euclidean length (a linear
               method's last step applied to the kernel expansion: the axes' scales then follow
               the kernel's spectrum)
  kernel_width, width  RBF sigma: a multiple of the median training distance (relative), in
               input units (absolute), as drbench's kernel keys, or a multiple of the kNN graph's
               root mean squared edge length (graph: a width that shrinks as n grows)
  neighbours, weights, heat_width  the kNN graph (either-way symmetrised, as drbench's), heat
               weights exp(-d^2 / (heat_width^2 * mean squared edge length)) or binary
"""
import numpy as np
import scipy.linalg
from scipy.spatial.distance import cdist, pdist, squareform

from drbench.external import method


def knn_weights(X, k, binary, heat_width):
    D2 = squareform(pdist(X, "sqeuclidean"))
    n = len(X)
    np.fill_diagonal(D2, np.inf)
    nn = np.argsort(D2, axis=1, kind="stable")[:, :k]
    A = np.zeros((n, n), bool)
    A[np.repeat(np.arange(n), k), nn.ravel()] = True
    A |= A.T
    if binary:
        return A.astype(float)
    t = heat_width**2 * np.mean(D2[A])
    return np.where(A, np.exp(-np.where(A, D2, 0.0) / t), 0.0)


def rbf(A, B, sigma):
    return np.exp(-cdist(A, B, "sqeuclidean") / (2 * sigma * sigma))


def median_distance(X):
    step = max(1, len(X) // 1000)
    return float(np.median(pdist(X[::step])))


def centre(K, Kt, test="train"):
    """Centred training Gram matrix and test kernel: with the training statistics (the
    out-of-sample map's), the test set's own (a batch reading), or not at all."""
    rm = K.mean(0)
    m = rm.mean()
    Kc = K - rm[:, None] - rm[None, :] + m
    if test == "train":
        Ktc = Kt - rm[:, None] - Kt.mean(0)[None, :] + m
    elif test == "none":
        Ktc = Kt
    else:
        Ktc = Kt - Kt.mean(1)[:, None] - Kt.mean(0)[None, :] + Kt.mean()
    return Kc, Ktc


def smallest(A, B, count):
    mu, V = scipy.linalg.eigh(A, B)
    return mu[:count], V[:, :count]


@method
def klpp(task):
    p = task.params
    X, Xt = task.X_train, task.X_test
    n = len(X)
    W = knn_weights(X, p["neighbours"], p["weights"] == "binary", p["heat_width"])
    if p["width"] == "graph":  # the graph's own scale: root mean squared kNN edge length
        scale = np.sqrt(np.mean(squareform(pdist(X, "sqeuclidean"))[W > 0]))
    else:
        scale = median_distance(X) if p["width"] == "relative" else 1.0
    sigma = p["kernel_width"] * scale
    K = rbf(X, X, sigma)
    Kt = rbf(X, Xt, sigma) if Xt is not None else np.zeros((n, 0))
    deg = W.sum(1)
    L = np.diag(deg) - W
    Dm = np.diag(deg)
    if p["laplacian"] == "normalised":
        s = 1 / np.sqrt(deg)
        L = s[:, None] * L * s[None, :]
        Dm = np.eye(n)
    dim, extra = task.dim, 1 if p["drop_trivial"] else 0
    form = p["formulation"]
    if form in ("subspace", "largest") or p["centre"]:
        K, Kt = centre(K, Kt, p.get("test_centre", "train"))
    if form == "subspace":
        lam, U = np.linalg.eigh(K)
        keep = lam > max(lam[-1], 0) * 1e-10 * n
        lam, U = lam[keep][::-1], U[:, keep][:, ::-1]
        Z = np.sqrt(lam)[:, None] * U.T  # r x n
        A = Z @ L @ Z.T
        B = Z @ Dm @ Z.T
        A += p["ridge"] * np.trace(B) / len(B) * np.eye(len(B))
        mu, Wd = smallest(A, B, dim + extra)
        C = (U / np.sqrt(lam)[None, :]) @ Wd  # expansion coefficients in the centred kernel
    elif form == "direct":
        A = K @ L @ K
        B = K @ Dm @ K
        B += p["ridge"] * np.trace(B) / n * np.eye(n)
        mu, C = smallest(0.5 * (A + A.T), 0.5 * (B + B.T), dim + extra)
    elif form == "largest":
        # The maximisation form with an absolute ridge: K W K a = nu (K D K + ridge * mean(D) I) a,
        # largest nu first, then directions with nu < 1e-3 dropped (extra candidates are kept
        # for that), as in a widely used MATLAB implementation of kernel LPP.
        A = K @ W @ K
        B = K @ Dm @ K + p["ridge"] * deg.mean() * np.eye(n)
        nu, V = scipy.linalg.eigh(0.5 * (A + A.T), 0.5 * (B + B.T))
        nu, V = nu[::-1], V[:, ::-1]
        keep = np.flatnonzero(nu >= 1e-3)
        mu, C = nu[keep][:dim], V[:, keep][:, :dim]
        if C.shape[1] < dim:  # too few left: pad with the next ones rather than fail the task
            C = V[:, :dim]
    else:  # le_interp
        mu, V = smallest(L, Dm, dim + extra)
        C = np.linalg.solve(K + p["ridge"] * np.trace(K) / n * np.eye(n), V)
    if p["drop_trivial"] and form != "largest":
        good = np.flatnonzero(mu > 1e-8)[:dim]
        C = C[:, good] if len(good) == dim else C[:, 1:dim + 1]
    if p["scale"] == "unit":
        C = C / np.sqrt(np.maximum(np.einsum("ij,ij->j", C, K @ C), 1e-300))
    elif p["scale"] == "coef":
        C = C / np.linalg.norm(C, axis=0)
    else:
        B = K @ Dm @ K if form != "subspace" else None
        if B is not None:
            C = C / np.sqrt(np.maximum(np.einsum("ij,ij->j", C, B @ C), 1e-300))
        # subspace: eigh already returns w' B w = 1 in Z coordinates
    Ztr = (K @ C)
    Zte = (Kt.T @ C) if Xt is not None else None
    return Ztr, Zte


if __name__ == "__main__":
    klpp.main()
