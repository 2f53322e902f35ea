#!/usr/bin/env python3
"""Reference values for the co-ranking measures (framework/eval/coranking.cpp), in plain numpy.

Written from the papers, not from drbench's code: the full co-ranking matrix Q (Lee & Verleysen
2009, Q[k-1, l-1] = #pairs with input rank k and embedding rank l, ties broken towards the lower
index) and every measure as a sum over blocks of it:
  Q_NX(K) = sum(Q[:K, :K]) / (K N);  R_NX(K) = ((N-1) Q_NX - K) / (N-1-K);  LCMC = Q_NX - K/(N-1)
  T(K) = 1 - 2/(N K (2N-3K-1)) sum_{k>K, l<=K} (k-K) Q_kl;  C(K) likewise with k and l swapped
  MRRE_intrusion(K) = sum_{l<=K} |k-l|/k Q_kl / H_K,  MRRE_extrusion(K) = sum_{k<=K} |k-l|/l Q_kl / H_K,
  H_K = N sum_{k=1}^K |N-2k|/k
  AUC = sum_{K=1}^{N-2} R_NX(K)/K / sum_{K=1}^{N-2} 1/K (Lee, Peluffo-Ordonez & Verleysen 2015)
  stress = sum (delta-d)^2 / sum delta^2;  shepard_spearman = scipy.stats.spearmanr over all pairs.
Small-integer coordinates give many exactly tied distances (and duplicate points), so the tie rule
is exercised; their squared distances are exact in any summation order.

Writes tests/fixtures/quality/coranking_points.csv (N rows: 4 input coordinates, then 2 embedding
coordinates) and coranking_expected.csv (measure,K,value; K = 0 for measures without K).
Run from the repository root: /usr/bin/python3 scripts/make_fixtures_coranking.py
"""
import os

import numpy as np
from scipy.spatial.distance import pdist
from scipy.stats import spearmanr

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "quality")


def ranks(X):
    n = X.shape[0]
    D = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    R = np.zeros((n, n), dtype=int)
    for i in range(n):
        others = np.array([j for j in range(n) if j != i])
        order = others[np.lexsort((others, D[i, others]))]  # by distance, then index
        R[i, order] = np.arange(1, n)
    return R


def measures(high, low, ks):
    n = high.shape[0]
    rho, r = ranks(high), ranks(low)
    Q = np.zeros((n - 1, n - 1))
    for i in range(n):
        for j in range(n):
            if i != j:
                Q[rho[i, j] - 1, r[i, j] - 1] += 1
    k_idx = np.arange(1, n)[:, None]  # input rank of row
    l_idx = np.arange(1, n)[None, :]  # embedding rank of column
    out = []

    def qnx(K):
        return Q[:K, :K].sum() / (K * n)

    def rnx(K):
        return ((n - 1) * qnx(K) - K) / (n - 1 - K)

    for K in ks:
        norm = 2.0 / (n * K * (2 * n - 3 * K - 1))
        T = 1 - norm * (((k_idx - K) * Q)[K:, :K]).sum()
        C = 1 - norm * (((l_idx - K) * Q)[:K, K:]).sum()
        H = n * sum(abs(n - 2 * k) / k for k in range(1, K + 1))
        mi = ((np.abs(k_idx - l_idx) / k_idx) * Q)[:, :K].sum() / H
        me = ((np.abs(k_idx - l_idx) / l_idx) * Q)[:K, :].sum() / H
        out += [("trustworthiness", K, T), ("continuity", K, C), ("qnx", K, qnx(K)),
                ("rnx", K, rnx(K)), ("lcmc", K, qnx(K) - K / (n - 1)),
                ("mrre_intrusion", K, mi), ("mrre_extrusion", K, me)]
    Ks = np.arange(1, n - 1)
    auc = sum(rnx(K) / K for K in Ks) / (1.0 / Ks).sum()
    dh, dl = pdist(high), pdist(low)
    out += [("rnx_auc", 0, auc), ("stress", 0, ((dh - dl) ** 2).sum() / (dh ** 2).sum()),
            ("shepard_spearman", 0, spearmanr(dh, dl).correlation)]
    return out


def main():
    rng = np.random.RandomState(7103)
    n = 70
    high = rng.randint(0, 4, size=(n, 4)).astype(float)
    low = np.column_stack([high[:, 0] + high[:, 1], high[:, 2]]) + rng.randint(0, 2, size=(n, 2))
    os.makedirs(OUT, exist_ok=True)
    np.savetxt(os.path.join(OUT, "coranking_points.csv"), np.hstack([high, low]), delimiter=",",
               fmt="%.17g")
    with open(os.path.join(OUT, "coranking_expected.csv"), "w") as f:
        for name, K, v in measures(high, low, [1, 3, 7, 20, 34]):
            f.write(f"{name},{K},{v:.17g}\n")
    print("numpy", np.__version__, "->", OUT)


if __name__ == "__main__":
    main()
