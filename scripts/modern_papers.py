#!/usr/bin/env python3
"""The PaCMAP/TriMap papers' Fashion-MNIST rows beside drbench's (configs/modern_papers.yaml).

Reads results/modern_papers.h5 (run with keep_embeddings) and, for every finished task, puts
drbench's own stored values (kNN error leave-one-out, random_triplet, centroid_triplet,
global_score) beside the same measures recomputed here from the stored embedding in plain
numpy / scikit-learn, written from the papers' definitions:
  - kNN accuracy leave-one-out (sklearn NearestNeighbors, majority vote);
  - random triplet accuracy: 5 random (j, k) per point with numpy's generator (not drbench's
    triplets: the two estimates differ by sampling only, about 0.001 at 70,000 points);
  - centroid triplet accuracy: class means, every pair of class-pair distances;
  - TriMap's global score, against the 100-D PCA input (drbench's protocol) and against the
    784-D [0, 1] pixels (the reference implementation's global_score takes whatever X it is given).
Writes results/modern_papers.csv (one row per method label: mean and std over seeds of each) and
prints it. Usage (repository root):
  /usr/bin/python3 scripts/modern_papers.py [RESULTS.h5 ...]
(default: results/modern_papers.h5 and, when present, results/modern_papers-tsne_random.h5)
"""
import os
import sys

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA
from sklearn.neighbors import NearestNeighbors

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from drbench import results  # noqa: E402
# The papers' centroid triplet accuracy and TriMap's global score as the tests' numpy fixture
# writes them (scripts/make_fixtures_global_measures.py): one reference, written from the papers.
from make_fixtures_global_measures import centroid_triplet, global_score  # noqa: E402
from fmnist_idx import FMNIST, read_idx  # noqa: E402


def load_pixels():
    parts = [read_idx(f"{FMNIST}/{p}-images-idx3-ubyte.gz").reshape(-1, 784) for p in ("train", "t10k")]
    X = np.vstack(parts).astype(np.float64)
    return (X - X.min()) / (X.max() - X.min())  # one global min/max, as the config


def knn_acc(Y, y, ks):
    nn = NearestNeighbors(n_neighbors=max(ks) + 1).fit(Y)
    _, idx = nn.kneighbors(Y)
    out = {}
    for k in ks:
        votes = y[idx[:, 1:k + 1]]
        pred = np.array([np.bincount(v, minlength=10).argmax() for v in votes])
        out[k] = np.mean(pred == y)
    return out


def random_triplet(X, Y, rng, per=5):
    n = X.shape[0]
    i = np.repeat(np.arange(n), per)
    j = rng.integers(0, n, i.size)
    k = rng.integers(0, n, i.size)
    ok = (j != i) & (k != i) & (j != k)
    i, j, k = i[ok], j[ok], k[ok]
    d = lambda Z, a, b: np.einsum("ij,ij->i", Z[a] - Z[b], Z[a] - Z[b])
    return np.mean((d(X, i, j) < d(X, i, k)) == (d(Y, i, j) < d(Y, i, k)))


def main():
    paths = sys.argv[1:] or [p for p in ("results/modern_papers.h5",
                                         "results/modern_papers-tsne_random.h5")
                             if os.path.exists(p)]
    pixels = load_pixels()
    pca_of = {}  # the 100-D input of each point set, PCA fitted on those points (as drbench)
    rows = []
    for path in paths:
        r = results.load(path)
        t = r.tasks[r.tasks["ok"]] if "ok" in r.tasks else r.tasks
        rows += score_tasks(r, t, pixels, pca_of)
    write(rows, os.path.splitext(paths[0])[0] + ".csv")


def score_tasks(r, t, pixels, pca_of):
    rows = []
    for _, task in t.iterrows():
        e = r.embedding(int(task["id"]))
        e = e.sort_values("index")
        idx = e["index"].to_numpy()
        y = e["label"].to_numpy().astype(int)
        Y = e[[c for c in e.columns if c.startswith("z")]].to_numpy()
        xp = pixels[idx]
        key = (idx.size, int(idx.sum()))
        if key not in pca_of:
            pca_of[key] = PCA(n_components=100, svd_solver="full").fit_transform(xp)
        x100 = pca_of[key]
        acc = knn_acc(Y, y, [1, 5, 10])
        rng = np.random.default_rng(int(task["id"]))
        rows.append({
            "method": task["label"], "seed_repeat": task.get("repeat", np.nan),
            "fit_seconds": task.get("fit_seconds", np.nan),
            **{f"drbench_acc_k{k}": 1 - task[f"error_k{k}"] for k in (1, 5, 10)},  # errors are fractions
            "drbench_random_triplet": task["random_triplet"],
            "drbench_centroid_triplet": task["centroid_triplet"],
            "drbench_global_score": task["global_score"],
            **{f"numpy_acc_k{k}": acc[k] for k in (1, 5, 10)},
            "numpy_random_triplet": random_triplet(x100, Y, rng),
            "numpy_centroid_triplet": centroid_triplet(x100, Y, y),
            "numpy_global_score_pca100": global_score(x100, Y),
            "numpy_global_score_pixels": global_score(xp, Y),
        })
        print(rows[-1], flush=True)
    return rows


def write(rows, out_path):
    df = pd.DataFrame(rows)
    g = df.drop(columns=["seed_repeat"]).groupby("method", sort=False)
    out = g.mean().add_suffix("_mean").join(g.std().add_suffix("_std")).join(g.size().rename("seeds"))
    out = out[sorted(out.columns, key=lambda c: (c.rsplit("_", 1)[0], c))]
    out.to_csv(out_path, float_format="%.4f")
    with pd.option_context("display.width", 250, "display.max_columns", 50):
        print(out.round(4).T)


if __name__ == "__main__":
    main()
