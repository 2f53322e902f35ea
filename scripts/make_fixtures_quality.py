#!/usr/bin/env python3
"""Reference values for trustworthiness/continuity from scikit-learn (1.2.1, Debian python3-sklearn).

Writes tests/fixtures/quality/points.csv (n rows: 5 high-dimensional coordinates, then 2 embedding
coordinates; no header) and expected.csv (k, trustworthiness, continuity). Continuity is
sklearn's trustworthiness with the two spaces swapped (Venna & Kaski's definitions are symmetric
in that way). Random continuous data, so there are no distance ties for rank conventions to differ on.

Run from the repository root: /usr/bin/python3 scripts/make_fixtures_quality.py
"""
import os

import numpy as np
import sklearn
from sklearn.manifold import trustworthiness

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "quality")


def main():
    rng = np.random.RandomState(20011)
    n = 80
    high = rng.randn(n, 5) * np.array([3.0, 2.0, 1.0, 0.7, 0.5])
    # A lossy embedding: the two main axes, mixed and perturbed.
    low = high[:, :2] @ np.array([[1.0, 0.3], [-0.2, 1.0]]) + 0.8 * rng.randn(n, 2)
    os.makedirs(OUT, exist_ok=True)
    np.savetxt(os.path.join(OUT, "points.csv"), np.hstack([high, low]), delimiter=",", fmt="%.17g")
    with open(os.path.join(OUT, "expected.csv"), "w") as f:
        for k in (1, 5, 12, 30):
            t = trustworthiness(high, low, n_neighbors=k)
            c = trustworthiness(low, high, n_neighbors=k)
            f.write(f"{k},{t:.17g},{c:.17g}\n")
    print("sklearn", sklearn.__version__, "->", OUT)


if __name__ == "__main__":
    main()
