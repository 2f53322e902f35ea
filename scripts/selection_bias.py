#!/usr/bin/env python3
"""What the oracle selection costs: one grid under both rules, cell by cell.

    selection_bias.py VALIDATED.h5 ORACLE.h5 [--drbench build/drbench] [--out results/selection_bias]

Reads both results files through `drbench aggregate --long` (so the cells are exactly the tables'),
and writes OUT.csv (one line per dataset x method x split value x dim) and OUT.md: per cell the
oracle's error (each cell's setting chosen on the test error), the validated one (each partition's
setting chosen on inner splits of its training points), their difference, and per dataset whether
the ranking of the methods by mean error changes. Only cells present in both files are compared;
the markdown says how many partitions each rests on.
"""
import argparse
import csv
import io
import os
import subprocess
import sys


def long_table(drbench, path):
    tmp = path + ".long.csv"
    subprocess.run([drbench, "aggregate", path, "--no-store", "--long", tmp], check=True,
                   stdout=subprocess.DEVNULL)
    with open(tmp) as f:
        rows = list(csv.DictReader(f))
    os.remove(tmp)
    return {(r["dataset"], r["method"], r["split_value"], r["dim"], r["k"]): r for r in rows}


def ranks(errors):
    """Method -> rank by mean error (1 = best; ties share the mean rank)."""
    order = sorted(errors, key=lambda m: errors[m])
    out, i = {}, 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and errors[order[j + 1]] == errors[order[i]]:
            j += 1
        for m in order[i:j + 1]:
            out[m] = (i + j) / 2 + 1
        i = j + 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("validated")
    ap.add_argument("oracle")
    ap.add_argument("--drbench", default="build/drbench")
    ap.add_argument("--out", default="results/selection_bias")
    ap.add_argument("--title", default="What the oracle selection costs")
    ap.add_argument("--runs", default="", help="how the two files were made (markdown)")
    ap.add_argument("--append", action="store_true",
                    help="add to OUT.md and OUT.csv (another configuration's section)")
    a = ap.parse_args()
    val, ora = long_table(a.drbench, a.validated), long_table(a.drbench, a.oracle)
    keys = [k for k in ora if k in val]
    if not keys:
        sys.exit("no cell is in both files")
    lines, by_group = [], {}
    for k in keys:
        o, v = ora[k], val[k]
        oe, ve = float(o["mean_error_pct"]), float(v["mean_error_pct"])
        by_group.setdefault((k[0], k[2], k[4]), {})[k[1]] = (oe, ve)
        lines.append({"dataset": k[0], "method": k[1], "split_value": k[2], "dim": k[3],
                      "k": k[4], "oracle_pct": oe, "oracle_std_pct": float(o["std_error_pct"] or "nan"),
                      "validated_pct": ve,
                      "validated_std_pct": float(v["std_error_pct"] or "nan"),
                      "difference_pct": ve - oe, "n_oracle": o["n"], "n_validated": v["n"],
                      "oracle_setting": o["setting"], "validated_settings": v["setting"]})
    for line in lines:
        g = by_group[(line["dataset"], line["split_value"], line["k"])]
        ro = ranks({m: e[0] for m, e in g.items()})
        rv = ranks({m: e[1] for m, e in g.items()})
        line["rank_oracle"], line["rank_validated"] = ro[line["method"]], rv[line["method"]]
    cols = list(lines[0].keys())
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols, lineterminator="\n")
    w.writeheader()
    for line in lines:
        w.writerow({c: (f"{line[c]:.4f}" if isinstance(line[c], float) else line[c]) for c in cols})
    text = buf.getvalue()
    if a.append:
        text = text.split("\n", 1)[1]
    with open(a.out + ".csv", "a" if a.append else "w") as f:
        f.write(text)

    md = [("## " if a.append else "# ") + a.title, "",
          f"Produced by `scripts/selection_bias.py {a.validated} {a.oracle}`. "
          "`oracle`: each cell's setting is the one with the lowest mean **test** error over the "
          "partitions (`selection: min_mean_error`, as the seed papers chose). `validated`: each "
          "partition's setting is the one with the lowest error on inner splits of its training "
          "points, refitted on all of them and scored on the test points once "
          "(`selection: validation`). Both files score the same test-point tasks (same keys and "
          "seeds); only the rule differs. Errors are kNN test errors in %, mean ± std over the "
          "partitions; difference = validated - oracle (positive: the oracle looked better than "
          "a choice that does not see the test points).", ""] + ([a.runs, ""] if a.runs else [])
    groups = sorted({(l["dataset"], l["split_value"], l["k"]) for l in lines},
                    key=lambda g: ([l["dataset"] for l in lines].index(g[0]), g))
    for g in groups:
        ds, sv, k = g
        rows = [l for l in lines if (l["dataset"], l["split_value"], l["k"]) == g]
        md += [f"## {ds} (split value {sv}, {k}-NN)", "",
               "| method | dim | oracle | validated | difference | rank oracle → validated | n |",
               "|---|---:|---:|---:|---:|---:|---:|"]
        for l in rows:
            md.append(f"| {l['method']} | {l['dim']} | {l['oracle_pct']:.2f} ± {l['oracle_std_pct']:.2f} | "
                      f"{l['validated_pct']:.2f} ± {l['validated_std_pct']:.2f} | "
                      f"{l['difference_pct']:+.2f} | {l['rank_oracle']:g} → {l['rank_validated']:g}"
                      f" | {l['n_oracle']}/{l['n_validated']} |")
        order_o = sorted(rows, key=lambda l: (l["rank_oracle"], l["method"]))
        order_v = sorted(rows, key=lambda l: (l["rank_validated"], l["method"]))
        same = [l["method"] for l in order_o] == [l["method"] for l in order_v]
        md += ["", "Ranking " + ("unchanged" if same else "changes") + ": oracle " +
               " < ".join(l["method"] for l in order_o) + "; validated " +
               " < ".join(l["method"] for l in order_v) + ".", ""]
    grid = [l for l in lines if l["validated_settings"].startswith("per partition: ")]
    if grid:
        diffs = [l["difference_pct"] for l in grid]
        md += ["## Summary", "",
               f"Over the {len(grid)} cells of methods with a grid the validated error exceeds the "
               f"oracle's by {sum(diffs) / len(diffs):+.2f} points on average (range "
               f"{min(diffs):+.2f} to {max(diffs):+.2f}); the ranking of the methods changes on "
               f"{sum(1 for g in groups if not _same(lines, g))} of {len(groups)} datasets. A "
               "validated cell can beat the oracle's: the oracle takes one setting for all "
               "partitions, validation may take another for each.", ""]
    md += ["## Settings chosen", "", "| dataset | method | oracle | validated (per partition) |",
           "|---|---|---|---|"]
    for l in grid:
        md.append(f"| {l['dataset']} | {l['method']} | {l['oracle_setting']} | "
                  f"{l['validated_settings'].replace('per partition: ', '')} |")
    if a.append:
        # One level down: this configuration's section inside the file.
        md = md[:1] + ["#" + line if line.startswith("## ") else line for line in md[1:]]
        md[0] = "\n" + md[0]
    with open(a.out + ".md", "a" if a.append else "w") as f:
        f.write("\n".join(md) + "\n")


def _same(lines, g):
    rows = [l for l in lines if (l["dataset"], l["split_value"], l["k"]) == g]
    return ([l["method"] for l in sorted(rows, key=lambda l: (l["rank_oracle"], l["method"]))] ==
            [l["method"] for l in sorted(rows, key=lambda l: (l["rank_validated"], l["method"]))])


if __name__ == "__main__":
    main()
