#!/usr/bin/env python3
"""Why DEE's Laplacian direction gains less over the fixed point on USPS (configs/
dee_optimizers_usps.yaml; results/dee_optimizers.md, "Why USPS").

Part 1, from a results file with traces: for each (dataset, setting) the LD / FP pair of every
repeat is compared as scripts/dee_time_to_target.py does (target: FP's final objective): the
iterations each needs to reach it, their ratio (0 where LD never reaches it, because it stopped
in a worse minimum), and how often both ended at the same minimum (final objectives within 1e-3).

Part 2, from the data files alone (no drbench): the generalised eigenvalues of FP's matrix
X D+ X' against LD's X L+ X' (each with drbench's ridge mu = 1e-3 trace / D), on 90 % of each
class as the fits use, w+ the same-class heat kernel with 2 sigma^2 = the mean same-class squared
distance. An eigenvalue r means FP's step along that direction is 1/r of LD's: LD can only gain
much where some r are large, i.e. where the within-class scatter is (nearly) singular relative
to the degree-weighted total scatter.

Usage: /usr/bin/python3 scripts/dee_usps_cause.py results/dee_optimizers_usps.h5 [DATA_DIR]
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "python"))
from drbench import results  # noqa: E402


def pairs_table(path):
    r = results.load(path)
    m = r.traces.merge(r.tasks[["id", "dataset", "label", "repeat"]], left_on="task_id",
                       right_on="id")
    settings = sorted({lab[3:] if lab.startswith("LD_") else "" for lab in m.label.unique()
                       if lab.startswith("LD")})
    print("| dataset | setting | repeats | LD never reaches | same minimum | "
          "LD iterations (median) | FP iterations (median) | FP / LD (median) | FP / LD per repeat |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for ds in sorted(m.dataset.unique()):
        for s in settings:
            ld_label, fp_label = ("LD_" + s, "FP_" + s) if s else ("LD", "FP")
            rows = []
            for rep in sorted(m[m.dataset == ds].repeat.unique()):
                d = m[(m.dataset == ds) & (m.repeat == rep)]
                ld, fp = d[d.label == ld_label], d[d.label == fp_label]
                if ld.empty or fp.empty:
                    continue
                target = fp.objective.iloc[-1]

                def first(g):
                    hit = g[g.objective <= target * (1 + 1e-12)]
                    return max(int(hit.iteration.iloc[0]), 1) if len(hit) else np.inf

                it_ld, it_fp = first(ld), first(fp)
                same = abs(ld.objective.iloc[-1] - target) <= 1e-3 * abs(target)
                rows.append((it_ld, it_fp, it_fp / it_ld, same))
            if not rows:
                continue
            a = np.array(rows, dtype=float)
            print(f"| {ds} | {s or 'default'} | {len(a)} | {int(np.isinf(a[:, 0]).sum())} | "
                  f"{int(a[:, 3].sum())} | {np.median(a[:, 0]):.0f} | {np.median(a[:, 1]):.0f} | "
                  f"{np.median(a[:, 2]):.1f} | " + " ".join(f"{x:.1f}" for x in a[:, 2]) + " |")


def metric_spectrum(X, y, rng, mu_rel=1e-3):
    keep = np.concatenate([rng.choice(np.where(y == c)[0], int(round(0.9 * (y == c).sum())),
                                      replace=False) for c in np.unique(y)])
    X, y = X[keep], y[keep]
    X = X - X.mean(0)
    same = (y[:, None] == y[None, :]) & ~np.eye(len(y), dtype=bool)
    sq = (X**2).sum(1)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0)
    Wp = np.exp(-D2 / D2[same].mean()) * same
    deg = Wp.sum(0)
    SD = (X.T * deg) @ X
    SL = SD - X.T @ Wp @ X
    eye = np.eye(X.shape[1])
    SDr = SD + mu_rel * np.trace(SD) / X.shape[1] * eye
    SLr = SL + mu_rel * np.trace(SL) / X.shape[1] * eye
    # Generalised symmetric problem SDr v = r SLr v through SLr's Cholesky factor.
    L = np.linalg.cholesky(SLr)
    Li = np.linalg.inv(L)
    return np.linalg.eigvalsh(Li @ SDr @ Li.T), len(y)


def spectrum_table(data_dir):
    import h5py

    rng = np.random.default_rng(2014)
    cases = [("usps", 220, True, None), ("usps", 600, True, None), ("usps", 1100, True, None),
             ("usps", 2000, True, None), ("orl", None, True, None), ("yale", None, True, None),
             ("coil20", None, False, None), ("coil20", None, False, 200)]
    print("\n| data | N fitted | D | largest r | r > 10 | r > 100 |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, n, minmax, pca in cases:
        path = os.path.join(data_dir, name + ".h5")
        if not os.path.exists(path):
            print(f"| {name} | (no {path}) | | | | |")
            continue
        with h5py.File(path, "r") as f:
            X, y = np.asarray(f["X"], dtype=float), np.asarray(f["y"])
        if n:  # stratified: n / 10 per class, as max_points draws USPS's ten balanced classes
            idx = np.concatenate([rng.choice(np.where(y == c)[0], n // 10, replace=False)
                                  for c in np.unique(y)])
            X, y = X[idx], y[idx]
        if minmax:
            X = (X - X.min()) / (X.max() - X.min())
        if pca:
            Xc = X - X.mean(0)
            X = Xc @ np.linalg.svd(Xc, full_matrices=False)[2][:pca].T
        r, nfit = metric_spectrum(X, y, rng)
        label = name + (f" {n}" if n else "") + (f" PCA-{pca}" if pca else "")
        print(f"| {label} | {nfit} | {X.shape[1]} | {r.max():.3g} | {int((r > 10).sum())} | "
              f"{int((r > 100).sum())} |")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    pairs_table(sys.argv[1])
    data_dir = sys.argv[2] if len(sys.argv) > 2 else os.environ.get(
        "DRBENCH_DATA", "/work/shared/datasets")
    spectrum_table(data_dir)


if __name__ == "__main__":
    main()
