#!/usr/bin/python3
"""Reference embeddings from scikit-learn for tests/unit/test_linear_catalogue.cpp.

Run once from the repository root: /usr/bin/python3 scripts/make_linear_catalogue_fixtures.py
Each file holds X (d rows, one column per point) followed by sklearn's embedding (dim rows):
- tests/fixtures/factor_analysis_sklearn.txt: 5 x 80 data from 2 factors with unequal noise,
  FactorAnalysis(n_components=2) (svd_method='lapack', tol=1e-2, max_iter=1000), fit_transform;
  factor_analysis_sklearn_new.txt: 10 new points (5 rows) and their transform (2 rows).
- tests/fixtures/truncated_svd_sklearn.txt: 6 x 50 non-negative data, TruncatedSVD(3,
  algorithm='arpack').
- tests/fixtures/fastica_sklearn.txt: 3 independent non-Gaussian sources (uniform, Laplace,
  square wave) mixed into 4 x 400, FastICA(3, whiten='unit-variance', fun='logcosh'), with
  algorithm 'parallel' (rows 4-6) and 'deflation' (rows 7-9); the sources themselves in rows
  10-12. ICA is unique up to order and sign, which the test allows.
"""
import numpy as np
from sklearn.decomposition import FactorAnalysis, FastICA, TruncatedSVD


def save(path, *blocks):
    np.savetxt(path, np.vstack(blocks), fmt="%.17g")


rng = np.random.default_rng(44)

# Factor analysis: x = W z + mu + e, diagonal noise of different variances.
W = rng.standard_normal((5, 2))
Z = rng.standard_normal((2, 90))
noise = np.sqrt(np.array([0.05, 0.2, 0.1, 0.4, 0.02]))[:, None]
X = W @ Z + np.array([1.0, -2.0, 0.5, 0.0, 3.0])[:, None] + noise * rng.standard_normal((5, 90))
Xtr, Xte = X[:, :80], X[:, 80:]
fa = FactorAnalysis(n_components=2).fit(Xtr.T)
print("factor analysis iterations:", fa.n_iter_)
save("tests/fixtures/factor_analysis_sklearn.txt",
     Xtr, fa.transform(Xtr.T).T)
save("tests/fixtures/factor_analysis_sklearn_new.txt", Xte, fa.transform(Xte.T).T)

# Truncated SVD of uncentred non-negative data.
X = rng.gamma(2.0, 1.0, (6, 50))
Y = TruncatedSVD(n_components=3, algorithm="arpack", random_state=0).fit_transform(X.T).T
save("tests/fixtures/truncated_svd_sklearn.txt", X, Y)

# FastICA on a linear mixture of independent sources.
t = np.linspace(0, 8, 400)
S = np.vstack([rng.uniform(-1, 1, 400), rng.laplace(0, 1, 400), np.sign(np.sin(3 * t))])
A = rng.standard_normal((4, 3))
X = A @ S + 0.001 * rng.standard_normal((4, 400))
par = FastICA(n_components=3, algorithm="parallel", whiten="unit-variance", fun="logcosh",
              random_state=0, max_iter=1000, tol=1e-8).fit_transform(X.T).T
defl = FastICA(n_components=3, algorithm="deflation", whiten="unit-variance", fun="logcosh",
               random_state=0, max_iter=1000, tol=1e-8).fit_transform(X.T).T
save("tests/fixtures/fastica_sklearn.txt", X, par, defl, S)
