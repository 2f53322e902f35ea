#!/usr/bin/python3
"""Tables I and II of the TPSLVM paper from drbench results files.

Table I (tpslvm_table1): datasets oil_1..oil_N / swiss_1..swiss_N are random subsamples (draws) of
one data set; they are pooled by the name before the last '_' into mean +- std over subsamples.
For each method label the reported setting is the one with the lowest mean error over the pooled
subsamples (the paper tunes KPCA's width and the neighbourhoods the same way); for GPLVM the best
of the RBF, MLP and poly labels is reported as the paper does. Paired t-tests (scipy ttest_rel)
compare TPSLVM with the best GPLVM over the same subsamples/partitions.

Table II (tpslvm_table2*): hold-out error over partitions, pooled the same way (one data set per
file), paired by partition.

usage: tpslvm_table1.py table1|table2 OUT_STEM FILE.h5 [FILE.h5 ...]
"""
import sys
from collections import defaultdict

import h5py
import numpy as np
from scipy import stats


def read(path):
    rows = []
    with h5py.File(path, "r") as f:
        t = f["tasks"]
        n = len(t["id"])
        cols = {k: t[k][()] for k in ("dataset", "label", "setting", "repeat", "status", "knn_error",
                                      "fit_seconds", "transform_seconds", "split_seed", "error")}
        # AUC_logK(R_NX) where the run scored it (evaluation.quality), else NaN.
        names = [x.decode() if isinstance(x, bytes) else str(x)
                 for x in t["quality"].attrs.get("names", [])] if "quality" in t else []
        auc = (t["quality"][()][:, names.index("rnx_auc")] if "rnx_auc" in names
               else np.full(n, np.nan))
        for i in range(n):
            s = lambda k: cols[k][i].decode() if isinstance(cols[k][i], bytes) else cols[k][i]
            rows.append(dict(dataset=s("dataset"), label=s("label"), setting=s("setting"),
                             repeat=int(cols["repeat"][i]), ok=int(cols["status"][i]) == 0,
                             err=float(cols["knn_error"][i][0]) * 100.0,
                             fit=float(cols["fit_seconds"][i]),
                             tr=float(cols["transform_seconds"][i]),
                             seed=int(cols["split_seed"][i]), error=s("error"),
                             auc=float(auc[i])))
    return rows


def base(name):
    head, _, tail = name.rpartition("_")
    return head if tail.isdigit() and head else name


def pool(rows):
    """(family, label) -> setting -> {draw key: error}"""
    out = defaultdict(lambda: defaultdict(dict))
    failed = []
    for r in rows:
        if not r["ok"]:
            failed.append(r)
            continue
        out[(base(r["dataset"]), r["label"])][r["setting"]][(r["dataset"], r["seed"], r["repeat"])] = (
            r["err"], r["fit"], r["auc"])
    return out, failed


def best(settings):
    return min(settings.items(), key=lambda kv: np.mean([v[0] for v in kv[1].values()]))


def main():
    kind, stem, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows = [r for f in files for r in read(f)]
    pooled, failed = pool(rows)
    families = sorted({fam for fam, _ in pooled}, key=lambda s: ["oil", "iris", "swiss", "wine", "usps"].index(s) if s in ["oil", "iris", "swiss", "wine", "usps"] else 9)
    labels = []
    for r in rows:
        if r["label"] not in labels:
            labels.append(r["label"])
    cells = {}
    for fam in families:
        for lab in labels:
            if (fam, lab) in pooled:
                setting, draws = best(pooled[(fam, lab)])
                cells[(fam, lab)] = (setting, draws)
    gp_labels = [l for l in labels if l.startswith("GPLVM-")]
    csv = ["dataset,method,setting,n,mean_error,std_error,mean_fit_seconds"]
    md = []
    show = [l for l in labels if not l.startswith("GPLVM-")]
    if gp_labels:
        show.insert(show.index("TPSLVM"), "GPLVM (best kernel)")
    md.append("| method | " + " | ".join(families) + " |")
    md.append("|---|" + "---:|" * len(families))
    best_gp = {}
    for fam in families:
        cand = [(np.mean([v[0] for v in cells[(fam, l)][1].values()]), l) for l in gp_labels
                if (fam, l) in cells]
        if cand:
            best_gp[fam] = min(cand)[1]
    for lab in show:
        line = [lab]
        for fam in families:
            l = best_gp.get(fam) if lab == "GPLVM (best kernel)" else lab
            if l is None or (fam, l) not in cells:
                line.append("-")
                continue
            setting, draws = cells[(fam, l)]
            e = np.array([v[0] for v in draws.values()])
            txt = f"{e.mean():.2f} ± {e.std(ddof=1) if len(e) > 1 else 0.0:.2f}"
            if lab == "GPLVM (best kernel)":
                txt += f" ({l[6:]})"
            line.append(txt)
        md.append("| " + " | ".join(line) + " |")
    for (fam, lab), (setting, draws) in cells.items():
        e = np.array([v[0] for v in draws.values()])
        t = np.array([v[1] for v in draws.values()])
        csv.append(f'{fam},{lab},"{setting}",{len(e)},{e.mean():.4f},'
                   f'{e.std(ddof=1) if len(e) > 1 else 0.0:.4f},{t.mean():.3f}')
    # Paired tests: TPSLVM against the best GPLVM, and BC-TPSLVM against BC-GPLVM.
    pairs = []
    for fam in families:
        if fam in best_gp:
            pairs.append((fam, "TPSLVM", best_gp[fam]))
        elif (fam, "GPLVM") in cells:
            pairs.append((fam, "TPSLVM", "GPLVM"))
        if (fam, "BC-TPSLVM") in cells and (fam, "BC-GPLVM") in cells:
            pairs.append((fam, "BC-TPSLVM", "BC-GPLVM"))
    tests = ["", "Paired t-tests (same subsamples / partitions):", "",
             "| data | A | B | n | mean A - B (points of %) | t | p |", "|---|---|---|---:|---:|---:|---:|"]
    for fam, a, b in pairs:
        if (fam, a) not in cells or (fam, b) not in cells:
            continue
        da, db = cells[(fam, a)][1], cells[(fam, b)][1]
        keys = sorted(set(da) & set(db))
        x = np.array([da[k][0] for k in keys])
        y = np.array([db[k][0] for k in keys])
        if len(keys) > 1 and np.any(x != y):
            t, p = stats.ttest_rel(x, y)
            tests.append(f"| {fam} | {a} | {b} | {len(keys)} | {np.mean(x - y):+.2f} | {t:.2f} | {p:.3g} |")
        else:
            tests.append(f"| {fam} | {a} | {b} | {len(keys)} | {np.mean(x - y):+.2f} | - | - |")
    md += tests
    # AUC_logK(R_NX) of the setting chosen by 1-NN error, where the run scored it.
    if any(not np.isnan(v[2]) for _, draws in cells.values() for v in draws.values()):
        md += ["", "AUC_logK(R_NX) of the same settings (mean ± std over the same draws; higher is "
               "better):", "", "| method | " + " | ".join(families) + " |",
               "|---|" + "---:|" * len(families)]
        for lab in show:
            line = [lab]
            for fam in families:
                l = best_gp.get(fam) if lab == "GPLVM (best kernel)" else lab
                if l is None or (fam, l) not in cells:
                    line.append("-")
                    continue
                a = np.array([v[2] for v in cells[(fam, l)][1].values()])
                line.append(f"{a.mean():.3f} ± {a.std(ddof=1) if len(a) > 1 else 0.0:.3f}")
            md.append("| " + " | ".join(line) + " |")
    if failed:
        md += ["", f"{len(failed)} failed tasks:"] + [
            f"- {r['dataset']} {r['label']} {r['setting']}: {r['error'][:200]}" for r in failed[:10]]
    open(stem + ".md.part", "w").write("\n".join(md) + "\n")
    open(stem + ".csv", "w").write("\n".join(csv) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
