#!/usr/bin/python3
"""Reference LDA start of NCA from scikit-learn for tests/unit/test_linear_nca_lda.cpp.

Run once from the repository root: /usr/bin/python3 scripts/make_nca_lda_fixture.py
Uses the wine halves of tests/fixtures/nca_sklearn.txt (scripts/make_nca_fixture.py).
tests/fixtures/nca_lda_sklearn.txt holds (columns padded with zeros to 13):
- LinearDiscriminantAnalysis(n_components=2).fit(train).scalings_.T[:2] (2 x 13): the start
  NeighborhoodComponentsAnalysis(init='lda') (and init='auto' when dims < classes) takes;
- one row [1-NN test error of NCA(2, init='lda', max_iter=50) fitted on the training half,
  the same for init='pca'].
"""
import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.neighbors import KNeighborsClassifier, NeighborhoodComponentsAnalysis

F = np.loadtxt("tests/fixtures/nca_sklearn.txt")
Xtr, ytr = F[0:13].T, F[13].astype(int)
Xte, yte = F[14:27].T, F[27].astype(int)

start = LinearDiscriminantAnalysis(n_components=2).fit(Xtr, ytr).scalings_.T[:2]


def nca_error(init):
    nca = NeighborhoodComponentsAnalysis(n_components=2, init=init, max_iter=50, random_state=0)
    nca.fit(Xtr, ytr)
    knn = KNeighborsClassifier(1).fit(nca.transform(Xtr), ytr)
    return np.mean(knn.predict(nca.transform(Xte)) != yte), nca


err_lda, nca = nca_error("lda")
err_pca, _ = nca_error("pca")
print("NCA(lda) iterations", nca.n_iter_, "1-NN test error", err_lda, "NCA(pca)", err_pca)
row = np.zeros(13)
row[:2] = [err_lda, err_pca]
np.savetxt("tests/fixtures/nca_lda_sklearn.txt", np.vstack([start, row]), fmt="%.17g")
