#!/usr/bin/env python3
"""Variants of OIP's Algorithm 1 on the OIP paper's 20 % USPS column, outside drbench (numpy/scipy/
sklearn), to test readings the paper leaves open (results/oip_usps.md).

Usage: python3 scripts/oip_variants.py k10,k10_unc,k10_l2,k15_unc_l2 [splits]
A variant names the kNN size (kN), optionally `unc` (do not centre X before forming M) and `l2`
(scale every image to unit length first, as Deng Cai's NormalizeFea). Prints raw-pixel 1-NN error
and OIP's 1-NN error at 20/40/60/100-D per split. Pixels are scaled to [0, 1] as in the config.
"""
import os
import sys

import h5py
import numpy as np
from scipy.sparse.csgraph import shortest_path
from sklearn.neighbors import KNeighborsClassifier, kneighbors_graph

DATA = os.environ.get("DRBENCH_DATA", os.path.join(os.path.dirname(__file__), "../../shared/datasets"))


def split(y, seed, ratio=0.2):
    rng = np.random.default_rng(seed)
    tr = []
    for c in np.unique(y):
        idx = np.flatnonzero(y == c)
        rng.shuffle(idx)
        tr += list(idx[: int(round(ratio * len(idx)))])
    tr = np.array(tr)
    return tr, np.setdiff1d(np.arange(len(y)), tr)


def tau(X, k):
    G = kneighbors_graph(X, k, mode="distance")
    D = shortest_path(G.maximum(G.T), directed=False)
    n = len(D)
    H = np.eye(n) - 1.0 / n
    return -H @ (D**2) @ H / 2


def err(Ztr, ytr, Zte, yte):
    return 100 * np.mean(KNeighborsClassifier(1).fit(Ztr, ytr).predict(Zte) != yte)


def main(variants, splits=3):
    with h5py.File(os.path.join(DATA, "usps.h5"), "r") as f:
        X = (f["X"][:].astype(float) + 1) / 2
        y = f["y"][:].ravel()
    for seed in range(int(splits)):
        tr, te = split(y, seed)
        for v in variants.split(","):
            Xs = X / np.linalg.norm(X, axis=1, keepdims=True) if "l2" in v else X
            k = int(v.split("k")[1].split("_")[0]) if "k" in v else 5
            Xtr, Xte = Xs[tr], Xs[te]
            A = Xtr.T if "unc" in v else (Xtr - Xtr.mean(0)).T
            G = A @ A.T
            M = G @ G - 2 * (A @ tau(Xtr, k)) @ A.T
            _, V = np.linalg.eigh((M + M.T) / 2)
            oip = [err(Xtr @ V[:, :d], y[tr], Xte @ V[:, :d], y[te]) for d in (20, 40, 60, 100)]
            print(seed, v, "raw 1-NN %.2f" % err(Xtr, y[tr], Xte, y[te]),
                  "OIP@20/40/60/100 " + " ".join("%.2f" % e for e in oip), flush=True)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(*sys.argv[1:])
