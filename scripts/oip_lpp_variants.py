#!/usr/bin/env python3
"""LPP on the OIP paper's USPS columns, one choice changed at a time, outside drbench
(numpy/scipy/sklearn), to find why drbench's LPP row is 0.5-0.7 points worse than the paper's
(results/oip_lpp_cause.md).

Usage: python3 scripts/oip_lpp_variants.py VARIANTS RATIOS SPLITS
  e.g. python3 scripts/oip_lpp_variants.py base,unit,vecnorm 0.3,0.5 5

`base` is drbench's LPP as configs/oip_usps.yaml runs it (30-D, 5 nearest neighbours joined when
either is among the other's, heat weights exp(-d^2/t) with t the mean squared kNN distance, PCA
pre-step keeping 85 % of the variance, X L X^T a = l (X D X^T + 1e-8 trace/dim I) a, vectors
normalised by a^T X D X^T a = 1, Euclidean 1-NN of the projected test points). Each other variant
changes one thing:
  unit      every image scaled to unit length first (Deng Cai's NormalizeFea)
  vecnorm   each projection vector scaled to unit Euclidean length in pixel space (the last step
            of Cai's LGE.m), so the latent axes are weighted differently in the 1-NN distance
  tcai      heat width of Cai's constructW: exp(-d^2 / (2 m^2)), m the mean pairwise distance
  binary    0/1 edge weights
  mutual    an edge only when each point is among the other's 5 nearest
  k3, k10   3 or 10 nearest neighbours
  pca90, pca95, pca1   PCA pre-step keeping 90 %, 95 %, all (numerical rank) of the variance
  dims20, dims40       20 or 40 projection directions
  cosine    1-NN by cosine distance on the projections
  noridge   no ridge on X D X^T
  droptrivial  directions with beta = 1 - lambda < 1e-3 dropped (Cai's LPP.m)
  cai       Cai's LPP.m with his defaults end to end: tcai+pca1+noridge+vecnorm+droptrivial
            (30-D; his LGE skips the PCA when X^T D X is positive definite, the same subspace)
  cai_unit  cai on unit-length images
Variants joined by '+' combine (unit+vecnorm).
Pixels are scaled to [0, 1] as in the config. Splits are stratified random splits seeded 0..S-1
(the same as scripts/oip_variants.py, not drbench's: compare variants with `base` of this script).
Prints one line per (ratio, split, variant) and a mean table at the end.
"""
import os
import sys

import h5py
import numpy as np
import scipy.linalg
import scipy.sparse as sp
from sklearn.neighbors import KNeighborsClassifier, NearestNeighbors

# The data path and the seeded stratified split of the OIP checks (scripts/oip_variants.py), so
# both scripts draw the same partitions.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oip_variants import DATA, split  # noqa: E402


def knn_graph(X, k, heat_t, mutual):
    """Symmetric affinity of the k-NN graph; heat_t None means binary weights."""
    n = len(X)
    d, j = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X)
    d, j = d[:, 1:], j[:, 1:]  # drop the point itself
    rows = np.repeat(np.arange(n), k)
    A = sp.csr_matrix((np.ones(n * k), (rows, j.ravel())), shape=(n, n))
    A = A.minimum(A.T) if mutual else A.maximum(A.T)
    A = A.tocoo()
    d2 = np.sum((X[A.row] - X[A.col]) ** 2, axis=1)
    if heat_t == "knn":
        t = np.mean(d.ravel() ** 2)  # drbench: relative width 1 = mean squared kNN distance
        w = np.exp(-d2 / t)
    elif heat_t == "cai":
        sub = X if n <= 3000 else X[np.random.default_rng(0).choice(n, 3000, replace=False)]
        m = np.mean(np.sqrt(np.maximum(
            np.sum(sub**2, 1)[:, None] + np.sum(sub**2, 1)[None, :] - 2 * sub @ sub.T, 0)))
        w = np.exp(-d2 / (2 * m * m))
    else:
        w = np.ones_like(d2)
    return sp.csr_matrix((w, (A.row, A.col)), shape=(n, n))


def lpp(X, W, dim, pca_ratio, ridge, vecnorm, drop_trivial=False):
    """Projection matrix (pixels x dim) and mean of drbench's LPP, with the variants' switches."""
    mu = X.mean(0)
    Xc = X - mu
    U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
    var = s**2
    rank = int(np.sum(s > s[0] * max(Xc.shape) * np.finfo(float).eps))
    if pca_ratio >= 1:
        keep = rank
    else:
        keep = min(int(np.searchsorted(np.cumsum(var) / var.sum(), pca_ratio) + 1), rank)
    P = Vt[:keep].T  # pixels x keep
    Z = Xc @ P  # n x keep
    deg = np.asarray(W.sum(1)).ravel()
    ZDZ = Z.T @ (Z * deg[:, None])
    ZLZ = ZDZ - Z.T @ (W @ Z)
    B = ZDZ + ridge * np.trace(ZDZ) / keep * np.eye(keep)
    lam, V = scipy.linalg.eigh((ZLZ + ZLZ.T) / 2, (B + B.T) / 2)
    if drop_trivial:
        V = V[:, 1 - lam >= 1e-3]
    A = P @ V[:, :dim]
    if vecnorm:
        A = A / np.linalg.norm(A, axis=0, keepdims=True)
    return A, mu


def err(Ztr, ytr, Zte, yte, metric="euclidean"):
    clf = KNeighborsClassifier(1, metric=metric, algorithm="brute").fit(Ztr, ytr)
    return 100 * np.mean(clf.predict(Zte) != yte)


CAI = {"tcai", "pca1", "noridge", "vecnorm", "droptrivial"}


def run(v, X, y, tr, te):
    """v: a variant name, or several joined by '+' (e.g. unit+vecnorm); cai = the CAI set."""
    f = set()
    for part in v.split("+"):
        f |= CAI if part == "cai" else CAI | {"unit"} if part == "cai_unit" else {part}
    Xs = X / np.linalg.norm(X, axis=1, keepdims=True) if "unit" in f else X
    Xtr, Xte = Xs[tr], Xs[te]
    k = 3 if "k3" in f else 10 if "k10" in f else 5
    heat = None if "binary" in f else "cai" if "tcai" in f else "knn"
    W = knn_graph(Xtr, k, heat, "mutual" in f)
    ratio = 1.0 if "pca1" in f else 0.95 if "pca95" in f else 0.9 if "pca90" in f else 0.85
    dim = 20 if "dims20" in f else 40 if "dims40" in f else 30
    A, mu = lpp(Xtr, W, dim, ratio, 0.0 if "noridge" in f else 1e-8, "vecnorm" in f,
                "droptrivial" in f)
    return err((Xtr - mu) @ A, y[tr], (Xte - mu) @ A, y[te],
               "cosine" if "cosine" in f else "euclidean")


def main(variants, ratios, splits):
    with h5py.File(os.path.join(DATA, "usps.h5"), "r") as f:
        X = (f["X"][:].astype(float) + 1) / 2
        y = f["y"][:].ravel()
    vs = variants.split(",")
    res = {}
    for ratio in (float(r) for r in ratios.split(",")):
        for seed in range(int(splits)):
            tr, te = split(y, seed, ratio)
            for v in vs:
                e = run(v, X, y, tr, te)
                res.setdefault((ratio, v), []).append(e)
                print(f"ratio {ratio} split {seed} {v:9s} {e:.2f}", flush=True)
    print("\nmean error % (std) over splits; change against base, paired")
    for (ratio, v), es in res.items():
        b = np.array(res.get((ratio, "base"), es))
        d = np.array(es) - b if len(b) == len(es) else np.full(len(es), np.nan)
        print(f"{ratio} {v:9s} {np.mean(es):.2f} ({np.std(es, ddof=1) if len(es) > 1 else 0:.2f})"
              f"  change {np.mean(d):+.2f}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
