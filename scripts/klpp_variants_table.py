#!/usr/bin/env python3
"""Pivot the KLPP variant runs (configs/gplrf_usps_klpp_variants.yaml) into one markdown table:
one line per (row label, setting), one column per training size, the drop from the first to the
last column, and the paper's KLPP row (tests/reference/gplrf_table1_usps.csv) for comparison.

Usage: drbench aggregate RESULTS.h5 --all-settings --long all.csv --no-store
       python3 scripts/klpp_variants_table.py all.csv [--keys kernel_width,formulation,...]
Only the setting keys that vary within a row label are printed (or those of --keys).
"""
import csv
import os
import sys
from collections import defaultdict

REF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "reference",
                   "gplrf_table1_usps.csv")


def parse_setting(s):
    return dict(kv.split("=", 1) for kv in s.split(",") if "=" in kv)


def main():
    path = sys.argv[1]
    keys = None
    if "--keys" in sys.argv:
        keys = sys.argv[sys.argv.index("--keys") + 1].split(",")
    cells = defaultdict(dict)  # (label, dim, setting) -> split -> (mean, std, n)
    splits = set()
    with open(path) as f:
        for r in csv.DictReader(f):
            key = (r["method"], r["dim"], r["setting"])
            v = int(float(r["split_value"]))
            splits.add(v)
            cells[key][v] = (float(r["mean_error_pct"]), float(r["std_error_pct"] or "nan"),
                             int(r["n"]))
    splits = sorted(splits)
    paper = {}
    if os.path.exists(REF):
        with open(REF) as f:
            for r in csv.DictReader(line for line in f if not line.startswith("#")):
                if r["method"] == "KLPP":
                    paper[int(float(r["split_value"]))] = (100 * float(r["mean"]),
                                                           100 * float(r["std"]))
    # The keys that vary within each label.
    varying = defaultdict(set)
    by_label = defaultdict(list)
    for (label, dim, setting) in cells:
        by_label[label].append(parse_setting(setting))
    for label, ss in by_label.items():
        for k in set().union(*ss):
            if len({s.get(k) for s in ss}) > 1:
                varying[label].add(k)
    print("| row | dim | setting | " + " | ".join(str(s) for s in splits) +
          f" | drop {splits[0]}->{splits[-1]} |")
    print("|---|---:|---|" + "---:|" * (len(splits) + 1))
    for (label, dim, setting) in sorted(cells, key=lambda k: (k[0], int(k[1]), k[2])):
        s = parse_setting(setting)
        show = keys if keys else sorted(varying[label])
        desc = ", ".join(f"{k}={s[k]}" for k in show if k in s) or "-"
        row = cells[(label, dim, setting)]
        vals = [f"{row[v][0]:.2f}" if v in row else "" for v in splits]
        drop = (f"{row[splits[0]][0] - row[splits[-1]][0]:+.1f}"
                if splits[0] in row and splits[-1] in row else "")
        print(f"| {label} | {dim} | {desc} | " + " | ".join(vals) + f" | {drop} |")
    if paper:
        vals = [f"{paper[v][0]:.2f} ± {paper[v][1]:.2f}" if v in paper else "" for v in splits]
        drop = (f"{paper[splits[0]][0] - paper[splits[-1]][0]:+.1f}"
                if splits[0] in paper and splits[-1] in paper else "")
        print("| paper KLPP | 9 | - | " + " | ".join(vals) + f" | {drop} |")


if __name__ == "__main__":
    main()
