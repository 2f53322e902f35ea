"""One self-contained HTML page of a results file: `drbench report RESULTS.h5 -o report.html`.

Provenance (config, version, BLAS, host, ranks, times), the aggregated tables, the notes of the
reader, and every figure of `drbench plot` inlined as base64 PNG, so the page can be mailed or
archived alone. A small script marks <html data-images-ok="N/M"> once the images have loaded
(a browser-driven test reads it).
"""
from __future__ import annotations

import argparse
import base64
import html
import os
import sys
import tempfile

from drbench._deps import require

require("numpy", "h5py", "pandas", "matplotlib", what="drbench report")

import pandas as pd  # noqa: E402

from drbench import plot as dplot  # noqa: E402
from drbench import results as dres  # noqa: E402

CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:1100px;
color:#222;padding:0 1em}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.9em}
caption{text-align:left;font-weight:600;padding:.3em 0}
td,th{border:1px solid #ccc;padding:.25em .6em}th{background:#f3f3f3}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.set{font-size:.8em;overflow-wrap:anywhere;max-width:36em}
table.prov td:first-child{font-weight:600;background:#fafafa}
pre{background:#f7f7f7;padding:.8em;overflow:auto;font-size:.85em;border:1px solid #e3e3e3}
figure{margin:1em 0 2em}figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:.85em;color:#555}.note{color:#8a5300}
"""

SCRIPT = """
(function(){
  function check(){
    var imgs=document.images, ok=0;
    for(var i=0;i<imgs.length;i++){ if(imgs[i].complete && imgs[i].naturalWidth>0) ok++; }
    document.documentElement.setAttribute('data-images-ok', ok+'/'+imgs.length);
  }
  window.addEventListener('load', check);
})();
"""


def esc(x) -> str:
    return html.escape(str(x))


def cell_text(row) -> str:
    if pd.isna(row["mean_error_pct"]):
        return "-"
    s = f"{row['mean_error_pct']:.2f}"
    if not pd.isna(row["std_error_pct"]):
        s += f" ± {row['std_error_pct']:.2f}"
    if row["worse"]:
        s += " †"
    return s


# The captions' words for each protocol (framework/results/aggregate.cpp says the same).
PROTOCOL_TEXT = {"holdout": "fitted on the training points, test points mapped",
                 "transductive": "training and test points embedded together, test labels hidden"}


def protocol_caption(protocols) -> str:
    """One protocol: named in the caption; several: a column, and the caption says so."""
    ps = [p for p in dict.fromkeys(protocols) if p]
    if len(ps) == 1:
        return f"; {ps[0]} protocol ({PROTOCOL_TEXT.get(ps[0], '')})"
    if len(ps) > 1:
        return "; protocols differ by row (" + "; ".join(
            f"{p}: {PROTOCOL_TEXT.get(p, '')}" for p in sorted(ps)) + ")"
    return ""


def cell_html(row) -> str:
    """cell_text, its mean ± std bold where it is the best of its column (as drbench marks it)."""
    s = esc(cell_text(row))
    best = row.get("best")
    if best is not None and not pd.isna(best) and bool(best):
        mark = s.find(" †")
        s = f"<b>{s}</b>" if mark < 0 else f"<b>{s[:mark]}</b>{s[mark:]}"
    return s


def test_caption(t: pd.DataFrame, reference: str) -> str:
    """The caption's account of bold and † from the table's own columns: the test, the
    correction and the reference drbench used (framework/results/aggregate.cpp)."""
    cap = ""
    if "best" in t and t["best"].fillna(False).astype(bool).any():
        cap += "; bold: the best mean of its column"
    tested = t[t["p_value"].notna()]
    if tested.empty:
        return cap
    test = "test" in t and next((x for x in tested["test"] if x), "")
    corr = "correction" in t and next((x for x in tested["correction"] if x), "")
    if not test:  # tables stored before the test columns: the paired t-test, uncorrected
        return cap + f"; † significantly worse than {reference} (paired t-test, p < 0.05)"
    name = "Wilcoxon signed-rank test" if test == "wilcoxon" else "paired t-test"
    how = (f"Holm-corrected over the table's {len(tested)} comparison"
           f"{'' if len(tested) == 1 else 's'}" if corr == "holm" else "uncorrected")
    # A file that names no reference is tested against each column's best.
    against = "the best of its column" if reference in ("", "best of column") else reference
    return cap + f"; † significantly worse than {against} ({name}, {how}, p < 0.05)"


def tables_html(r: dres.Results) -> str:
    """One table per dataset x k (x dim when several), rows methods, columns split values: the
    layout of `drbench aggregate`."""
    tab = r.tables
    if tab.empty:
        return "<p>No tables (no successful tasks).</p>"
    out = []
    several = tab["dim"].nunique() > 1
    labels = list(r.attrs.get("labels", [])) + [m for m in dict.fromkeys(tab["method"])
                                                 if m not in r.attrs.get("labels", [])]
    datasets = list(dict.fromkeys(tab["dataset"]))
    for ds in datasets:
        for k in sorted(tab["k"].unique()):
            for dim in sorted(tab["dim"].unique()):
                t = tab[(tab["dataset"] == ds) & (tab["k"] == k) & (tab["dim"] == dim)]
                if t.empty:
                    continue
                kind = t["split_kind"].iloc[0]
                splits = sorted(t["split_value"].unique())
                cap = f"{ds}: {k}-NN test error (%), mean ± std over repeated partitions, best " \
                      "setting per cell" + (f", latent dim {dim}" if several else "")
                cap += test_caption(t, r.tables_reference)
                protocols = list(dict.fromkeys(t["protocol"])) if "protocol" in t else []
                mixed = len([p for p in protocols if p]) > 1
                cap += protocol_caption(protocols)
                h = [f"<table><caption>{esc(cap)}</caption><tr><th>method</th>"
                     + ("<th>protocol</th>" if mixed else "")]
                h += [f"<th>{esc(dplot.fmt_split(kind, s))}</th>" for s in splits]
                h.append("<th>failed</th><th>best setting</th></tr>")
                for lb in labels:
                    rows = t[t["method"] == lb]
                    if rows.empty:
                        continue
                    h.append(f"<tr><td>{esc(lb)}</td>")
                    if mixed:
                        h.append(f"<td>{esc('+'.join(sorted(set(rows['protocol']))))}</td>")
                    for s in splits:
                        c = rows[rows["split_value"] == s]
                        h.append(f"<td class=num>{cell_html(c.iloc[0]) if len(c) else '-'}"
                                 "</td>")
                    # The grid axes only (what the tables choose between), once per distinct one.
                    grid = r.tasks[(r.tasks["dataset"] == ds) & (r.tasks["label"] == lb)]
                    settings = "; ".join(dict.fromkeys(
                        dplot.short_setting(x, grid["setting"]) for x in rows["setting"] if x))
                    h.append(f"<td class=num>{int(rows['failed'].max())}</td>"
                             f"<td class=set>{esc(settings or '(one setting)')}</td></tr>")
                h.append("</table>")
                out.append("".join(h))
    return "\n".join(out)


def provenance_html(r: dres.Results) -> str:
    a = r.attrs
    t = r.tasks
    n_ok = int(t["ok"].sum()) if "ok" in t else 0
    rows = [("experiment", a.get("name", "")), ("profile", a.get("profile", "") or "(none)"),
            ("results file", os.path.abspath(r.path)), ("config hash", a.get("config_hash", "")),
            ("drbench version", a.get("drbench_version", "")), ("BLAS", a.get("blas", "")),
            ("host", a.get("host", "")), ("MPI ranks", a.get("ranks", "")),
            ("started (UTC)", a.get("started", "")),
            ("finished (UTC)", a.get("finished", "") or "(incomplete)"),
            ("tasks", f"{len(t)} of {a.get('n_tasks', '?')} finished, {n_ok} ok, "
                      f"{len(t) - n_ok} failed"),
            ("fit time", f"{t['fit_seconds'].sum():.1f} s summed over tasks"
             if "fit_seconds" in t else ""),
            ("tables", "stored by drbench aggregate" if r.tables_source == "stored"
             else "recomputed from the task table (drbench aggregate not run)")]
    body = "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in rows)
    return f"<table class=prov>{body}</table>"


def build(path: str, out: str, dpi: int = 90, data_dirs=(), metric: str = "error") -> int:
    r = dres.load(path)
    with tempfile.TemporaryDirectory(prefix="drbench-report-") as tmp:
        pl = dplot.Plotter(r, tmp, "png", dpi, data_dirs=data_dirs, metric=metric, ks=r.k[:1])
        pl.all()
        figs = []
        for fname, kind, ds, method, tasks, what in pl.manifest:
            with open(os.path.join(tmp, fname), "rb") as f:
                b64 = base64.b64encode(f.read()).decode("ascii")
            figs.append(f"<figure><img alt=\"{esc(fname)}\" src=\"data:image/png;base64,{b64}\">"
                        f"<figcaption>{esc(fname)}: {esc(what)}</figcaption></figure>")
    notes = "".join(f"<li class=note>{esc(n)}</li>" for n in r.notes)
    title = f"drbench: {r.name}"
    page = (f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{esc(title)}"
            f"</title><style>{CSS}</style><script>{SCRIPT}</script></head><body>\n"
            f"<h1>{esc(title)}</h1>\n<h2>Provenance</h2>\n{provenance_html(r)}\n"
            + (f"<ul>{notes}</ul>\n" if notes else "")
            + f"<details><summary>effective config</summary><pre>{esc(r.attrs.get('config', ''))}"
            f"</pre></details>\n<h2>Tables</h2>\n{tables_html(r)}\n"
            f"<h2>Figures ({len(figs)})</h2>\n" + "\n".join(figs)
            + "\n</body></html>\n")
    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(page)
    dplot.write_whole(out, write)  # never a half-written page
    return len(figs)


def main(argv=None):
    p = argparse.ArgumentParser(prog="drbench report",
                                description="One self-contained HTML page of a results file.")
    p.add_argument("results")
    p.add_argument("-o", "--output", default=None, help="HTML file (default <results>.html)")
    p.add_argument("--dpi", type=int, default=90)
    p.add_argument("--metric", default="error", choices=["error", "accuracy"])
    p.add_argument("--data-path", action="append", default=[])
    a = p.parse_args(argv)
    out = a.output or os.path.splitext(a.results)[0] + ".html"
    try:
        n = build(a.results, out, a.dpi, a.data_path, a.metric)
    except ValueError as e:
        p.error(str(e))
    print(f"{out}: report with {n} figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
