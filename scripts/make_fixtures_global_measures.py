#!/usr/bin/env python3
"""Reference values for the global measures (framework/eval/global_measures.cpp), in plain numpy.

Written from the measures' definitions, not from drbench's code:
  random triplet accuracy (PaCMAP paper): over the given triplets (i, j, k), the share for which
    [|x_i - x_j| < |x_i - x_k|] equals [|y_i - y_j| < |y_i - y_k|];
  centroid triplet accuracy (PaCMAP authors' evaluation): class means in both spaces, the
    distances of every class pair, and over every pair of those distances the share whose order
    agrees (a > b in both, or a <= b in both);
  global score (TriMap paper): L(Y) = mean((X_c - A Y_c)^2) with A = X_c^T Y_c (Y_c^T Y_c)^-1
    (rows are points), L_PCA the same for scikit-learn's PCA of X to Y's dimension,
    GS = exp(-(L(Y) - L_PCA) / L_PCA).
Writes tests/fixtures/quality/global_points.csv (N rows: 6 input coordinates, 2 embedding
coordinates, class label), global_triplets.csv (anchor, j, k per row) and global_expected.csv
(measure,value). Run from the repository root: /usr/bin/python3 scripts/make_fixtures_global_measures.py
"""
import os

import numpy as np
from sklearn.decomposition import PCA

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "quality")


def random_triplet(X, Y, T):
    dx = lambda a, b: np.linalg.norm(X[a] - X[b], axis=-1)
    dy = lambda a, b: np.linalg.norm(Y[a] - Y[b], axis=-1)
    i, j, k = T[:, 0], T[:, 1], T[:, 2]
    return np.mean((dx(i, j) < dx(i, k)) == (dy(i, j) < dy(i, k)))


def centroid_triplet(X, Y, y):
    cls = np.unique(y)
    cx = np.array([X[y == c].mean(0) for c in cls])
    cy = np.array([Y[y == c].mean(0) for c in cls])
    iu = np.triu_indices(len(cls), 1)
    ex = np.linalg.norm(cx[:, None] - cx[None], axis=-1)[iu]
    ey = np.linalg.norm(cy[:, None] - cy[None], axis=-1)[iu]
    agree = total = 0
    for p in range(len(ex)):
        for q in range(p + 1, len(ex)):
            agree += (ex[p] > ex[q]) == (ey[p] > ey[q])
            total += 1
    return agree / total


def global_score(X, Y):
    def loss(X, Y):
        Xc, Yc = X - X.mean(0), Y - Y.mean(0)
        A = Xc.T @ (Yc @ np.linalg.inv(Yc.T @ Yc))
        return np.mean((Xc.T - A @ Yc.T) ** 2)

    lp = loss(X, PCA(n_components=Y.shape[1]).fit_transform(X))
    return np.exp(-(loss(X, Y) - lp) / lp)


def main():
    rng = np.random.default_rng(20261127)
    n, c = 80, 5
    y = np.repeat(np.arange(c), n // c)
    centres = rng.normal(scale=3.0, size=(c, 6))
    X = centres[y] + rng.normal(size=(n, 6)) * np.array([2.0, 1.5, 1.0, 0.7, 0.5, 0.3])
    # A nonlinear 2-D map of X with noise: neither perfect nor random.
    Y = np.column_stack([np.tanh(X[:, 0] / 3) + 0.3 * X[:, 2], X[:, 1] * X[:, 3] / 4])
    Y += rng.normal(scale=0.2, size=Y.shape)
    T = np.array([rng.choice(n, 3, replace=False) for _ in range(400)])
    os.makedirs(OUT, exist_ok=True)
    np.savetxt(os.path.join(OUT, "global_points.csv"), np.column_stack([X, Y, y]), delimiter=",",
               fmt="%.17g")
    np.savetxt(os.path.join(OUT, "global_triplets.csv"), T, delimiter=",", fmt="%d")
    with open(os.path.join(OUT, "global_expected.csv"), "w") as f:
        f.write("random_triplet,%.17g\n" % random_triplet(X, Y, T))
        f.write("centroid_triplet,%.17g\n" % centroid_triplet(X, Y, y))
        f.write("global_score,%.17g\n" % global_score(X, Y))


if __name__ == "__main__":
    main()
