#!/usr/bin/env python3
"""Compare `drbench aggregate --format csv` output with a paper's table.

usage: compare_to_paper.py OURS.csv PAPER.csv [--max-sigma S] [--md]

PAPER.csv has columns method,split_value,mean,std (fractions; '#' lines are comments). For every
cell present in both, prints ours, the paper's, and the gap |ours - paper| in units of the paper's
standard deviation. With --max-sigma, exits 1 when any gap exceeds S. With --md, prints instead
one markdown table shaped as the paper's (a row per method, a column per split value; error in %,
ours / paper, and the signed gap (ours - paper) / paper std; ours / - where the paper left the
cell blank).
"""
import csv
import math
import sys


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    max_sigma = None
    if "--max-sigma" in argv:
        max_sigma = float(argv[argv.index("--max-sigma") + 1])
    ours = {}
    with open(argv[1]) as f:
        for row in csv.DictReader(f):
            if row.get("dataset") == "dataset":
                continue  # header repeated between tables
            key = (row["method"], float(row["split_value"]))
            ours[key] = (float(row["mean_error_pct"]) / 100, float(row["std_error_pct"]) / 100,
                         int(row["n"]))
    if "--md" in argv:
        print(markdown(ours, argv[2]))
        return 0
    worst = 0.0
    print(f"{'method':<20}{'split':>6}{'ours':>16}{'paper':>16}{'gap/paper std':>15}")
    with open(argv[2]) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            key = (row["method"], float(row["split_value"]))
            if key not in ours:
                continue
            m, s, n = ours[key]
            pm, ps = float(row["mean"]), float(row["std"])
            gap = abs(m - pm) / ps
            worst = max(worst, gap)
            print(f"{key[0]:<20}{key[1]:>6g}{m:>9.4f}±{s:.4f}{pm:>9.4f}±{ps:.4f}{gap:>15.2f}")
    print(f"largest gap: {worst:.2f} paper standard deviations")
    if max_sigma is not None and worst > max_sigma:
        return 1
    return 0


def markdown(ours, paper_path):
    methods, splits, cells = [], [], {}
    with open(paper_path) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            key = (row["method"], float(row["split_value"]))
            if key not in ours:
                continue
            if key[0] not in methods:
                methods.append(key[0])
            if key[1] not in splits:
                splits.append(key[1])
            cells[key] = (float(row["mean"]), float(row["std"]))
    splits.sort()
    lines = ["| method | " + " | ".join(f"{v:g}" for v in splits) + " |",
             "|---|" + "---:|" * len(splits)]
    for m in methods:
        out = []
        for v in splits:
            if (m, v) not in ours:
                out.append("-")
                continue
            mean, std, _ = ours[(m, v)]
            if (m, v) not in cells:  # a cell the paper left blank: ours still counts
                out.append(f"{100 * mean:.2f} ± {100 * std:.2f} / -")
                continue
            pm, ps = cells[(m, v)]
            out.append(f"{100 * mean:.2f} ± {100 * std:.2f} / {100 * pm:.2f} ± {100 * ps:.2f} "
                       f"({(mean - pm) / ps:+.1f})")
        lines.append(f"| {m} | " + " | ".join(out) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
