#!/usr/bin/python3
"""Helper of benchmarks/fmnist_tsne_opentsne.sh (see there): prepares the shared input, runs
openTSNE, and scores both embeddings the same way.

  prepare WORK N       Fashion-MNIST's first N training images, one global min/max to [0, 1], PCA
                       to 50-D (SVD of the centred data), written once to WORK/fmnist_pca50.h5
                       (X n x 50, y): the input of both programs.
  opentsne WORK        openTSNE on that input (FFT gradient, one thread), embedding to
                       WORK/opentsne.npy.
  score WORK           leave-one-out 1-NN error of WORK/opentsne.npy and of drbench's embedding
                       (WORK/drbench.h5, /embeddings/<task>/train), printed as one line each.
"""
import os
import sys
import time

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from fmnist_idx import FMNIST, read_idx  # noqa: E402


def prepare(work, n):
    X = read_idx(os.path.join(FMNIST, "train-images-idx3-ubyte.gz"))[:n].reshape(n, -1)
    y = read_idx(os.path.join(FMNIST, "train-labels-idx1-ubyte.gz"))[:n].astype(np.int64)
    X = X.astype(np.float64)
    X = (X - X.min()) / (X.max() - X.min())
    Xc = X - X.mean(axis=0)
    U, s, _ = np.linalg.svd(Xc, full_matrices=False)
    Z = U[:, :50] * s[:50]
    with h5py.File(os.path.join(work, "fmnist_pca50.h5"), "w") as f:
        f["X"] = Z
        f["y"] = y
    print(f"prepared {Z.shape[0]} x {Z.shape[1]}")


def load_input(work):
    with h5py.File(os.path.join(work, "fmnist_pca50.h5"), "r") as f:
        return f["X"][:], f["y"][:]


def run_opentsne(work):
    from openTSNE import TSNE

    X, _ = load_input(work)
    t0 = time.time()
    # drbench's schedule: exaggeration 12 for 250 iterations at momentum 0.5, then 500 at 0.8,
    # learning rate max(n / 12, 200), PCA start with std 1e-4, FFT gradient with 3 nodes per
    # interval and at least 50 intervals (openTSNE's defaults for the rest, neighbours included).
    emb = TSNE(
        n_components=2,
        perplexity=30,
        early_exaggeration_iter=250,
        early_exaggeration=12,
        n_iter=500,
        initial_momentum=0.5,
        final_momentum=0.8,
        learning_rate="auto",
        negative_gradient_method="fft",
        n_jobs=1,
        random_state=1,
    ).fit(X)
    print(f"openTSNE fit {time.time() - t0:.1f} s")
    np.save(os.path.join(work, "opentsne.npy"), np.asarray(emb))


def loo_1nn_error(E, y):
    from sklearn.neighbors import NearestNeighbors

    nn = NearestNeighbors(n_neighbors=2).fit(E)
    _, idx = nn.kneighbors(E)
    # The nearest point is the point itself unless a duplicate sits at distance 0 before it.
    other = np.where(idx[:, 0] == np.arange(len(E)), idx[:, 1], idx[:, 0])
    return 100.0 * np.mean(y[other] != y)


def score(work):
    _, y = load_input(work)
    rows = []
    path = os.path.join(work, "opentsne.npy")
    if os.path.exists(path):
        rows.append(("openTSNE", np.load(path), y))
    path = os.path.join(work, "drbench.h5")
    if os.path.exists(path):
        with h5py.File(path, "r") as f:
            for task in f["embeddings"]:
                g = f["embeddings"][task]
                rows.append(("drbench", g["train"][:], g["train_label"][:].astype(np.int64)))
    for name, E, labels in rows:
        print(f"{name:10s} loo_1nn_error_pct {loo_1nn_error(E, labels):.2f}")


if __name__ == "__main__":
    cmd, work = sys.argv[1], sys.argv[2]
    if cmd == "prepare":
        prepare(work, int(sys.argv[3]))
    elif cmd == "opentsne":
        run_opentsne(work)
    elif cmd == "score":
        score(work)
    else:
        sys.exit(f"unknown command {cmd}")
