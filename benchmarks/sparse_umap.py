#!/usr/bin/env python3
"""UMAP on sparse points: the neighbour graph from the sparse rows (an AnnData CSR file, the
points handed to UMAP sparse) against densify-first (the same values written dense), one
process after the other in the same invocation, each under /usr/bin/time -v.

A TF-IDF-like set: `classes` topics of 200 words each over a `d`-word vocabulary; each document
draws words (`topic` of them, default 70 %, from its topic, the rest from the whole vocabulary by a
Zipf law) until about
`density` of the vocabulary is used, tf = 1 + log(count), idf = log(n / df), rows scaled to unit
length. Both runs: UMAP with neighbour_graph: exact, 200 epochs, one thread, the transductive
protocol, 80 % of each class labelled; the 1-NN error classifies the other 20 % in the embedding.

    python3 benchmarks/sparse_umap.py --n 10000 --d 5000 --density 0.02 --out /tmp/sparse_umap

prints the markdown table of docs/benchmarks.md ("UMAP on sparse points")."""
import argparse
import os
import re
import subprocess
import sys

import h5py
import numpy as np
import scipy.sparse

CONFIG = """name: sparse_umap_{tag}
seed: 3
threads: 1
datasets:
  - name: tfidf
    {source}
splits:
  train_ratio: [0.8]
methods:
  - {{method: umap, label: UMAP, dims: [2], grid: {{neighbour_graph: exact, iterations: 200}}}}
evaluation:
  knn: [1]
  protocol: transductive
output:
  path: {out}
  keep_embeddings: true
  keep_traces: true
"""


def tfidf(n, d, density, classes, seed, topic_share=0.7):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % classes
    words = max(1, int(density * d))
    zipf = 1.0 / np.arange(1, d + 1)
    zipf /= zipf.sum()
    rows, cols = [], []
    for i in range(n):
        topic = rng.integers(y[i] * 200, (y[i] + 1) * 200, size=int(topic_share * words)) % d
        rest = rng.choice(d, size=words - len(topic), p=zipf)
        w = np.concatenate([topic, rest])
        rows.append(np.full(len(w), i))
        cols.append(w)
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    counts = scipy.sparse.coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, d)).tocsr()
    counts.sum_duplicates()
    df = np.bincount(counts.indices, minlength=d)
    idf = np.log(n / np.maximum(df, 1))
    X = counts.copy()
    X.data = (1.0 + np.log(X.data)) * idf[X.indices]
    X.eliminate_zeros()
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    X = scipy.sparse.diags(1.0 / np.maximum(norms, 1e-300)) @ X
    return X.tocsr(), y


def write(out, X, y):
    names = np.array([f"topic{c:02d}" for c in range(y.max() + 1)])[y]
    with h5py.File(os.path.join(out, "tfidf.h5ad"), "w") as f:
        f.attrs["encoding-type"] = "anndata"
        g = f.create_group("X")
        g.attrs["encoding-type"] = "csr_matrix"
        g.attrs["shape"] = np.array(X.shape, dtype=np.int64)
        g["data"], g["indices"], g["indptr"] = X.data, X.indices, X.indptr
        obs = f.create_group("obs")
        obs["topic"] = np.array(list(names), dtype=h5py.string_dtype())
    with h5py.File(os.path.join(out, "tfidf_dense.h5"), "w") as f:
        f["X"], f["y"] = X.toarray(), y.astype(np.int32)


def run(binary, out, tag, source):
    cfg = os.path.join(out, tag + ".yaml")
    res = os.path.join(out, tag + ".h5")
    if os.path.exists(res):
        os.remove(res)
    with open(cfg, "w") as f:
        f.write(CONFIG.format(tag=tag, source=source, out=res))
    p = subprocess.run(["/usr/bin/time", "-v", binary, "run", cfg, "--memory-per-rank", "16G"],
                       capture_output=True, text=True, cwd=out)
    if p.returncode != 0:
        sys.exit(p.stderr)

    def field(name):
        return float(re.search(re.escape(name) + r": ([0-9.]+)", p.stderr).group(1))

    with h5py.File(res, "r") as f:
        t = f["tasks"]
        err = float(t["knn_error"][0][0]) if t["knn_error"].ndim > 1 else float(t["knn_error"][0])
        notes = {}
        for name in f["traces"]:
            for s in f["traces"][name].attrs["notes"]:
                s = s.decode() if isinstance(s, bytes) else s
                k, _, v = s.partition("=")
                notes[k] = v
        E = f["embeddings/" + list(f["embeddings"])[0] + "/train"][()]
        return {"err": err, "fit": float(t["fit_seconds"][0]),
                "graph_cpu": float(notes.get("cpu_seconds_graph", "nan")),
                "user": field("User time (seconds)"), "sys": field("System time (seconds)"),
                "rss": field("Maximum resident set size (kbytes)") / 1024.0,
                "graph": notes.get("neighbour_graph", "?"), "E": E}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--d", type=int, default=5000)
    ap.add_argument("--density", type=float, default=0.02)
    ap.add_argument("--classes", type=int, default=10)
    ap.add_argument("--topic", type=float, default=0.7, help="share of a document's words drawn "
                    "from its class's topic (lower: classes overlap more)")
    ap.add_argument("--out", default="/tmp/sparse_umap")
    ap.add_argument("--bin", default="build/drbench")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    a.bin = os.path.abspath(a.bin)
    X, y = tfidf(a.n, a.d, a.density, a.classes, 7, a.topic)
    write(a.out, X, y)
    print(f"{a.n} x {a.d}, {100.0 * X.nnz / (a.n * a.d):.2f} % stored, "
          f"sparse {16 * X.nnz / 2**20:.0f} MiB, dense {8 * a.n * a.d / 2**20:.0f} MiB")
    rows = [("sparse graph (.h5ad CSR)", run(a.bin, a.out, "sparse", "path: tfidf.h5ad\n    labels: topic")),
            ("densify first (.h5 dense)", run(a.bin, a.out, "dense", "path: tfidf_dense.h5"))]
    print("| input | neighbour graph | 1-NN error | fit wall s | graph CPU s | process CPU s "
          "(user+sys) | peak RSS MiB |")
    print("|---|---|---|---|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r['graph']} | {100 * r['err']:.2f} % | {r['fit']:.1f} | "
              f"{r['graph_cpu']:.1f} | {r['user'] + r['sys']:.1f} | {r['rss']:.0f} |")
    same = np.array_equal(rows[0][1]["E"], rows[1][1]["E"])
    print(f"embeddings identical: {same}")


if __name__ == "__main__":
    main()
