#!/usr/bin/python3
"""Tables I and II of the TPSLVM paper from drbench results files.

Every number comes from `drbench aggregate` (through drbench.results.long_table); this script only
picks the rows and formats them.

Table I (tpslvm_table1): datasets oil_1..oil_N / swiss_1..swiss_N are random subsamples (draws) of
one data set; `--pool-datasets oil_*=oil,...` pools them by the name before the last '_' into
mean +- std over subsamples, the best setting per method label being the one with the lowest mean
error over the pooled subsamples (the paper tunes KPCA's width and the neighbourhoods the same
way). For GPLVM the best of the RBF, MLP and poly labels is reported as the paper does:
`--pool-labels GPLVM-*=GPLVM (best kernel)` makes them one row whose settings are
"<label>: <setting>". Paired t-tests (drbench's, as scipy's ttest_rel) compare TPSLVM with the best
GPLVM over the same subsamples/partitions, and BC-TPSLVM with BC-GPLVM.

Table II (tpslvm_table2*): hold-out error over partitions (one data set per file, the files pooled
as a table in pieces), paired by partition.

usage: tpslvm_tables.py table1|table2 OUT_STEM FILE.h5 [FILE.h5 ...]
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from drbench import results  # noqa: E402

ORDER = ["oil", "iris", "swiss", "wine", "usps"]
BEST_GP = "GPLVM (best kernel)"


def pool_rules(loaded):
    """oil_1..oil_10 -> 'oil_*=oil': draws named <data set>_<number>."""
    bases = []
    for r in loaded:
        for d in r.attrs.get("datasets", []):
            m = re.fullmatch(r"(.+)_(\d+)", d)
            if m and m.group(1) not in bases:
                bases.append(m.group(1))
    return ",".join(f"{b}_*={b}" for b in bases) or None


def num(v, digits):
    """Errors are ratios of counts: a half-way value such as 0.275 must not round up or down by
    the round-off of the order the C++ program summed it in, so snap to 9 decimals first."""
    return f"{round(v, 9):.{digits}f}"


def pm(mean, std, digits):
    std = 0.0 if math.isnan(std) else std  # one draw: no spread
    return f"{num(mean, digits)} ± {num(std, digits)}"


def main():
    kind, stem, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    if kind not in ("table1", "table2"):
        sys.exit(__doc__)
    loaded = [results.load(f) for f in files]
    pools = pool_rules(loaded)
    # Every label on its own (the CSV), then the GPLVM kernels as one row (the printed table).
    single = results.long_table(files, reference="", pool_datasets=pools)
    labels = list(dict.fromkeys(single["method"]))  # config order (cells of failed tasks too)
    single = single[single["n"] > 0]
    gp_labels = [lab for lab in labels if lab.startswith("GPLVM-")]
    gp_pool = "GPLVM-*=" + BEST_GP if gp_labels else None
    families = sorted(dict.fromkeys(single["dataset"]),
                      key=lambda s: ORDER.index(s) if s in ORDER else len(ORDER))

    def table(**kw):
        t = results.long_table(files, pool_datasets=pools, pool_labels=gp_pool, **kw)
        return {(r.dataset, r.method): r for r in t.itertuples() if r.n > 0 and r.chosen}

    gp_ref = BEST_GP if gp_labels else "GPLVM"
    against_gp = table(reference=gp_ref if gp_ref in labels + [BEST_GP] else "")
    cells = {(r.dataset, r.method): r for r in single.itertuples()}

    def source_label(row):
        """The label a pooled-label cell chose: its setting reads '<label>: <setting>'."""
        return row.setting.split(": ", 1)[0] if row.method == BEST_GP else row.method

    show = [lab for lab in labels if not lab.startswith("GPLVM-")]
    if gp_labels:
        show.insert(show.index("TPSLVM") if "TPSLVM" in show else len(show), BEST_GP)
    md = ["| method | " + " | ".join(families) + " |", "|---|" + "---:|" * len(families)]
    for lab in show:
        line = [lab]
        for fam in families:
            r = against_gp.get((fam, lab))
            if r is None:
                line.append("-")
                continue
            txt = pm(r.mean_error_pct, r.std_error_pct, 2)
            if lab == BEST_GP:
                txt += f" ({source_label(r)[len('GPLVM-'):]})"
            line.append(txt)
        md.append("| " + " | ".join(line) + " |")

    csv = ["dataset,method,setting,n,mean_error,std_error,mean_fit_seconds"]
    for fam in families:
        for lab in labels:
            r = cells.get((fam, lab))
            if r is not None:
                std = 0.0 if math.isnan(r.std_error_pct) else r.std_error_pct
                csv.append(f'{fam},{lab},"{r.setting}",{r.n},{num(r.mean_error_pct, 4)},'
                           f'{num(std, 4)},{r.fit_seconds:.3f}')

    # Paired tests: TPSLVM against the best GPLVM, and BC-TPSLVM against BC-GPLVM.
    tests = ["", "Paired t-tests (same subsamples / partitions):", "",
             "| data | A | B | n | mean A - B (points of %) | t | p |",
             "|---|---|---|---:|---:|---:|---:|"]
    against_bc = table(reference="BC-GPLVM") if "BC-GPLVM" in labels else {}
    for fam in families:
        for a, b, tab in (("TPSLVM", gp_ref, against_gp), ("BC-TPSLVM", "BC-GPLVM", against_bc)):
            ra, rb = tab.get((fam, a)), tab.get((fam, b))
            if ra is None or rb is None:
                continue
            tested = ra.pairs > 1 and not math.isnan(ra.t)
            t = f"{ra.t:.2f}" if tested else "-"
            p = f"{ra.p_value:.3g}" if tested else "-"
            tests.append(f"| {fam} | {a} | {source_label(rb)} | {ra.pairs} | {ra.mean_diff:+.2f} | "
                         f"{t} | {p} |")
    md += tests

    # AUC_logK(R_NX) of the setting chosen by 1-NN error, where the run scored it.
    if all("rnx_auc" in r.quality_names for r in loaded):
        auc = results.long_table(files, all_settings=True, metric="rnx_auc", reference="",
                                 pool_datasets=pools, pool_labels=gp_pool)
        auc = {(r.dataset, r.method, r.setting): r for r in auc.itertuples() if r.n > 0}
        md += ["", "AUC_logK(R_NX) of the same settings (mean ± std over the same draws; higher is "
               "better):", "", "| method | " + " | ".join(families) + " |",
               "|---|" + "---:|" * len(families)]
        for lab in show:
            line = [lab]
            for fam in families:
                r = against_gp.get((fam, lab))
                q = auc.get((fam, lab, r.setting)) if r is not None else None
                line.append("-" if q is None else pm(q.mean, q.std, 3))
            md.append("| " + " | ".join(line) + " |")

    failed = [row for r in loaded for row in r.tasks.itertuples() if row.status != 0]
    if failed:
        md += ["", f"{len(failed)} failed tasks:"] + [
            f"- {r.dataset} {r.label} {r.setting}: {r.error[:200]}" for r in failed[:10]]
    open(stem + ".md.part", "w").write("\n".join(md) + "\n")
    open(stem + ".csv", "w").write("\n".join(csv) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
