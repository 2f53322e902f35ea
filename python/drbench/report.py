"""One self-contained, interactive HTML page of one or more results files:
`drbench report A.h5 [B.h5 ...] -o page.html [--watch SECONDS]`.

The page holds the files' provenance, configs, failed tasks, the tables with their captions as the
drbench program stores or prints them (bold best cell, significance marks, selection rule and
protocol: never recomputed here or in JavaScript), the stored ranks and critical difference,
R_NX(K) curves, optimiser traces and every method's latent space at the tables' chosen setting,
its coordinates quantised to 16 bits per axis. The page's own JavaScript
(python/drbench/report_assets/page.js: canvas scatters, SVG curves, no library) is inlined, so
nothing is fetched when the page is viewed. Selectors (data set,
dim, split value, k, measure, protocol) redraw tables and figures; tables sort by a click on a
column head. docs/figures.md says what a page holds and how large it grows.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import html
import json
import os
import re
import sys
import time
import warnings

from drbench._deps import require

require("numpy", "h5py", "pandas", "matplotlib", what="drbench report")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from drbench import data as dsdata  # noqa: E402
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


ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report_assets")
MAX_POINTS = 100_000  # per embedding; above it a seeded uniform subsample, said on the page
TRACE_POINTS = 400  # per optimiser trace: every n-th iteration, the last always kept
# Image thumbnails shown on hover, per panel: at most this many points (a seeded subsample, seed
# 0, of the panel's points ordered by dataset index, so panels of one partition share theirs),
# each downsampled by an integer factor to about 14 pixels a side and stored at 16 grey levels,
# two pixels a byte: 2,000 28x28 images take 196 KB (261 KB in base64) a partition.
THUMB_CAP = 2000
THUMB_SIDE = 14

PAGE_CSS = CSS + """
body{max-width:1400px}
.bar{position:sticky;top:0;background:#fff;border-bottom:1px solid #ccc;padding:.5em 0;z-index:10}
.bar label{margin-right:1em;font-size:.9em}.bar select{margin-left:.3em}
.tag{font-weight:400;background:#eef;border-radius:3px;padding:0 .3em;margin-right:.3em}
th{cursor:pointer;user-select:none}th:hover{background:#e4e4f4}
.plot{width:100%}table.res{min-width:min(100%,56em)}table.res caption{font-weight:400}.fignote{font-size:.85em;color:#555;margin:.2em 0 1.5em}
.progress{background:#fff4d6;border:1px solid #e0b050;padding:.5em .8em;margin:.5em 0}
table.fail td{font-size:.85em;vertical-align:top}td.msg{white-space:pre-wrap;max-width:50em}
.grid{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-end}.panel{position:relative;width:400px}
.panel canvas{cursor:crosshair;display:block}.ptitle{font-size:.85em;font-weight:600;margin:.2em 0}
.tip{position:absolute;display:none;background:#222;color:#fff;font-size:.8em;padding:.2em .4em;
border-radius:3px;pointer-events:none;white-space:nowrap;z-index:5}
.tip canvas.thumb{image-rendering:pixelated;margin-top:.2em;display:inline-block}
.legend{margin:.3em 0 .6em;font-size:.85em}.key{margin-right:1em;cursor:pointer;user-select:none}
.key i{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:middle}
.key.off{opacity:.35;text-decoration:line-through}
.chart{display:flex;align-items:flex-start;gap:10px}.cplot{position:relative}
.clegend{font-size:.85em;max-height:400px;overflow:auto;max-width:300px}
.clegend .key{display:block;margin:.15em 0}.clegend .key i{height:.3em;width:1.4em}
.ctitle{font-size:.85em;margin:.8em 0 .2em}
svg text{font-size:11px;fill:#333}svg text.atitle{font-size:12px}svg line.gl{stroke:#eee}
svg rect.frame{fill:none;stroke:#999}svg path.series{fill:none;stroke-width:1.8}
svg path.ebar{fill:none;stroke-width:1;opacity:.7}svg circle.ring{fill:none;stroke:#000;stroke-width:1.5}
svg line.axis{stroke:#333}svg line.cdbar{stroke:#000;stroke-width:2}
svg line.clique{stroke:#000;stroke-width:4}svg line.stem{stroke-width:1}
"""


def _b64(a: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode("ascii")


class Arrays:
    """Typed arrays of the page, each stored once (base64 of its little-endian bytes) however
    many embeddings share it (the labels and point indices of one data set's partition)."""

    def __init__(self):
        self.items = {}

    def add(self, a: np.ndarray, dtype: str) -> str:
        a = np.asarray(a).astype({"u8": "<u1", "u16": "<u2", "i16": "<i2", "i32": "<i4"}[dtype])
        key = hashlib.sha1(dtype.encode() + a.tobytes()).hexdigest()[:12]
        self.items.setdefault(key, {"dtype": dtype, "b64": _b64(a)})
        return key


def _num(v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return None if np.isnan(x) or np.isinf(x) else x


def parse_md_table(body: str):
    """The header and rows of one markdown table as `drbench aggregate` prints it."""
    lines = [ln for ln in body.splitlines() if ln.startswith("|")]
    if len(lines) < 2:
        return [], []
    split = lambda ln: [c.strip() for c in ln.strip().strip("|").split(" | ")]  # noqa: E731
    return split(lines[0]), [split(ln) for ln in lines[2:]]


def _cell(text: str) -> dict:
    m = re.fullmatch(r"\*\*(.*?)\*\*(.*)", text)
    return {"text": m.group(1), "bold": True, "mark": m.group(2)} if m else \
        {"text": text, "bold": False, "mark": ""}


class Page:
    """The data of one page, gathered from the results files (see build())."""

    def __init__(self, paths, data_dirs=(), max_points=MAX_POINTS):
        self.paths, self.data_dirs, self.max_points = list(paths), data_dirs, max_points
        self.thumb_cap = THUMB_CAP
        self._info = {}
        self.arrays = Arrays()
        self.d = {"files": [], "tables": [], "cells": [], "rnx": [], "ranks": [], "traces": [],
                  "embeddings": [], "classes": {}, "splits": {}, "split_kind": {},
                  "max_points": max_points, "datasets": [], "methods": [], "protocols": [],
                  "measures": [{"key": "knn_error", "name": "k-NN test error (%)"}]}
        self.rank_k = None

    # ---- one file ----
    def add_file(self, fi: int, path: str):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an unfinished run is said on the page instead
            r = dres.load(path)
        t = r.tasks
        protocols = sorted(set(t["protocol"])) if "protocol" in t and len(t) else []
        tag = (r.attrs.get("profile") or r.name or os.path.basename(path))
        tag = tag if len(self.paths) == 1 else f"{os.path.basename(path)}"
        by_label = dict(zip(t["label"], t["protocol"])) if "protocol" in t and len(t) else {}
        self.d["files"].append({"tag": tag, "path": os.path.abspath(path), "name": r.name,
                                "protocols": protocols, "progress": progress(r, path),
                                "notes": list(r.notes)})
        for x in r.attrs.get("datasets", []) + list(dict.fromkeys(t.get("dataset", []))):
            if x not in self.d["datasets"]:
                self.d["datasets"].append(x)
        for x in r.attrs.get("labels", []) + list(dict.fromkeys(t.get("label", []))):
            if x not in self.d["methods"]:
                self.d["methods"].append(x)
        for p in protocols:
            if p not in self.d["protocols"]:
                self.d["protocols"].append(p)
        if self.rank_k is None and r.k:
            self.rank_k = r.k[0]
        self.add_tables(fi, path, r, by_label)
        self.add_ranks(fi, path, r)
        chosen = self.chosen_settings(r)
        self.add_embeddings(fi, r, chosen, by_label)
        self.add_rnx(fi, r, chosen, by_label)
        self.add_traces(fi, r, chosen)
        return r

    def measures_of(self, r):
        """(key, --metric, --k) of every tabulated measure: kNN error, then each quality
        measure at each of its K."""
        out = [("knn_error", None, None)]
        q = r.quality_columns()
        for m in dict.fromkeys(q["measure"]):
            for k in q[q["measure"] == m]["k"]:
                out.append((f"{m}@{k}" if k else m, m, int(k) if k else None))
        return out

    def add_tables(self, fi, path, r, by_label):
        for key, metric, _ in self.measures_of(r):
            if key not in [m["key"] for m in self.d["measures"]]:
                self.d["measures"].append({"key": key, "name": key.replace("@", " at K = ")})
            try:
                tables = dres.captioned_tables(path, metric)
            except (ValueError, FileNotFoundError) as e:
                self.d["files"][fi]["notes"].append(f"no {key} tables: {e}")
                continue
            for cap, md, csv in tables:
                if csv.empty:
                    continue
                k = int(csv["k"].iloc[0])
                if metric and key != (f"{metric}@{k}" if k else metric):
                    continue
                self.add_table(fi, key, cap, md, csv, by_label)

    def add_table(self, fi, key, cap, md, csv, by_label):
        """One table: the cells' text as the program rendered it (md), their numbers (csv)
        for sorting, curves and the tooltip."""
        ds, k, dim = csv["dataset"].iloc[0], int(csv["k"].iloc[0]), int(csv["dim"].iloc[0])
        value = "mean_error_pct" if "mean_error_pct" in csv else "mean"
        spread = "std_error_pct" if "std_error_pct" in csv else "std"
        splits = sorted(set(float(v) for v in csv["split_value"]))
        kind = csv["split_kind"].iloc[0]
        self.d["split_kind"][ds] = kind
        known = {s["value"] for s in self.d["splits"].setdefault(ds, [])}
        for s in splits:
            if s not in known:
                self.d["splits"][ds].append({"value": s, "name": dplot.fmt_split(kind, s)})
        self.d["splits"][ds].sort(key=lambda s: s["value"])
        header, rows = parse_md_table(md) if md else ([], [])
        if not header:  # the csv alone: the program's numbers, without its text
            header = ["method"] + [dplot.fmt_split(kind, s) for s in splits] + ["failed"]
            rows = []
            for m in dict.fromkeys(csv["method"]):
                c = csv[csv["method"] == m]
                rows.append([m] + [next((f"{float(x[value]):.4g}" for _, x in
                                         c[c["split_value"].astype(float) == s].iterrows()), "-")
                                   for s in splits] + [str(c["failed"].astype(int).max())])
        split_cols = [j for j, h in enumerate(header) if h not in ("method", "protocol", "failed")]
        protocols = set()
        out_rows = []
        for row in rows:
            if len(row) != len(header):
                continue
            method = row[0]
            proto = row[header.index("protocol")] if "protocol" in header else by_label.get(method, "")
            protocols.add(proto)
            c = csv[csv["method"] == method]
            cells, sort = [], []
            for j, text in enumerate(row):
                cell = _cell(text)
                sv = splits[split_cols.index(j)] if j in split_cols and \
                    len(split_cols) == len(splits) else None
                if sv is None:
                    sort.append(_num(text) if header[j] == "failed" else text.lower())
                else:
                    x = c[c["split_value"].astype(float) == sv]
                    x = x.iloc[0] if len(x) else None
                    sort.append(_num(x[value]) if x is not None else None)
                    if x is not None:
                        cell["title"] = tooltip(x, value)
                        self.d["cells"].append({
                            "file": fi, "measure": key, "dataset": ds, "k": k, "dim": dim,
                            "split": sv, "method": method, "protocol": proto,
                            "mean": _num(x[value]), "std": _num(x[spread]),
                            "text": cell["text"] + cell["mark"], "setting": x["setting"]})
                cells.append(cell)
            out_rows.append({"protocol": proto, "cells": cells, "sort": sort})
        protocols.discard("")
        self.d["tables"].append({
            "id": len(self.d["tables"]), "file": fi, "measure": key, "dataset": ds, "k": k,
            "dim": dim, "caption": cap, "columns": header,
            "numeric": [h != "method" and h != "protocol" for h in header],
            "protocol": "+".join(sorted(protocols)), "rows": out_rows})

    def add_ranks(self, fi, path, r):
        for key, metric, k in self.measures_of(r):
            try:
                df = dres.ranks(path, metric, k)
            except (ValueError, FileNotFoundError) as e:
                self.d["files"][fi]["notes"].append(f"no {key} ranks: {e}")
                continue
            if df.empty:
                continue
            first = df.iloc[0]
            self.d["ranks"].append({
                "file": fi, "measure_key": key, "measure": first["measure"],
                "k": self.rank_k if key == "knn_error" else k,
                "labels": list(df["label"]), "mean_rank": [float(x) for x in df["mean_rank"]],
                "blocks": int(first["blocks"]), "cd": _num(first["cd"]),
                "p": _num(first["p"]), "p_f": _num(first["p_f"]), "alpha": _num(first["alpha"]),
                "left_out": first["left_out"], "protocols": first["protocols"]})

    def chosen_settings(self, r):
        """(dataset, label, dim, split value) -> the setting the kNN tables chose at the first
        k (the stored selection; figures show that setting's task)."""
        tab = r.tables
        if tab.empty or not r.k:
            return {}
        tab = tab[tab["k"] == r.k[0]]
        return {(a, b, int(c), float(d)): s for a, b, c, d, s in
                zip(tab["dataset"], tab["method"], tab["dim"], tab["split_value"], tab["setting"])}

    def shown_tasks(self, r, chosen, ids=None):
        """One task per (dataset, label, dim, split value): the chosen setting's, first
        partition (lowest repeat, then id); only tasks in `ids` when given."""
        t = r.tasks
        if t.empty:
            return t
        t = t[t["ok"]] if "ok" in t else t
        if "fold" in t:  # selection: validation's inner tasks embed inner splits
            t = t[t["fold"] < 0]
        if ids is not None:
            t = t[t["id"].isin(ids)]
        keep = []
        for key, g in t.groupby(["dataset", "label", "dim", "split_value"], sort=False):
            s = chosen.get((key[0], key[1], int(key[2]), float(key[3])))
            best = g[g["setting"] == s] if s is not None else g
            g = best if len(best) else g
            keep.append(g.sort_values(["repeat", "id"] if "repeat" in g else ["id"]).index[0])
        return t.loc[keep]

    def add_embeddings(self, fi, r, chosen, by_label):
        ids = set(r.embedding_ids)
        if not ids:
            return
        dirs = dsdata.search_path(r.attrs.get("config", ""), self.data_dirs)
        rng = np.random.default_rng(0)
        for _, task in self.shown_tasks(r, chosen, ids).iterrows():
            e = r.embedding(int(task["id"]))
            ds = task["dataset"]
            z = e[[c for c in e.columns if re.fullmatch(r"z\d+", c)]].to_numpy(dtype=float)
            n_train = int((e["part"] == "train").sum())
            total = len(e)
            keep = np.arange(total)
            if total > self.max_points:
                keep = np.sort(rng.choice(total, self.max_points, replace=False))
            shown_train = int((keep < n_train).sum())
            z = z[keep]
            axes = []
            for j in range(min(2, z.shape[1])):
                v = z[:, j]
                ok = np.isfinite(v)
                lo, hi = (float(v[ok].min()), float(v[ok].max())) if ok.any() else (0.0, 1.0)
                hi = hi if hi > lo else lo + 1.0
                q = np.round((np.where(ok, v, lo) - lo) / (hi - lo) * 65535)
                axes.append({"id": self.arrays.add(q, "u16"), "lo": lo, "hi": hi})
            if len(axes) == 2 and not np.isfinite(z[:, 1]).any():
                axes = axes[:1]  # a one-dimensional embedding
            lab = e["label"].to_numpy()[keep]
            idx = e["index"].to_numpy()[keep]
            has_lab = (lab >= 0).any()
            if ds not in self._info:
                self._info[ds] = dsdata.DatasetInfo(ds, dirs, r.attrs.get("config", ""))
            if has_lab and ds not in self.d["classes"]:
                self.d["classes"][ds] = self._info[ds].class_names(int(lab.max()) + 1)
            thumbs = self.thumbnails(self._info[ds], idx) if (idx >= 0).all() else None
            self.d["embeddings"].append({
                "file": fi, "task": int(task["id"]), "dataset": ds, "method": task["label"],
                "dim": int(task["dim"]), "split": float(task["split_value"]),
                "protocol": by_label.get(task["label"], ""), "n_train": shown_train,
                "shown": len(keep), "total": total, "axes": axes,
                "labels": self.arrays.add(lab, "u8" if lab.max(initial=0) < 256 else "i16")
                if has_lab else None,
                "index": self.arrays.add(idx, "i32") if (idx >= 0).any() else None,
                "thumbs": thumbs})

    def thumbnails(self, info, idx):
        """The hover images of one panel (see THUMB_CAP), or None for data without images."""
        if info.image_shape is None or len(idx) == 0:
            return None
        by_index = np.argsort(idx, kind="stable")
        pick = np.arange(len(idx))
        if len(idx) > self.thumb_cap:
            pick = np.sort(np.random.default_rng(0).choice(len(idx), self.thumb_cap,
                                                           replace=False))
        pos = np.sort(by_index[pick])
        imgs = info.images(idx[pos])
        if imgs is None:
            return None
        h, w = imgs.shape[1:]
        f = max(1, max(h, w) // THUMB_SIDE)
        hh, ww = h // f, w // f
        small = imgs[:, :hh * f, :ww * f].reshape(len(pos), hh, f, ww, f).mean(axis=(2, 4))
        q = np.clip(np.round(small * 15), 0, 15).astype(np.uint8).reshape(len(pos), -1)
        if q.shape[1] % 2:
            q = np.pad(q, ((0, 0), (0, 1)))
        packed = (q[:, 0::2] << 4) | q[:, 1::2]
        return {"pos": self.arrays.add(pos, "i32"), "px": self.arrays.add(packed.ravel(), "u8"),
                "h": int(hh), "w": int(ww), "n": int(len(pos)), "cap": self.thumb_cap}

    def add_rnx(self, fi, r, chosen, by_label):
        curves = r.rnx_curves()
        if curves.empty:
            return
        auc = "rnx_auc" if "rnx_auc" in r.tasks else None
        for _, task in self.shown_tasks(r, chosen, set(curves["task_id"])).iterrows():
            c = curves[curves["task_id"] == task["id"]]
            self.d["rnx"].append({
                "file": fi, "dataset": task["dataset"], "method": task["label"],
                "dim": int(task["dim"]), "split": float(task["split_value"]),
                "protocol": by_label.get(task["label"], ""), "K": c["K"].astype(int).tolist(),
                "rnx": [round(float(x), 5) for x in c["rnx"]],
                "auc": float(task[auc]) if auc and np.isfinite(task[auc]) else float("nan")})

    def add_traces(self, fi, r, chosen):
        tr = r.traces
        if tr.empty:
            return
        for _, task in self.shown_tasks(r, chosen, set(tr["task_id"])).iterrows():
            g = tr[tr["task_id"] == task["id"]]
            step = max(1, len(g) // TRACE_POINTS)
            g = pd.concat([g.iloc[::step], g.iloc[[-1]]]).drop_duplicates("iteration")
            ok = np.isfinite(g["objective"].to_numpy(dtype=float))
            g = g[ok]
            self.d["traces"].append({
                "file": fi, "dataset": task["dataset"], "method": task["label"],
                "dim": int(task["dim"]), "split": float(task["split_value"]),
                "optimizer": str(g["optimizer"].iloc[0]) if len(g) else "",
                "iteration": g["iteration"].astype(int).tolist(),
                "objective": [float(f"{x:.7g}") for x in g["objective"]]})


def tooltip(x, value) -> str:
    parts = [f"setting: {x['setting'] or '(one setting)'}", f"n = {x['n']}"]
    for c, name in (("p_value", "p"), ("p_adjusted", "p adjusted")):
        if c in x and _num(x[c]) is not None:
            parts.append(f"{name} = {float(x[c]):.3g}")
    if "reference" in x and x["reference"]:
        parts.append(f"against {x['reference']}")
    if _num(x.get("failed")):
        parts.append(f"failed tasks: {x['failed']}")
    return "; ".join(parts)


def progress(r: dres.Results, path: str) -> dict:
    """How far a file's run has come: tasks in the file, tasks its journal holds (a run still
    writing), and how many are left, as the program counts them (`drbench info --progress`);
    without a program, from the file alone (a journal's tasks then go uncounted)."""
    p = dres.run_progress(path)
    if p is None:
        journal = path + ".journal"
        halving = int(r.attrs.get("halving_repeats", 0) or 0) > 0
        p = {"tasks": len(r.tasks), "expected": int(r.attrs.get("n_tasks", 0) or 0),
             "finished": bool(r.attrs.get("finished")),
             "journal": journal if os.path.isfile(journal) else None, "journal_tasks": None}
        p["left"] = None if halving else max(p["expected"] - p["tasks"], 0)
    done, total, jn, left = p["tasks"], p["expected"], p["journal_tasks"], p["left"]
    running = p["journal"] is not None
    if p["finished"] and not running:
        return {"done": done, "total": total, "left": 0, "running": False, "text": ""}
    text = (f"{os.path.basename(path)}: run not finished"
            + (" (its journal is present: still running, or stopped)" if running else
               " (stopped or killed; rerun the same `drbench run` command to complete it)")
            + f": the file holds {done} of {total} tasks"
            + (f" (its journal {jn})" if jn is not None and jn > done else "")
            + (f"; {left} left" if left is not None else "; successive halving runs only part "
               "of the expanded tasks")
            + ". The page shows what is finished.")
    return {"done": done, "total": total, "left": left, "running": running, "text": text}


def failed_html(r: dres.Results) -> str:
    t = r.tasks
    if t.empty or "ok" not in t or t["ok"].all():
        return "<p>No failed tasks.</p>"
    f = t[~t["ok"]]
    rows = "".join(
        f"<tr><td>{int(x['id'])}</td><td>{esc(x.get('dataset', ''))}</td>"
        f"<td>{esc(x.get('label', ''))}</td><td>{esc(x.get('dim', ''))}</td>"
        f"<td>{esc(x.get('split_value', ''))}</td><td>{esc(x.get('setting', ''))}</td>"
        f"<td class=msg>{esc(x.get('error', ''))}</td></tr>" for _, x in f.iterrows())
    return (f"<table class=fail><caption>{len(f)} failed task(s)</caption><tr><th>id</th>"
            "<th>dataset</th><th>method</th><th>dim</th><th>split</th><th>setting</th>"
            f"<th>message</th></tr>{rows}</table>")


def _json(obj) -> str:
    # Inside <script>: no "</" may end it early.
    return json.dumps(obj, separators=(",", ":"), allow_nan=False,
                      default=lambda o: o.item() if hasattr(o, "item") else str(o)) \
        .replace("</", "<\\/")


def _clean(o):
    """NaN and infinities as null: JSON has no such numbers."""
    if isinstance(o, float):
        return o if np.isfinite(o) else None
    if isinstance(o, dict):
        return {k: _clean(v) for k, v in o.items()}
    if isinstance(o, list):
        return [_clean(v) for v in o]
    return o


def _file_html(fi: int, r: dres.Results, info: dict) -> str:
    notes = "".join(f"<li class=note>{esc(n)}</li>" for n in info["notes"])
    return (f"<h3><span class=tag>{esc(info['tag'])}</span>{esc(info['path'])}</h3>\n"
            f"{provenance_html(r)}\n" + (f"<ul>{notes}</ul>\n" if notes else "")
            + f"<details><summary>effective config</summary><pre>"
            f"{esc(r.attrs.get('config', ''))}</pre></details>\n{failed_html(r)}\n")


FIGURES = [("scatter", "Latent spaces"), ("split-curve", "Error against the split value"),
           ("dim-curve", "Error against the latent dimension"), ("rnx", "R_NX(K) curves"),
           ("cd", "Critical-difference diagram"), ("traces", "Objective traces")]


def render(paths, data_dirs=(), max_points=MAX_POINTS) -> tuple:
    """The page's HTML and a summary (files, tables, embeddings, points)."""
    page = Page(paths, data_dirs, max_points)
    parts, static = [], []
    for fi, p in enumerate(paths):
        r = page.add_file(fi, p)
        parts.append(_file_html(fi, r, page.d["files"][fi]))
        static.append(tables_html(r))
    d = page.d
    d["rank_k"] = page.rank_k
    d["arrays"] = page.arrays.items
    names = [os.path.basename(p) for p in paths]
    title = "drbench: " + ", ".join(dict.fromkeys(f["name"] or n for f, n in
                                                  zip(d["files"], names)))
    banners = "".join(f"<p class=progress>{esc(f['progress']['text'])}</p>"
                      for f in d["files"] if f["progress"]["text"])
    with open(os.path.join(ASSETS, "page.js"), encoding="utf-8") as f:
        script = f.read()
    sel = "".join(f"<label>{lab}<select id=sel-{n}></select></label>" for n, lab in
                  (("dataset", "data set"), ("dim", "dim"), ("split", "split"), ("k", "k"),
                   ("measure", "measure"), ("protocol", "protocol")))
    figs = "".join(f"<h2>{esc(h)}</h2><div id={i}{'' if i == 'scatter' else ' class=plot'}></div><p id={i}-note class=fignote>"
                   "</p>\n" for i, h in FIGURES)
    n_points = sum(e["shown"] for e in d["embeddings"])
    html_text = (
        f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{esc(title)}</title>"
        f"<style>{PAGE_CSS}</style>\n"
        f"<script id=drbench-data type=application/json>{_json(_clean(d))}</script>\n"
        f"<script>{script}</script></head><body>\n<h1>{esc(title)}</h1>\n{banners}"
        f"<p>{len(paths)} results file(s), generated {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}"
        f" by drbench report; {len(d['embeddings'])} latent spaces, {n_points:,} points. "
        "Tables and ranks are those the drbench program stores or prints; nothing is "
        "recomputed here.</p>\n"
        f"<div class=bar>{sel}</div>\n<h2>Tables</h2><div id=tables></div>\n"
        f"<noscript>{''.join(static)}</noscript>\n{figs}"
        f"<h2>Provenance</h2>\n{''.join(parts)}</body></html>\n")
    return html_text, {"files": len(paths), "tables": len(d["tables"]),
                       "embeddings": len(d["embeddings"]), "points": n_points,
                       "running": any(f["progress"]["running"] or f["progress"]["left"]
                                      for f in d["files"])}


def build(paths, out: str, data_dirs=(), max_points=MAX_POINTS) -> dict:
    paths = [paths] if isinstance(paths, str) else list(paths)
    text, summary = render(paths, data_dirs, max_points)

    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
    dplot.write_whole(out, write)  # never a half-written page
    summary["bytes"] = os.path.getsize(out)
    return summary


def main(argv=None):
    p = argparse.ArgumentParser(prog="drbench report",
                                description="One self-contained, interactive HTML page of one or "
                                "more results files.")
    p.add_argument("results", nargs="+", help="results files (.h5); one page for them all")
    p.add_argument("-o", "--output", default=None,
                   help="HTML file (default: the first results file's name with .html)")
    p.add_argument("--data-path", action="append", default=[],
                   help="directory with the dataset files (class names)")
    p.add_argument("--max-points", type=int, default=MAX_POINTS,
                   help=f"points drawn per latent space; above it a seeded uniform subsample, "
                   f"said on the page (default {MAX_POINTS})")
    p.add_argument("--watch", type=float, default=None, metavar="SECONDS",
                   help="rewrite the page every SECONDS while a run is unfinished (journal "
                   "present or tasks left), then once more and stop")
    a = p.parse_args(argv)
    if a.max_points < 1:
        p.error("--max-points must be at least 1")
    if a.watch is not None and a.watch <= 0:
        p.error("--watch needs a positive number of seconds (e.g. --watch 30)")
    out = a.output or os.path.splitext(a.results[0])[0] + ".html"
    first = True
    while True:
        try:
            s = build(a.results, out, a.data_path, a.max_points)
        except ValueError as e:
            if first or a.watch is None:
                p.error(str(e))
            # A file caught mid-snapshot by the running program: the page stays as it was.
            print(f"drbench report: {e}; trying again in {a.watch:g} s", file=sys.stderr,
                  flush=True)
            try:
                time.sleep(a.watch)
            except KeyboardInterrupt:
                return 0
            continue
        first = False
        print(f"{out}: {s['files']} file(s), {s['tables']} tables, {s['embeddings']} latent "
              f"spaces ({s['points']:,} points), {s['bytes'] / 1e6:.1f} MB"
              + ("; run unfinished" if s["running"] else ""), flush=True)
        if a.watch is None or not s["running"]:
            return 0
        try:
            time.sleep(a.watch)
        except KeyboardInterrupt:
            return 0


if __name__ == "__main__":
    sys.exit(main())
