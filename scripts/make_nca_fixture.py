#!/usr/bin/python3
"""Reference NCA from scikit-learn's NeighborhoodComponentsAnalysis for tests/unit/test_linear_nca.cpp.

Run once from the repository root: /usr/bin/python3 scripts/make_nca_fixture.py
tests/fixtures/nca_sklearn.txt holds (columns padded with zeros to 89):
- the training half of scikit-learn's wine, standardised (13 rows, 89 points), their labels (1 row);
- the test half (13 rows, 89 points) and its labels (1 row);
- a fixed transformation L (2 x 13) and scikit-learn's loss at it ([-sum_i p_i], 1 row) and its
  gradient (2 x 13) on the training half (_loss_grad_lbfgs, the objective L-BFGS-B minimises);
- one row [1-NN test error of NCA(2, init='pca', max_iter=50) fitted on the training half,
  the same for PCA(2)].
"""
import numpy as np
from sklearn.datasets import load_wine
from sklearn.decomposition import PCA
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier, NeighborhoodComponentsAnalysis
from sklearn.preprocessing import StandardScaler

X, y = load_wine(return_X_y=True)
X = StandardScaler().fit_transform(X)
Xtr, Xte, ytr, yte = train_test_split(X, y, train_size=89, stratify=y, random_state=0)

nca = NeighborhoodComponentsAnalysis(n_components=2, init="pca", max_iter=50, random_state=0)
nca.fit(Xtr, ytr)
knn = KNeighborsClassifier(1).fit(nca.transform(Xtr), ytr)
err_nca = np.mean(knn.predict(nca.transform(Xte)) != yte)
pca = PCA(2).fit(Xtr)
err_pca = np.mean(KNeighborsClassifier(1).fit(pca.transform(Xtr), ytr)
                  .predict(pca.transform(Xte)) != yte)
print("NCA iterations", nca.n_iter_, "1-NN test error", err_nca, "PCA", err_pca)

rng = np.random.default_rng(7)
L = 0.3 * rng.standard_normal((2, 13))
probe = NeighborhoodComponentsAnalysis(n_components=2)
probe.n_iter_, probe.verbose = 0, 0
mask = ytr[:, None] == ytr[None, :]
loss, grad = probe._loss_grad_lbfgs(L.ravel(), Xtr, mask, -1.0)
grad = grad.reshape(2, 13)


def pad(M, width=89):
    M = np.atleast_2d(M)
    return np.hstack([M, np.zeros((M.shape[0], width - M.shape[1]))])


np.savetxt("tests/fixtures/nca_sklearn.txt",
           np.vstack([Xtr.T, ytr[None, :], pad(Xte.T), pad(yte), pad(L), pad([loss]), pad(grad),
                      pad([err_nca, err_pca])]), fmt="%.17g")
