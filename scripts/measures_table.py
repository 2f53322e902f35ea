#!/usr/bin/python3
"""One markdown table of several measures per (dataset, dim, method) of a results file: the
kNN error and any quality measures, each cell the best setting's mean +- std as `drbench aggregate
--metric M` selects and computes it (this script only lays the program's tables side by side),
plus the mean fit time of the chosen setting's tasks.

usage: measures_table.py RESULTS.h5 [MEASURE ...]   (default: trustworthiness continuity rnx_auc)
"""
import io
import os
import subprocess
import sys

import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from drbench import results as dres  # noqa: E402


def table(path, metric=None):
    cmd = [dres.drbench_program() or "drbench", "aggregate", path, "--no-store", "--format", "csv"]
    if metric:
        cmd += ["--metric", metric]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    blocks = dres.split_tables_csv(out)
    return pd.concat([pd.read_csv(io.StringIO(b), keep_default_na=False) for b in blocks])


def main():
    path, measures = sys.argv[1], sys.argv[2:] or ["trustworthiness", "continuity", "rnx_auc"]
    base = table(path)
    k1 = base["k"].min()
    base = base[base["k"] == k1]
    cols = {"err": base.set_index(["dataset", "dim", "method"])}
    for m in measures:
        cols[m] = table(path, m).set_index(["dataset", "dim", "method"])
    # The chosen setting's mean fit time, as the program computes it (--long --details).
    long = dres.long_table(path)
    fit = long[long["k"] == k1].set_index(["dataset", "dim", "method", "setting"])["fit_seconds"]
    head = [f"{k1}-NN error %"] + [m for m in measures] + ["fit s"]
    print("| dataset | dim | method | " + " | ".join(head) + " |")
    print("|---|---:|---|" + "---:|" * len(head))
    for key, row in cols["err"].iterrows():
        ds, dim, meth = key
        sd = row["std_error_pct"]
        cells = [f"{float(row['mean_error_pct']):.2f}" + (f" ± {float(sd):.2f}" if sd != "" else "")]
        for m in measures:
            q = cols[m].loc[key]
            cells.append(f"{float(q['mean']):.3f}" if q["mean"] != "" else "")
        f = fit.get((ds, dim, meth, row["setting"]))
        cells.append(f"{f:.1f}" if f is not None else "")
        print(f"| {ds} | {dim} | {meth} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
