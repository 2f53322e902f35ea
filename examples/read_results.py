#!/usr/bin/env python3
"""Print the mean ± std kNN error table of a drbench results file (h5py + numpy only).

Usage: python3 examples/read_results.py results/usps.h5 [k]

Same numbers as `drbench aggregate`: for each (dataset, method label, split value, dim) the setting
with the lowest mean error at the first k is chosen; cells are mean ± sample std in percent.
"""
import sys
from collections import defaultdict

import h5py
import numpy as np


def main(path, k=None):
    with h5py.File(path, "r") as f:
        t = f["tasks"]
        ks = list(t["knn_error"].attrs["k"])
        col = ks.index(int(k)) if k is not None else 0
        ok = t["status"][:] == 0
        err = t["knn_error"][:][ok]
        rows = zip(*(t[c].asstr()[:][ok] for c in ("dataset", "label", "setting")),
                   t["split_value"][:][ok], t["dim"][:][ok], err[:, 0], err[:, col])
        labels = list(f.attrs["labels"])

    groups = defaultdict(lambda: ([], []))  # (dataset, label, split, dim, setting) -> errors
    for ds, label, setting, split, dim, e_first, e_k in rows:
        g = groups[(ds, label, split, dim, setting)]
        g[0].append(e_first)
        g[1].append(e_k)

    best = {}  # (dataset, label, split, dim) -> (mean at first k, errors at k)
    for (ds, label, split, dim, setting), (first, at_k) in sorted(groups.items()):
        cell = (ds, label, split, dim)
        if cell not in best or np.mean(first) < best[cell][0]:
            best[cell] = (np.mean(first), np.array(at_k))

    for ds in sorted({c[0] for c in best}):
        columns = sorted({(c[2], c[3]) for c in best if c[0] == ds})
        print(f"\n{ds}: {ks[col]}-NN error (%), mean ± std")
        print("| method | " + " | ".join(f"{s:g} (d={d})" for s, d in columns) + " |")
        print("|---|" + "---:|" * len(columns))
        for label in labels:
            cells = []
            for s, d in columns:
                if (ds, label, s, d) not in best:
                    cells.append("-")
                    continue
                e = 100 * best[(ds, label, s, d)][1]
                cells.append(f"{e.mean():.2f}" + (f" ± {e.std(ddof=1):.2f}" if len(e) > 1 else ""))
            if any(c != "-" for c in cells):
                print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(*sys.argv[1:])
