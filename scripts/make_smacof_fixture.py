#!/usr/bin/python3
"""Reference SMACOF run from scikit-learn for tests/unit/test_manifold_smacof.cpp.

Run once from the repository root: /usr/bin/python3 scripts/make_smacof_fixture.py
Writes tests/fixtures/smacof_sklearn.txt: rows 0-4 X (5 x 40, one column per point), rows 5-6 a
start configuration (2 x 40), rows 7-8 sklearn.manifold.smacof(metric=True) from that start after
exactly 60 Guttman transforms (eps=0), and row 9 (first entry) its raw stress; row 9's second
entry is the stress of MDS(metric=True, n_init=4, random_state=0), the best of four random starts.
"""
import warnings

import numpy as np
from sklearn.manifold import MDS, smacof
from sklearn.metrics import euclidean_distances

warnings.simplefilter("ignore")
rng = np.random.default_rng(21)
X = rng.standard_normal((40, 5)) * np.array([3.0, 2.0, 1.0, 0.5, 0.2])
D = euclidean_distances(X)
start = rng.standard_normal((40, 2))
Y, stress = smacof(D, metric=True, n_components=2, init=start, n_init=1, max_iter=60, eps=0.0,
                   normalized_stress=False)
mds = MDS(n_components=2, metric=True, n_init=4, random_state=0, normalized_stress=False).fit(X)
info = np.zeros((1, 40))
info[0, 0] = stress
info[0, 1] = mds.stress_
np.savetxt("tests/fixtures/smacof_sklearn.txt", np.vstack([X.T, start.T, Y.T, info]), fmt="%.17g")
