"""A large dense benchmark set from Fashion-MNIST: the 70,000 images (train then test) scaled by one
global min/max to [0, 1], projected on their first 50 principal components, then repeated until
there are n points, every copy under independent Gaussian jitter of standard deviation `jitter`
(in PCA units; 0.1 moves a copy about 0.7 in 50-D, a third of a typical nearest-neighbour distance
between different images). Labels are the images' classes. Seeded: the same file for the same
arguments.

    /usr/bin/python3 scripts/make_fmnist_1m.py OUT.h5 [--n 1000000] [--dims 50] [--jitter 0.1]
                                                   [--seed 1]

OUT.h5 holds X (n x dims, float32) and y (n, int32) in drbench's HDF5 layout (docs/data.md), for
configs/million.yaml. Point i is image i mod 70,000 plus its jitter."""
import argparse
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fmnist_idx import FMNIST, read_idx  # noqa: E402


def fashion_pca(dims):
    parts = [("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
             ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")]
    X = np.concatenate([read_idx(os.path.join(FMNIST, i)).reshape(-1, 784) for i, _ in parts])
    y = np.concatenate([read_idx(os.path.join(FMNIST, l)) for _, l in parts]).astype(np.int32)
    X = X.astype(np.float64)
    X = (X - X.min()) / (X.max() - X.min())
    X -= X.mean(axis=0)
    # Principal axes from the 784 x 784 covariance: cheaper than an SVD of 70,000 x 784.
    vals, vecs = np.linalg.eigh(X.T @ X)
    V = vecs[:, np.argsort(vals)[::-1][:dims]]
    # Signs fixed by the largest entry of each axis, so the file does not depend on LAPACK.
    V *= np.sign(V[np.argmax(np.abs(V), axis=0), np.arange(dims)])
    return X @ V, y


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--n", type=int, default=1000000)
    ap.add_argument("--dims", type=int, default=50)
    ap.add_argument("--jitter", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.n < 1 or not 1 <= a.dims <= 784 or a.jitter < 0:
        sys.exit("make_fmnist_1m.py: need --n >= 1, 1 <= --dims <= 784, --jitter >= 0")
    P, labels = fashion_pca(a.dims)
    rng = np.random.default_rng(a.seed)
    src = np.arange(a.n) % P.shape[0]
    X = (P[src] + a.jitter * rng.standard_normal((a.n, a.dims))).astype(np.float32)
    tmp = a.out + ".part"
    with h5py.File(tmp, "w") as f:
        f["X"] = X
        f["y"] = labels[src]
        f.attrs["source"] = ("Fashion-MNIST 70,000 images, minmax, PCA %d, repeated to %d points "
                             "with Gaussian jitter %g, seed %d" % (a.dims, a.n, a.jitter, a.seed))
    os.replace(tmp, a.out)


if __name__ == "__main__":
    main()
