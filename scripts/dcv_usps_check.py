#!/usr/bin/python3
"""Is ~34 % the true DCV recognition rate on USPS with 25 training digits per class (DEE paper
Fig. 11)? An independent numpy DCV (null space of S_w from its D x D eigen-decomposition, not
the SVD of the within-class differences drbench uses), run on 10 random partitions of a random
1,100-point USPS subset scaled to [0, 1], as configs/dee_dims.yaml's usps profile does.

It prints, per partition, the null-space dimension and the 1-NN rate of DCV at C - 1 = 9
dimensions, and for comparison: DCV when eigenvalues of S_w below a fraction `tol` of the largest
count as null (Cevikalp et al. 2005's route for the large-sample case), 1-NN on raw pixels, and
PCA(+LDA) baselines.
  /usr/bin/python3 scripts/dcv_usps_check.py [DIR]
With DIR, each partition is also written as DIR/usps_part<k>.h5 (split column 0 = train), so
drbench's DCV can be run on exactly the same partitions (configs: see results/dee_dims.md).
"""
import sys

import h5py
import numpy as np


def dcv(X, y, tol=1e-10):
    """X: n x D rows. Returns W (D x C-1) and the null-space dimension."""
    classes = np.unique(y)
    means = np.stack([X[y == c].mean(0) for c in classes])
    Xw = X - means[np.searchsorted(classes, y)]
    Sw = Xw.T @ Xw
    w, V = np.linalg.eigh(Sw)
    null = V[:, w <= tol * w.max()]
    common = means @ null @ null.T  # class means projected on the null space
    Cc = common - common.mean(0)
    U, s, _ = np.linalg.svd(Cc.T, full_matrices=False)
    return U[:, : len(classes) - 1], null.shape[1]


def nn_rate(Ytr, ytr, Yte, yte):
    d = (Yte ** 2).sum(1)[:, None] - 2 * Yte @ Ytr.T + (Ytr ** 2).sum(1)[None, :]
    return float((ytr[d.argmin(1)] == yte).mean())


def main():
    with h5py.File("/work/shared/datasets/usps.h5", "r") as f:
        X = (np.asarray(f["X"], float) + 1) / 2
        y = np.asarray(f["y"]).astype(int).ravel()
    rng = np.random.default_rng(2014)
    sub = rng.choice(len(y), 1100, replace=False)
    X, y = X[sub], y[sub]
    X = (X - X.min()) / (X.max() - X.min())
    rows = []
    out = sys.argv[1] if len(sys.argv) > 1 else None
    for rep in range(10):
        tr = np.concatenate([rng.permutation(np.flatnonzero(y == c))[:25] for c in range(10)])
        if out:  # the same partition as a dataset file with its own split, for drbench
            with h5py.File(f"{out}/usps_part{rep}.h5", "w") as f:
                f["X"] = X
                f["y"] = y.astype(np.int32)
                split = np.ones(len(y), np.int8)
                split[tr] = 0
                f["split"] = split
        te = np.setdiff1d(np.arange(len(y)), tr)
        mu = X[tr].mean(0)
        Xtr, Xte = X[tr] - mu, X[te] - mu
        r = {}
        W, r["null_dim"] = dcv(Xtr, y[tr])
        r["dcv"] = nn_rate(Xtr @ W, y[tr], Xte @ W, y[te])
        for tol in (1e-4, 1e-3, 1e-2, 3e-2, 1e-1):
            W2, _ = dcv(Xtr, y[tr], tol)
            r[f"dcv tol {tol:g}"] = nn_rate(Xtr @ W2, y[tr], Xte @ W2, y[te])
        r["raw 1-NN"] = nn_rate(Xtr, y[tr], Xte, y[te])
        # PCA to n - C dims, then DCV's null space is empty; PCA+LDA (Fisherfaces) instead
        U, s, Vt = np.linalg.svd(Xtr, full_matrices=False)
        P = Vt[: len(tr) - 10].T
        Ztr, Zte = Xtr @ P, Xte @ P
        classes = np.arange(10)
        m = np.stack([Ztr[y[tr] == c].mean(0) for c in classes])
        Sw = sum((Ztr[y[tr] == c] - m[c]).T @ (Ztr[y[tr] == c] - m[c]) for c in classes)
        Sb = (m - m.mean(0)).T @ (m - m.mean(0))
        w, V = np.linalg.eig(np.linalg.solve(Sw, Sb))
        L = np.real(V[:, np.argsort(-np.real(w))[:9]])
        r["fisherfaces (PCA n-C, LDA 9)"] = nn_rate(Ztr @ L, y[tr], Zte @ L, y[te])
        rows.append(r)
        print(rep, {k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()})
    print("mean:")
    for k in rows[0]:
        v = np.array([r[k] for r in rows], float)
        print(f"  {k}: {v.mean():.3f} +- {v.std(ddof=1):.3f}")


if __name__ == "__main__":
    main()
