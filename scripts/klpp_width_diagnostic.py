#!/usr/bin/env python3
"""Where KLPP's error comes from at a given RBF width (results/gplrf_usps_linear.md, "KLPP's
curve"): drbench's klpp (scripts/klpp_variants.py, formulation subspace, 5 neighbours, 9-D) on
USPS pixels in [0, 1] with PCA keeping 99 % of the training variance, for widths 0.22, 0.27 and 1
x the median distance at 10, 30 and 50 training points per class. Per cell, the mean over three
stratified random partitions (numpy seeds 100-102, not drbench's) of
  - the test points' 1-NN error,
  - the training points' leave-one-out 1-NN error in the embedding (what the graph gives; with a
    full-rank kernel it is Laplacian eigenmaps on the training points whatever the width),
  - the median over test points of their largest kernel value to any training point, and the
    share of test points for which that is below 0.05 (the kernel map sends them near the centre),
  - the median training distance the relative width multiplies.
Usage: python3 scripts/klpp_width_diagnostic.py   (a minute on one core)
"""
import importlib.util
import os
import sys

import h5py
import numpy as np
from sklearn.neighbors import KNeighborsClassifier

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from drbench.external import Task  # noqa: E402

spec = importlib.util.spec_from_file_location("kv", os.path.join(HERE, "klpp_variants.py"))
kv = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kv)

BASE = dict(formulation="subspace", centre=True, test_centre="train", laplacian="unnormalised",
            drop_trivial=False, scale="unit", width="relative", neighbours=5, weights="heat",
            heat_width=1.0, ridge=1e-4)


def main():
    data = os.path.join(os.environ.get("DRBENCH_DATA", "/work/shared/datasets"), "usps.h5")
    with h5py.File(data, "r") as f:
        X = np.asarray(f["X"], float)
        y = np.asarray(f["y"])
    X = (X - X.min()) / (X.max() - X.min())  # minmax, not per feature
    print("width per_class | test error % | train LOO error % | median max k(test, train) | "
          "test share with max k < 0.05 | median distance")
    for w in (0.22, 0.27, 1.0):
        for pc in (10, 30, 50):
            res = []
            for s in range(3):
                rng = np.random.default_rng(100 + s)
                tr = np.concatenate([rng.choice(np.flatnonzero(y == c), pc, replace=False)
                                     for c in np.unique(y)])
                te = np.setdiff1d(np.arange(len(y)), tr)
                mu = X[tr].mean(0)
                _, sv, Vt = np.linalg.svd(X[tr] - mu, full_matrices=False)
                r = np.searchsorted(np.cumsum(sv**2) / np.sum(sv**2), 0.99) + 1
                Xtr, Xte = (X[tr] - mu) @ Vt[:r].T, (X[te] - mu) @ Vt[:r].T
                task = Task(Xtr, None, Xte, 9, 0, 10, 1, "diag", "usps", dict(BASE, kernel_width=w))
                Ztr, Zte = kv.klpp(task)
                err = np.mean(KNeighborsClassifier(1).fit(Ztr, y[tr]).predict(Zte) != y[te])
                nn = KNeighborsClassifier(2).fit(Ztr, y[tr]).kneighbors(Ztr, 2, False)[:, 1]
                loo = np.mean(y[tr][nn] != y[tr])
                med = kv.median_distance(Xtr)
                kmax = kv.rbf(Xtr, Xte, w * med).max(0)
                res.append((err, loo, np.median(kmax), np.mean(kmax < 0.05), med))
            m = np.mean(res, 0)
            print(f"{w} {pc} | {100 * m[0]:.1f} | {100 * m[1]:.1f} | {m[2]:.3f} | "
                  f"{100 * m[3]:.1f} | {m[4]:.2f}", flush=True)


if __name__ == "__main__":
    main()
