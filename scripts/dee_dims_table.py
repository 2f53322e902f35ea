#!/usr/bin/env python3
"""Fig. 11 of the DEE paper as a table: 1-NN recognition rate (mean and std over partitions, in %)
against the subspace dimension, per dataset and method, merged from several drbench results files.

Usage: /usr/bin/python3 scripts/dee_dims_table.py OUT_PREFIX FILE.h5 [FILE.h5 ...]
       e.g. scripts/dee_dims_table.py results/dee_dims results/dee_dims-*.h5
writes OUT_PREFIX.csv (dataset, method, dim, n_train, partitions, rate_mean, rate_std) and
OUT_PREFIX.md (one table per dataset, methods as rows, dimensions as columns).
"""
import csv
import sys
from collections import defaultdict

import h5py
import numpy as np


def collect(paths):
    cells = defaultdict(list)  # (dataset, label, dim) -> 1-NN error per partition
    ntrain = {}
    failed = defaultdict(int)
    for path in paths:
        with h5py.File(path, "r") as f:
            t = f["tasks"]
            ks = list(t["knn_error"].attrs["k"])
            col = ks.index(1)
            ds, label = t["dataset"].asstr()[:], t["label"].asstr()[:]
            dims, status = t["dim"][:], t["status"][:]
            err, n = t["knn_error"][:, col], t["n_train"][:]
            for i in range(len(ds)):
                key = (ds[i], label[i], int(dims[i]))
                if status[i] != 0:
                    failed[key] += 1
                    continue
                cells[key].append(float(err[i]))
                ntrain[ds[i]] = int(n[i])
    return cells, ntrain, failed


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    prefix, paths = sys.argv[1], sys.argv[2:]
    cells, ntrain, failed = collect(paths)
    order = ["DEE", "DSNE", "DCV", "MMPA"]
    rows = []
    for (ds, label, dim), errs in sorted(cells.items(), key=lambda kv: (
            kv[0][0], order.index(kv[0][1]) if kv[0][1] in order else 9, kv[0][2])):
        rate = 100.0 * (1.0 - np.array(errs))
        rows.append({"dataset": ds, "method": label, "dim": dim, "n_train": ntrain[ds],
                     "partitions": len(errs), "rate_mean": round(float(rate.mean()), 2),
                     "rate_std": round(float(rate.std(ddof=1)) if len(errs) > 1 else 0.0, 2),
                     "failed": failed.get((ds, label, dim), 0)})
    with open(prefix + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    md = ["# DEE paper Fig. 11: 1-NN recognition rate (%) vs subspace dimension",
          "", "Mean ± std over the partitions (count in brackets). Sources: " +
          ", ".join(paths), ""]
    for ds in sorted({r["dataset"] for r in rows}):
        sub = [r for r in rows if r["dataset"] == ds]
        dims = sorted({r["dim"] for r in sub})
        md += [f"## {ds} ({sub[0]['n_train']} training points)", "",
               "| method | " + " | ".join(str(d) for d in dims) + " |",
               "|---|" + "---|" * len(dims)]
        for label in sorted({r["method"] for r in sub},
                            key=lambda l: order.index(l) if l in order else 9):
            byd = {r["dim"]: r for r in sub if r["method"] == label}
            md.append(f"| {label} | " + " | ".join(
                f"{byd[d]['rate_mean']:.1f} ± {byd[d]['rate_std']:.1f} ({byd[d]['partitions']})"
                if d in byd else "" for d in dims) + " |")
        md.append("")
    with open(prefix + ".md", "w") as f:
        f.write("\n".join(md))
    print(f"wrote {prefix}.csv ({len(rows)} rows) and {prefix}.md")


if __name__ == "__main__":
    main()
