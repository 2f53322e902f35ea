#!/usr/bin/python3
"""Helper of benchmarks/tsne_auto.sh (see there).

  prepare N PATH   Fashion-MNIST's first N training images, one global min/max to [0, 1], PCA to
                   50-D (SVD of the centred data), as bench_tsne's matrix.f64.
  table FILE ITER  FILE's lines "n dims gradient {bench_tsne json}" as a Markdown table: CPU
                   seconds per iteration (the fit's CPU time less that of the 1-iteration fit of the
                   same n, which is the neighbour search and P, over the iterations between them)
                   and the ratio FFT / Barnes-Hut.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from fmnist_idx import FMNIST, read_idx  # noqa: E402


def prepare(n, path):
    X = read_idx(os.path.join(FMNIST, "train-images-idx3-ubyte.gz"))[:n].reshape(n, -1)
    X = X.astype(np.float64)
    X = (X - X.min()) / (X.max() - X.min())
    Xc = X - X.mean(axis=0)
    U, s, _ = np.linalg.svd(Xc, full_matrices=False)
    Z = np.ascontiguousarray(U[:, :50] * s[:50])
    with open(path, "wb") as f:
        f.write(np.array([Z.shape[0], Z.shape[1]], dtype="<u8").tobytes())
        f.write(Z.astype("<f8").tobytes())


def table(path, iterations):
    runs = {}
    for line in open(path):
        n, dims, grad, js = line.split(" ", 3)
        runs[(int(n), dims, grad)] = json.loads(js)
    print("| n | dims | Barnes-Hut s/it | FFT s/it | FFT / BH |")
    print("|---|---|---|---|---|")
    for n, dims in sorted({(k[0], k[1]) for k in runs if k[1] != "base"}, key=lambda k: (k[1], k[0])):
        base = runs[(n, "base", "barnes_hut")]
        its = iterations - 1

        def per_it(g):
            return (runs[(n, dims, g)]["cpu_seconds"] - base["cpu_seconds"]) / its

        bh, fft = per_it("barnes_hut"), per_it("fft")
        print(f"| {n:,} | {dims} | {bh * 1e3:.1f} ms | {fft * 1e3:.1f} ms | {fft / bh:.2f} |")


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(int(sys.argv[2]), sys.argv[3])
    else:
        table(sys.argv[2], int(sys.argv[3]))
