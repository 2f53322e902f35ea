#!/usr/bin/python3
"""Helper of benchmarks/tsne_fitsne.sh (see there).

  fitsne-input MATRIX ITER PATH   bench_tsne's matrix.f64 (tsne_auto.py prepare) as FIt-SNE's
                                  input file: its parameters as fast_tsne.py writes them for
                                  drbench's schedule (perplexity 30, ITER iterations, 250 of them
                                  at exaggeration 12 and momentum 0.5, then 0.8, learning rate
                                  max(n / 12, 200), FFT gradient with 3 nodes per interval and at
                                  least 50 intervals of at most 1 unit), the data, seed 1 and
                                  fast_tsne.py's PCA start (the first two PCA scores, scaled to
                                  std 1e-4 along the first: the matrix holds PCA scores already).
  table FILE                      FILE's lines "n who iterations cpu_seconds" (several runs of
                                  each) as a Markdown table of CPU ms per iteration: the median of
                                  the long runs less the median of the 1-iteration runs (the
                                  neighbour search and P), over the iterations between them.
  phases FILE CPU ITER            `perf report --sort dso,symbol` output of a run of ITER
                                  iterations that took CPU seconds: each phase in CPU ms per
                                  iteration.
"""
import re
import statistics
import struct
import sys
from collections import defaultdict

import numpy as np


def fitsne_input(matrix, iterations, path):
    with open(matrix, "rb") as f:
        n, d = np.frombuffer(f.read(16), dtype="<u8")
        X = np.frombuffer(f.read(), dtype="<f8").reshape(int(n), int(d))
    n, d = X.shape
    init = X[:, :2] / np.std(X[:, 0]) * 1e-4
    perplexity, trees = 30.0, 50
    with open(path, "wb") as f:
        f.write(struct.pack("=iidd", n, d, 0.5, perplexity))
        f.write(struct.pack("=iiii", 2, iterations, 250, 250))  # dims, iterations, exaggerated, momentum switch
        f.write(struct.pack("=dddd", 0.5, 0.8, max(n / 12.0, 200.0), -1.0))  # momenta, rate, no step clip
        f.write(struct.pack("=idii", -1, -1.0, 2, 1))  # K = 3 x perplexity, no sigma, FFT, Annoy
        f.write(struct.pack("=di", 12.0, 0))  # early exaggeration, momentum during it
        f.write(struct.pack("=iiid", trees, int(3 * perplexity * trees), -1, -1.0))  # no late exaggeration
        f.write(struct.pack("=idi", 3, 1.0, 50))  # nodes, intervals per unit, min intervals
        f.write(np.ascontiguousarray(X, dtype="<f8").tobytes())
        f.write(struct.pack("=idi", 1, 1.0, 0))  # seed, Cauchy kernel, affinities neither saved nor loaded
        f.write(np.ascontiguousarray(init, dtype="<f8").tobytes())


def table(path):
    runs = defaultdict(list)
    for line in open(path):
        n, who, its, cpu = line.split()
        runs[(int(n), who, int(its))].append(float(cpu))
    long_its = max(k[2] for k in runs)
    has_base = any(k[1] == "base" for k in runs)
    print("| n |" + (" drbench before ms/it |" if has_base else "") +
          " drbench ms/it | FIt-SNE ms/it | drbench / FIt-SNE | runs |")
    print("|---|" + ("---:|" if has_base else "") + "---:|---:|---:|---|")
    for n in sorted({k[0] for k in runs}):
        per = {}
        for who in ("base", "drbench", "fitsne") if has_base else ("drbench", "fitsne"):
            base = statistics.median(runs[(n, who, 1)])
            per[who] = (statistics.median(runs[(n, who, long_its)]) - base) / (long_its - 1) * 1e3
        reps = len(runs[(n, "drbench", long_its)])
        before = f" {per['base']:.1f} |" if has_base else ""
        print(f"| {n:,} |{before} {per['drbench']:.1f} | {per['fitsne']:.1f} | "
              f"{per['drbench'] / per['fitsne']:.2f} | {reps} x {long_its} it. |")


# Phases by symbol (or library), first match wins; both programs' symbols. FIt-SNE's
# computeFftGradient holds its attractive loop and the gradient's assembly; drbench's
# FftKernelSums::operator() the spreading and its own share of the convolution.
PHASES = [
    ("FFT (FFTW)", r"^libfftw3"),
    ("attractive forces", r"sparse_edge_sums|attractive|computeFftGradient$"),
    ("KL (logs)", r"log|evaluateError"),
    ("Lagrange weights", r"NodeWeights|^interpolate$"),
    ("kernel grid", r"fill_kernel_grid|precompute_2d|squared_cauchy|_Function_handler"),
    ("spread, products, interpolate", r"n_body_fft_2d|kernel_sums|FftKernelSums|multiply_transforms"),
    ("optimiser step, assembly", r"momentum_descent|TSNE::run|zeroMean|fft_gradient"),
    ("system (scheduler, page faults), memset, malloc", r"memset|memmove|memcpy|malloc|free|^\[kernel"),
]
SETUP = r"annoy|Annoy|nns|_make_tree|create_split|perplexity|Perplexity|neighbour|knn|scan_avx|offer|" \
    r"self_graph|symmetrize|introsort|adjust_heap|SpMat|spglue|spop|sort|calibrate|pow|exp|gemm|openblas"


def phases(path, total_cpu, iterations):
    """Each phase's share of the run's samples as CPU ms per iteration (the setup, neighbours and
    P, apart: CPU seconds for the whole run)."""
    share = defaultdict(float)
    for line in open(path):
        m = re.match(r"\s*([0-9.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)[\s-]*$", line)
        if not m:
            continue
        pct, dso, sym = float(m.group(1)), m.group(2), m.group(4)
        key = dso if dso.startswith("libfftw3") else ("[kernel]" if m.group(3) == "k" else sym)
        for name, pat in PHASES:
            if re.search(pat, key):
                share[name] += pct
                break
        else:
            share["setup: neighbours, P" if re.search(SETUP, sym) else "other"] += pct
    per_it = total_cpu / iterations * 1e3 / 100
    for name in [p[0] for p in PHASES] + ["other"]:
        print(f"  {name}: {share[name] * per_it:.1f} ms/it ({share[name]:.1f} %)")
    setup = share["setup: neighbours, P"]
    print(f"  setup (neighbours, P): {setup / 100 * total_cpu:.1f} s in all ({setup:.1f} %)")


if __name__ == "__main__":
    if sys.argv[1] == "fitsne-input":
        fitsne_input(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        phases(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]))
