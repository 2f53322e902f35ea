#!/usr/bin/env python3
"""Fig. 6 of the DEE paper from a drbench results file: one row per (dataset, optimizer, repeat).

Usage: /usr/bin/python3 scripts/dee_optimizers_csv.py results/dee_optimizers.h5 \
           [results/dee_optimizers.csv] [results/dee_optimizers.md]

Columns: dataset, optimizer, repeat, iterations, seconds (fit time: weights, the ld/fp Cholesky
factor and the iterations, i.e. the paper's "elapsed time for a single model construction"),
final_objective, stop_reason, optimizer_seconds (the iterations alone, from the trace). The
markdown file sets the mean LD : FP : CG : GD iteration and time ratios against the paper's.
"""
import csv
import os
import sys
from collections import defaultdict

import h5py
import numpy as np

# Zheng et al. 2014, Fig. 6 legends (seconds) and section 4.2 (ORL iterations).
PAPER_SECONDS = {
    "coil20": {"ld": 25.79, "fp": 180.9, "cg": 164.1, "gd": 230.1},
    "orl": {"ld": 1.078, "fp": 38.89, "cg": 53.89, "gd": 41.32},
    "yale": {"ld": 0.76, "fp": 0.99, "cg": 1.26, "gd": 1.07},
    "usps": {"ld": 7.89, "fp": 40.4, "cg": 95.3, "gd": 54.3},
}
PAPER_ITERATIONS = {"orl": {"ld": 13, "fp": 390}}
ORDER = ["ld", "fp", "cg", "gd"]


def setting_value(setting, key):
    for kv in setting.split(","):
        k, _, v = kv.partition("=")
        if k == key:
            return v
    return ""


def read_rows(path):
    rows = []
    with h5py.File(path, "r") as f:
        t = f["tasks"]
        ids = t["id"][:]
        cols = {c: t[c].asstr()[:] for c in ("dataset", "method", "setting", "error")}
        for i, tid in enumerate(ids):
            if cols["method"][i] != "dee":
                continue
            opt = setting_value(cols["setting"][i], "optimizer")
            row = {"dataset": cols["dataset"][i], "optimizer": opt,
                   "repeat": int(t["repeat"][i]), "seconds": float(t["fit_seconds"][i])}
            if t["status"][i] != 0:
                row.update(iterations="", final_objective="", optimizer_seconds="",
                           stop_reason="failed: " + cols["error"][i])
                rows.append(row)
                continue
            tr = f["traces"][str(tid)]
            data = tr[:]
            notes = [n.decode() if isinstance(n, bytes) else str(n) for n in tr.attrs["notes"]]
            stop = [n.split("=", 1)[1] for n in notes if n.startswith("stop_reason=")]
            row.update(iterations=int(data[-1, 0]), final_objective=float(data[-1, 1]),
                       optimizer_seconds=float(data[-1, 3]), stop_reason=stop[-1] if stop else "")
            rows.append(row)
    rows.sort(key=lambda r: (r["dataset"], ORDER.index(r["optimizer"]) if r["optimizer"] in ORDER
                             else 9, r["repeat"]))
    return rows


def ratios_md(rows):
    by = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r["iterations"] != "":
            by[r["dataset"]][r["optimizer"]].append(r)
    out = ["| dataset | quantity | LD | FP | CG | GD | paper LD | paper FP | paper CG | paper GD |",
           "|---|---|---|---|---|---|---|---|---|---|"]

    def mean(ds, opt, key):
        v = [float(r[key]) for r in by[ds].get(opt, [])]
        return np.mean(v) if v else float("nan")

    for ds in sorted(by):
        its = [mean(ds, o, "iterations") for o in ORDER]
        secs = [mean(ds, o, "seconds") for o in ORDER]
        fobj = [mean(ds, o, "final_objective") for o in ORDER]
        p_s = PAPER_SECONDS.get(ds, {})
        p_i = PAPER_ITERATIONS.get(ds, {})
        fmt = lambda v: "" if v is None or not np.isfinite(v) else f"{v:.3g}"
        out.append(f"| {ds} | iterations | " + " | ".join(fmt(v) for v in its) + " | " +
                   " | ".join(fmt(p_i.get(o)) for o in ORDER) + " |")
        out.append(f"| {ds} | seconds | " + " | ".join(fmt(v) for v in secs) + " | " +
                   " | ".join(fmt(p_s.get(o)) for o in ORDER) + " |")
        rel = lambda v, base: v / base if base and np.isfinite(base) else float("nan")
        out.append(f"| {ds} | time / LD | " + " | ".join(fmt(rel(v, secs[0])) for v in secs) +
                   " | " + " | ".join(fmt(rel(p_s.get(o), p_s.get("ld"))) if p_s else ""
                                      for o in ORDER) + " |")
        out.append(f"| {ds} | iterations / LD | " +
                   " | ".join(fmt(rel(v, its[0])) for v in its) + " | " +
                   " | ".join(fmt(rel(p_i.get(o), p_i.get("ld"))) if p_i.get(o) else ""
                              for o in ORDER) + " |")
        out.append(f"| {ds} | final objective | " + " | ".join(fmt(v) for v in fobj) +
                   " | | | | |")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    dst = sys.argv[2] if len(sys.argv) > 2 else "results/dee_optimizers.csv"
    md = sys.argv[3] if len(sys.argv) > 3 else dst[:-4] + ".md"
    rows = read_rows(src)
    if not rows:
        sys.exit(f"{src}: no dee tasks (run configs/dee_optimizers.yaml first)")
    fields = ["dataset", "optimizer", "repeat", "iterations", "seconds", "final_objective",
              "stop_reason", "optimizer_seconds"]
    with open(dst, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    # The sections below the generated table ("## ...", e.g. "Why USPS") are written by hand
    # from other runs: a regenerated table keeps them.
    kept = ""
    if os.path.exists(md):
        with open(md) as f:
            old = f.read()
        if "\n## " in old:
            kept = "\n" + old[old.index("\n## ") + 1:]
    with open(md, "w") as f:
        f.write(f"# DEE optimisers (Fig. 6), from {src}\n\n"
                "Means over repeats; seconds are whole fits (weights, the ld/fp factor, the "
                "iterations). Paper: Zheng et al. 2014, Fig. 6 legends and section 4.2.\n\n")
        f.write(ratios_md(rows))
        f.write(kept)
    print(f"wrote {dst} ({len(rows)} rows) and {md}")


if __name__ == "__main__":
    main()
