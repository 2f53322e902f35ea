#!/usr/bin/env python3
"""Rerun a slice of a committed table and compare it with the committed CSV, cell by cell.

    scripts/reproduce_check.py results/gplrf_usps_table1_linear.csv configs/gplrf_usps_linear.yaml \
        --only PCA,LDA splits.train_per_class=[10]

runs `drbench run CONFIG [--profile P] [--only L] [--dataset D] [KEY=VALUE ...]` into a scratch
results file, tabulates it with `drbench aggregate --long`, and compares every cell the rerun
made (dataset, method, split, dim, k) with the same cell of the committed CSV: the mean and std
(to the digits the CSV holds), the partition count and the chosen setting. The slice must cover
every partition of a cell (no --repeats): a mean over fewer partitions is another number.
--from FILE.h5 compares a results file already made (a slice run elsewhere, or kept by --keep)
instead of running. Exit 0 when every rerun cell is in the CSV with the same values, 1 on any difference (each named,
with both values) or when no cell of the rerun is in the CSV, 2 on a usage or run error.
The binary is --drbench, else $DRBENCH_BIN, else build/drbench.
"""
from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
KEY = ("dataset", "method", "split_kind", "split_value", "dim", "k")


def read_cells(path: str) -> dict[tuple, dict]:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    missing = [c for c in KEY + ("mean_error_pct", "std_error_pct", "n") if rows and c not in rows[0]]
    if missing:
        sys.exit(f"reproduce_check: {path} lacks the column(s) {', '.join(missing)} (fix: give a "
                 "table written by `drbench aggregate --long`)")
    cells = {}
    for r in rows:
        # A long CSV written with --all-settings lists every setting; the table's is the chosen one.
        if r.get("chosen", "1") not in ("1", "true", "True"):
            continue
        key = tuple(_norm(c, r[c]) for c in KEY)
        cells[key] = r
    return cells


def _norm(column: str, value: str) -> str:
    if column in ("split_value", "dim", "k"):
        try:
            return repr(float(value))
        except ValueError:
            return value
    return value


def decimals(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def differences(committed: dict, rerun: dict) -> tuple[list[str], int]:
    """The differing values of every rerun cell, and how many cells were compared."""
    out, compared = [], 0
    for key, new in sorted(rerun.items()):
        name = "/".join(str(k) for k in key)
        old = committed.get(key)
        if old is None:
            continue
        compared += 1
        for col in ("mean_error_pct", "std_error_pct"):
            if old[col] == "" and new[col] == "":
                continue
            # The committed CSV holds a rounded number: equal means equal at its last digit.
            tol = 0.5 * 10 ** -decimals(old[col]) + 1e-12
            if old[col] == "" or new[col] == "" or abs(float(old[col]) - float(new[col])) > tol:
                out.append(f"{name}: {col} committed {old[col]}, rerun {new[col]}")
        if int(float(old["n"])) != int(float(new["n"])):
            out.append(f"{name}: n committed {old['n']}, rerun {new['n']} (a slice must run every "
                       "partition of a cell)")
        if "setting" in old and "setting" in new and old["setting"] != new["setting"]:
            out.append(f"{name}: setting committed '{old['setting']}', rerun '{new['setting']}'")
    return out, compared


def graph_version(drbench: str, h5: str) -> str:
    """The neighbour graph version `drbench info` reads from the file ("" when it says none)."""
    r = subprocess.run([drbench, "info", h5], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if "graph version" in line:
            return line.split("graph version", 1)[1].split()[0]
    return ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="the committed table (drbench aggregate --long)")
    ap.add_argument("config")
    ap.add_argument("overrides", nargs="*", help="KEY=VALUE overrides, as drbench run takes them")
    ap.add_argument("--profile")
    ap.add_argument("--only")
    ap.add_argument("--dataset")
    ap.add_argument("--drbench", default=os.environ.get("DRBENCH_BIN",
                                                         os.path.join(ROOT, "build", "drbench")))
    ap.add_argument("--keep", help="write the rerun's results file and CSV into this folder")
    ap.add_argument("--from", dest="source", metavar="FILE.h5",
                    help="tabulate this results file instead of running the slice")
    a = ap.parse_intermixed_args()
    if not os.path.isfile(a.csv):
        print(f"reproduce_check: no committed table {a.csv}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="reproduce_check.") as tmp:
        where = a.keep or tmp
        os.makedirs(where, exist_ok=True)
        h5 = a.source or os.path.join(where, "rerun.h5")
        long_csv = os.path.join(where, "rerun.csv")
        cmd = [a.drbench, "run", a.config, *a.overrides, "--output", h5, "--force-new", "--quiet",
               "--no-table"]
        for flag in ("profile", "only", "dataset"):
            if getattr(a, flag):
                cmd += [f"--{flag}", getattr(a, flag)]
        steps = [] if a.source else [cmd]
        for step in steps + [[a.drbench, "aggregate", h5, "--no-store", "--long", long_csv]]:
            r = subprocess.run(step, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"reproduce_check: {' '.join(step)} failed ({r.returncode}):\n{r.stderr}",
                      file=sys.stderr)
                return 2
        rerun = read_cells(long_csv)
        graph = graph_version(a.drbench, h5)
    diffs, compared = differences(read_cells(a.csv), rerun)
    if compared == 0:
        print(f"reproduce_check: none of the rerun's {len(rerun)} cells is in {a.csv} (fix: a "
              "slice of the config that made it)", file=sys.stderr)
        return 1
    for d in diffs:
        print(d)
    if diffs and graph:
        print(f"the rerun's neighbour graph version is {graph} (`drbench info`): a committed "
              "table made from a results file of another version (1: before the one neighbour "
              "search, the graph_version attribute absent) can differ in its graph methods' "
              "cells (LE, LLE, Isomap, the LPP family, ...; docs/results-format.md)")
    verdict = "differ" if diffs else "reproduce"
    print(f"{compared} cell(s) of {a.csv} rerun: {len(diffs)} value(s) {verdict}"
          if diffs else f"{compared} cell(s) of {a.csv} rerun: all reproduce")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
