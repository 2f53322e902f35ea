#!/usr/bin/python3
"""scikit-learn's exact neighbour search on the shapes of benchmarks/bench_knn.cpp (BM_KnnPath):
Gaussian points, k = 5, 5,000 test against 5,000 training points in 2..32 dimensions and 1,000 vs
1,000 in 12-D; one thread. Prints the median wall time of fit + kneighbors in milliseconds for
the k-d tree, the ball tree and brute force.

    /usr/bin/python3 scripts/bench_knn_sklearn.py [repeats]
"""
import os
import sys

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"

import time  # noqa: E402

import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from sklearn.neighbors import NearestNeighbors  # noqa: E402


def median_ms(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * float(np.median(times))


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    rng = np.random.default_rng(4)
    print(f"scikit-learn {sklearn.__version__}, k = 5, median of {repeats}, ms")
    print(f"{'dim':>4} {'train':>6} {'test':>6} {'kd_tree':>9} {'ball_tree':>9} {'brute':>9}")
    for d, n, m in [(2, 5000, 5000), (9, 5000, 5000), (16, 5000, 5000), (20, 5000, 5000),
                    (32, 5000, 5000), (12, 1000, 1000)]:
        train, test = rng.standard_normal((n, d)), rng.standard_normal((m, d))
        row = []
        for algo in ("kd_tree", "ball_tree", "brute"):
            nn = NearestNeighbors(n_neighbors=5, algorithm=algo, n_jobs=1)
            row.append(median_ms(lambda: nn.fit(train).kneighbors(test), repeats))
        print(f"{d:>4} {n:>6} {m:>6} " + " ".join(f"{t:>9.1f}" for t in row))


if __name__ == "__main__":
    main()
