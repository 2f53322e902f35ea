"""Figures of a drbench results file: `drbench plot RESULTS.h5 [-o DIR] ...` runs this module.

    python3 -m drbench.plot results/quickstart.h5 -o results/figures/quickstart

Draws, for what the file holds (docs/figures.md):
  latent_<dataset>_<method>   latent scatter of one task (2-D, or 1-D along a line), by class
  latent_<dataset>_grid       every method's scatter side by side
  images_<dataset>_<method>   image datasets: thumbnails at their latent positions
  error_vs_split_<dataset>_k<k>       error (or accuracy) against the split value, per method
  error_vs_dim_<dataset>_k<k>[_<split>]  error against the latent dimension
  trace_<dataset>_<method>    objective against iteration and against seconds
and writes manifest.tsv (one line per file: file, kind, dataset, method, tasks, what).
"""
from __future__ import annotations

import argparse
import os
import re
import sys

from drbench._deps import require

require("numpy", "h5py", "pandas", "matplotlib", what="drbench plot")

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import h5py  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.offsetbox import AnnotationBbox, OffsetImage  # noqa: E402

from drbench import data as dsdata  # noqa: E402
from drbench import results as dres  # noqa: E402

TRAIN_MARK, TEST_MARK = "o", "^"
# Above this many embedded points a latent scatter uses small markers in a random order.
BIG_SCATTER = 5000
MAX_TRACE_CURVES = 12


def slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", str(s)).strip("-").lower() or "x"


def parse_setting(s: str) -> dict:
    return dict(kv.split("=", 1) for kv in s.split(",") if "=" in kv) if s else {}


def short_setting(setting: str, all_settings) -> str:
    """Only the parameters that differ between the settings a method was run with (the grid
    axes): the rest are defaults every task shares."""
    mine = parse_setting(setting)
    others = [parse_setting(x) for x in set(all_settings)]
    keys = [k for k in mine if len({o.get(k) for o in others}) > 1]
    return ",".join(f"{k}={mine[k]}" for k in keys)


def fmt_split(kind: str, v: float) -> str:
    if kind == "ratio":
        return f"{100 * v:g}% train"
    if kind == "per_class":
        return f"{v:g} per class"
    return f"{kind} split"


def _palette_png(path):
    """Re-encodes a PNG with a 256-colour palette (deterministic median cut, no dithering):
    a third of the size and indistinguishable for line and scatter plots. Kept as is when PIL
    (a dependency of Debian's matplotlib) is missing."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as im:
        q = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                       dither=Image.Dither.NONE)
    q.save(path, optimize=True)


class Plotter:
    def __init__(self, r: dres.Results, out: str, fmt: str = "png", dpi: int = 100,
                 datasets=None, methods=None, data_dirs=(), metric: str = "error",
                 max_panels: int = 12, ks=None, paper=None):
        self.r, self.out, self.fmt, self.dpi = r, out, fmt, dpi
        self.metric = metric
        self.ks = [k for k in r.k if ks is None or k in ks]
        self.paper = paper  # published values to draw beside ours (read_paper)
        self.max_panels = max_panels
        t = r.tasks
        if datasets:
            t = t[t["dataset"].isin(datasets)]
        if methods:
            t = t[t["label"].isin(methods) | t["method"].isin(methods)]
        self.tasks = t
        tab = r.tables
        if datasets:
            tab = tab[tab["dataset"].isin(datasets)]
        if methods:
            tab = tab[tab["method"].isin(set(t["label"]))]
        self.tables = tab
        self.dirs = dsdata.search_path(r.attrs.get("config", ""), data_dirs)
        self.manifest = []
        self._info = {}
        self.labels = [x for x in r.attrs.get("labels", []) if x in set(t["label"])]
        self.labels += [x for x in dict.fromkeys(t["label"]) if x not in self.labels]
        self.datasets = [x for x in r.attrs.get("datasets", []) if x in set(t["dataset"])]
        self.datasets += [x for x in dict.fromkeys(t["dataset"]) if x not in self.datasets]
        self.colors = {lb: plt.get_cmap("tab10")(i % 10) for i, lb in enumerate(self.labels)}
        self.emb_ids = set(r.embedding_ids)
        # Labels whose "embedding" is the input itself (identity ignores dims).
        self.input_space_labels = set(t[t["method"] == "identity"]["label"]) if "method" in t \
            else set()

    # ---- helpers ----
    def info(self, ds) -> dsdata.DatasetInfo:
        if ds not in self._info:
            self._info[ds] = dsdata.DatasetInfo(ds, self.dirs)
        return self._info[ds]

    def indices_are_file_rows(self, ds, task) -> bool:
        """Point indices count rows of the dataset after max_points subsampling; only without
        subsampling do they address rows of the file (for thumbnails and sequence order)."""
        info = self.info(ds)
        if not info.path:
            return False
        cfg = self.r.attrs.get("config", "")
        try:
            import yaml
            spec = [d for d in (yaml.safe_load(cfg) or {}).get("datasets", [])
                    if isinstance(d, dict) and d.get("name") == ds]
            if spec and "max_points" not in spec[0]:
                return True
        except Exception:  # no PyYAML, or a config it cannot read: judge by the point count
            pass
        with h5py.File(info.path, "r") as f:
            n = f["X"].shape[0]
        return int(task["n_train"]) + int(task["n_test"]) == n

    def save(self, fig, name, kind, dataset="", method="", tasks=(), what=""):
        os.makedirs(self.out, exist_ok=True)
        fname = f"{name}.{self.fmt}"
        # Fixed metadata so the same results give byte-identical files.
        meta = {"png": {"Software": None}, "pdf": {"CreationDate": None, "Producer": None},
                "svg": {"Date": None}}.get(self.fmt, {})
        path = os.path.join(self.out, fname)

        def draw(tmp):
            fig.savefig(tmp, format=self.fmt, dpi=self.dpi, metadata=meta, bbox_inches="tight")
            if self.fmt == "png":
                _palette_png(tmp)
        try:
            write_whole(path, draw)
        finally:
            plt.close(fig)
        self.manifest.append((fname, kind, dataset, method,
                              ",".join(str(int(i)) for i in tasks), what))

    def write_manifest(self):
        path = os.path.join(self.out, "manifest.tsv")
        os.makedirs(self.out, exist_ok=True)
        def write(tmp):
            with open(tmp, "w") as f:
                f.write("file\tkind\tdataset\tmethod\ttasks\twhat\n")
                for row in self.manifest:
                    f.write("\t".join(str(x).replace("\t", " ").replace("\n", " ") for x in row)
                            + "\n")
        write_whole(path, write)
        return path

    def y_of(self, mean_pct, std_pct):
        if self.metric == "accuracy":
            return 100.0 - mean_pct, std_pct
        return mean_pct, std_pct

    @property
    def y_label(self):
        k_word = "1-NN" if self.r.k and self.r.k[0] == 1 else "kNN"
        return (f"{k_word} test accuracy (%)" if self.metric == "accuracy"
                else f"{k_word} test error (%)")

    # ---- latent spaces ----
    def representative(self, ds, label):
        """The task a scatter shows: the cell's best setting (tables, first k), the first split
        value, the dim closest to 2 (2 preferred, then the smallest), repeat 0 (or the first
        repeat that kept its embedding)."""
        t = self.tasks[(self.tasks["dataset"] == ds) & (self.tasks["label"] == label) &
                       self.tasks["ok"] & self.tasks["id"].isin(self.emb_ids)]
        if "fold" in t:  # selection: validation's inner tasks embed inner splits, not the test points
            t = t[t["fold"] < 0]
        if t.empty:
            return None, None
        dims = sorted(t["dim"].unique())
        dim = 2 if 2 in dims else ([d for d in dims if d > 2] or dims)[0]
        split = sorted(t["split_value"].unique())[0]
        t = t[(t["dim"] == dim) & (t["split_value"] == split)]
        tab = self.tables
        row = tab[(tab["dataset"] == ds) & (tab["method"] == label) &
                  (tab["split_value"] == split) & (tab["dim"] == dim)]
        if not row.empty:
            row = row.iloc[0]
            best = t[t["setting"] == row["setting"]]
            if not best.empty:
                t = best
        task = t.sort_values(["repeat", "id"]).iloc[0]
        return task, (row if isinstance(row, pd.Series) else None)

    def title_of(self, task, row, short=False):
        kcol = f"error_k{self.r.k[0]}"
        err = 100 * task[kcol]
        grid = self.tasks[(self.tasks["dataset"] == task["dataset"]) &
                          (self.tasks["label"] == task["label"])]["setting"]
        st = short_setting(task["setting"], grid)
        head = f"{task['label']}" + (f" ({st})" if st else "")
        d = "input space" if task["label"] in self.input_space_labels else f"d={task['dim']}"
        where = f"{fmt_split(task['split_kind'], task['split_value'])}, {d}, " \
                f"repeat {task['repeat']}"
        e = f"{self.r.k[0]}-NN error {err:.2f}%"
        if row is not None and not pd.isna(row["mean_error_pct"]):
            e += f" (cell {row['mean_error_pct']:.2f}" + (
                f" ± {row['std_error_pct']:.2f})" if not pd.isna(row["std_error_pct"]) else ")")
        if short:
            return f"{head}\n{e}"
        return f"{head}\n{where}; {e}"

    def scatter(self, ax, ds, task, thumbs=False):
        emb = self.r.embedding(int(task["id"]))
        zcols = [c for c in emb.columns if re.fullmatch(r"z\d+", c) and emb[c].notna().any()]
        one_d = len(zcols) == 1
        has_labels = (emb["label"] >= 0).all()
        info = self.info(ds)
        ncls = int(emb["label"].max()) + 1 if has_labels else 0
        names = info.class_names(max(ncls, info.n_classes))
        cmap = plt.get_cmap("tab10" if max(ncls, 1) <= 10 else "tab20")
        x = emb["z0"].to_numpy()
        if one_d:  # a line: training points on y = 0, test points below, jittered to show density
            rng = np.random.default_rng(0)
            y = np.where(emb["part"] == "train", 0.0, -1.0) + rng.uniform(-0.25, 0.25, len(emb))
        else:
            y = emb[zcols[1]].to_numpy()
        seq = None
        if has_labels and (emb["index"] >= 0).all() and self.indices_are_file_rows(ds, task):
            seq = info.sequences(emb["index"].to_numpy(), emb["label"].to_numpy())
        if seq is not None and not one_d:
            sid, pos, closed = seq
            for s in np.unique(sid):
                sel = np.where(sid == s)[0]
                sel = sel[np.argsort(pos[sel], kind="stable")]
                xs, ys = x[sel], y[sel]
                if closed and len(sel) > 2:
                    xs, ys = np.append(xs, xs[0]), np.append(ys, ys[0])
                c = cmap(int(emb["label"].iloc[sel[0]]) % cmap.N) if has_labels else "0.4"
                ax.plot(xs, ys, "-", color=c, lw=0.8, alpha=0.7, zorder=1)
        for part, mark in (("train", TRAIN_MARK), ("test", TEST_MARK)):
            sel = (emb["part"] == part).to_numpy()
            if not sel.any():
                continue
            if has_labels and len(emb) > BIG_SCATTER:
                # Tens of thousands of points: small markers in one seeded random order, so that
                # no class is painted over the others by drawing order.
                idx = np.flatnonzero(sel)
                idx = idx[np.random.default_rng(0).permutation(len(idx))]
                cols = [cmap(int(c) % cmap.N) for c in emb["label"].to_numpy()[idx]]
                size = max(0.3, 14.0 * BIG_SCATTER / len(emb))
                ax.scatter(x[idx], y[idx], s=size, marker=mark, c=cols,
                           linewidths=0 if part == "train" else 0.3, alpha=0.6, zorder=2,
                           rasterized=True)
                if part == "train":  # legend entries only
                    for c in sorted(emb.loc[sel, "label"].unique()):
                        ax.scatter([], [], s=14, marker=mark, color=cmap(int(c) % cmap.N),
                                   label=names[int(c)])
            elif has_labels:
                for c in sorted(emb.loc[sel, "label"].unique()):
                    m = sel & (emb["label"] == c).to_numpy()
                    ax.scatter(x[m], y[m], s=14 if part == "train" else 12, marker=mark,
                               color=cmap(int(c) % cmap.N),
                               facecolors=cmap(int(c) % cmap.N) if part == "train" else "none",
                               linewidths=0.8, alpha=0.85, zorder=2,
                               label=names[int(c)] if part == "train" else None)
            else:
                ax.scatter(x[sel], y[sel], s=12, marker=mark, color="0.35",
                           facecolors="0.35" if part == "train" else "none", linewidths=0.8,
                           alpha=0.8, zorder=2, label=part)
        if thumbs:
            self.thumbnails(ax, ds, emb, x, y)
        if one_d:
            ax.set_yticks([0, -1])
            ax.set_yticklabels(["train", "test"])
            ax.set_xlabel("z1")
        elif len(zcols) > 2 or task["label"] in self.input_space_labels:
            ax.set_xlabel(f"dimension 1 of {len(zcols)}")
            ax.set_ylabel(f"dimension 2 of {len(zcols)}")
        else:
            ax.set_xlabel("z1")
            ax.set_ylabel("z2")
        return has_labels, ncls, names

    def thumbnails(self, ax, ds, emb, x, y, max_images=80):
        """A spread-out subset of training points (greedy: skip any image closer than a fraction
        of the plot width to one already drawn), each drawn at its latent position."""
        info = self.info(ds)
        if info.image_shape is None or not (emb["index"] >= 0).all():
            return 0
        span = max(np.ptp(x), np.ptp(y), 1e-12)
        picked = []
        for i in np.argsort(emb["index"].to_numpy(), kind="stable"):
            p = np.array([x[i], y[i]])
            if all(np.max(np.abs(p - q)) > 0.06 * span for q in (np.array([x[j], y[j]])
                                                                  for j in picked)):
                picked.append(i)
            if len(picked) >= max_images:
                break
        imgs = info.images(emb["index"].to_numpy()[picked])
        h = max(info.image_shape)
        for i, img in zip(picked, imgs):
            box = OffsetImage(img, cmap="gray", zoom=18.0 / h, interpolation="nearest")
            ax.add_artist(AnnotationBbox(box, (x[i], y[i]), frameon=False, zorder=3))
        return len(picked)

    def latent(self):
        for ds in self.datasets:
            panels = []
            for label in self.labels:
                task, row = self.representative(ds, label)
                if task is None:
                    continue
                panels.append((label, task, row))
                fig, ax = plt.subplots(figsize=(5.2, 4.4))
                has_labels, ncls, names = self.scatter(ax, ds, task)
                ax.set_title(self.title_of(task, row), fontsize=9)
                self._legend(ax, has_labels, ncls)
                what = "latent scatter" + ("" if has_labels else
                                           " (labels not stored in the file: uncoloured)")
                self.save(fig, f"latent_{slug(ds)}_{slug(label)}", "latent", ds, label,
                          [task["id"]], what)
                if self.info(ds).image_shape is not None and (
                        self.r.embedding(int(task["id"]))["index"] >= 0).all() and \
                        self.indices_are_file_rows(ds, task):
                    fig, ax = plt.subplots(figsize=(7, 6))
                    self.scatter(ax, ds, task, thumbs=True)
                    ax.set_title(self.title_of(task, row), fontsize=9)
                    self.save(fig, f"images_{slug(ds)}_{slug(label)}", "images", ds, label,
                              [task["id"]], "latent scatter with image thumbnails")
            if len(panels) > 1:
                self.grid(ds, panels[:self.max_panels])

    def _legend(self, ax, has_labels, ncls):
        if not has_labels:
            ax.legend(fontsize=7, loc="best")
            return
        handles, labels = ax.get_legend_handles_labels()
        extra = [plt.Line2D([], [], marker=TRAIN_MARK, ls="", color="0.3", label="train"),
                 plt.Line2D([], [], marker=TEST_MARK, ls="", color="0.3", mfc="none",
                            label="test")]
        ax.legend(handles=handles + extra, fontsize=7, loc="center left",
                  bbox_to_anchor=(1.01, 0.5), ncol=1 if ncls <= 20 else 2, frameon=False)

    def grid(self, ds, panels):
        n = len(panels)
        cols = min(n, 4 if n != 5 and n != 6 else 3)
        rows = (n + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(3.4 * cols, 3.1 * rows), squeeze=False)
        has_labels, ncls = False, 0
        for ax, (label, task, row) in zip(axes.flat, panels):
            has_labels, ncls, _ = self.scatter(ax, ds, task)
            ax.set_title(self.title_of(task, row, short=True), fontsize=8)
            ax.tick_params(labelsize=6)
            ax.set_xlabel("")
            ax.set_ylabel("")
        for ax in list(axes.flat)[n:]:
            ax.axis("off")
        handles, labels = axes.flat[0].get_legend_handles_labels()
        handles += [] if not has_labels else [
                    plt.Line2D([], [], marker=TRAIN_MARK, ls="", color="0.3", label="train"),
                    plt.Line2D([], [], marker=TEST_MARK, ls="", color="0.3", mfc="none",
                               label="test")]
        ncol = max(1, min(len(handles), 8))
        fig.legend(handles=handles, loc="lower center", ncol=ncol, fontsize=7,
                   frameon=False, bbox_to_anchor=(0.5, 0.0))
        t0 = panels[0][1]
        fig.suptitle(f"{ds}: latent spaces ({fmt_split(t0['split_kind'], t0['split_value'])}, "
                     f"repeat {t0['repeat']}, best setting per method)", fontsize=10)
        # Room below the panels for every legend row (20 classes make three), so the legend never
        # sits on the tick labels.
        legend_rows = -(-len(handles) // ncol)
        bottom = min(0.45, (0.18 * legend_rows + 0.08) / fig.get_figheight())
        fig.tight_layout(rect=(0, bottom, 1, 0.97))
        self.save(fig, f"latent_{slug(ds)}_grid", "latent_grid", ds,
                  ",".join(p[0] for p in panels), [p[1]["id"] for p in panels],
                  "latent scatter of every method" + ("" if has_labels else " (uncoloured)"))

    # ---- error curves ----
    def curves(self, tab, x_col, ds, k, name, kind, title, xlabel, log_x=False):
        fig, ax = plt.subplots(figsize=(5.6, 4.0))
        drawn = 0
        # Curves share x values: shift each a little so the error bars do not hide each other.
        xs_all = tab[x_col].to_numpy(dtype=float)
        if x_col == "split_value" and (tab["split_kind"] == "ratio").all():
            xs_all = 100 * xs_all
        n_curves = max(1, len(tab.groupby(["method", "dim"])))
        width = (0.25 if x_col == "dim" else 0.03 * max(np.ptp(xs_all), 1e-9)) / n_curves
        for label in self.labels:
            sub = tab[tab["method"] == label]
            if sub.empty:
                continue
            groups = [(None, sub)] if x_col == "dim" else list(sub.groupby("dim", sort=True))
            for dim, g in groups:
                g = g.sort_values(x_col)
                g = g[g["mean_error_pct"].notna()]
                if g.empty:
                    continue
                yv, ye = self.y_of(g["mean_error_pct"].to_numpy(), g["std_error_pct"].to_numpy())
                xv = g[x_col].to_numpy(dtype=float)
                if x_col == "split_value" and g["split_kind"].iloc[0] == "ratio":
                    xv = 100 * xv
                lab = label + ("" if dim is None or sub["dim"].nunique() == 1 and
                               self._dims_of(tab, label) == 1 else f" (d={dim})")
                if x_col == "split_value" and len(groups) == 1 and dim is not None and dim > 0:
                    lab = f"{label} (d={dim})"
                input_space = label in self.input_space_labels
                if x_col == "split_value" and input_space:
                    lab = f"{label} (input space)"
                # No latent space: a reference line.
                if x_col == "dim" and ((g["dim"] == 0).all() or input_space):
                    ax.axhline(yv[0], color=self.colors[label], ls="--", lw=1,
                               label=f"{label} (input space)")
                    drawn += 1
                    continue
                shift = (drawn - (n_curves - 1) / 2) * width
                ax.errorbar(xv + shift, yv, yerr=np.nan_to_num(ye), marker="o", ms=4, capsize=3,
                            lw=1.3, color=self.colors[label], label=lab,
                            ls="-" if len(groups) == 1 else ["-", "--", ":", "-."][
                                [d for d, _ in groups].index(dim) % 4])
                drawn += 1
        if x_col == "split_value" and self.paper is not None and drawn:
            for label in self.labels:
                pp = self.paper[self.paper["method"] == label].sort_values("split_value")
                if pp.empty or label not in set(tab["method"]):
                    continue
                xv = pp["split_value"].to_numpy(dtype=float)
                if (tab["split_kind"] == "ratio").all():
                    xv = 100 * xv
                yv, ye = self.y_of(100 * pp["mean"].to_numpy(), 100 * pp["std"].to_numpy())
                ax.errorbar(xv, yv, yerr=ye, marker="s", ms=4, mfc="none", capsize=2, lw=0.9,
                            ls=":", color=self.colors[label], label=f"{label}, paper")
        if not drawn:
            plt.close(fig)
            return
        ax.set_xlabel(xlabel)
        ax.set_ylabel(self.y_label)
        if log_x:
            ax.set_xscale("log")
        lo, hi = ax.get_ylim()  # error bars past 0 % or 100 % mean nothing
        ax.set_ylim(max(lo, 0.0), min(hi, 100.0))
        if x_col == "dim":
            ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.grid(alpha=0.3)
        n_entries = len(ax.get_legend_handles_labels()[1])
        if n_entries > 6:
            ax.legend(fontsize=7, frameon=False, loc="center left", bbox_to_anchor=(1.01, 0.5))
        else:
            ax.legend(fontsize=7, frameon=False, loc="best")
        # Which data and profile: a quick profile's curves are not the paper's experiment.
        t = self.tasks[self.tasks["dataset"] == ds]
        n = int((t["n_train"] + t["n_test"]).max()) if "n_train" in t and len(t) else 0
        prof = self.r.attrs.get("profile", "")
        sub = ", ".join(x for x in (f"{n} points" if n else "",
                                    f"profile {prof}" if prof else "") if x)
        ax.set_title(title + (f"\n{self.r.name}: {sub}" if sub else ""), fontsize=9)
        paper = "; dotted: the paper's values" if x_col == "split_value" and \
            self.paper is not None else ""
        self.save(fig, name, kind, ds, ",".join(dict.fromkeys(tab["method"])), (),
                  f"{title}; bars: ± 1 sample std over repeats{paper}")

    def _dims_of(self, tab, label):
        return tab[tab["method"] == label]["dim"].nunique()

    def error_curves(self):
        tab = self.tables
        if tab.empty:
            return
        for ds in self.datasets:
            for k in self.ks:
                t = tab[(tab["dataset"] == ds) & (tab["k"] == k)]
                if t.empty:
                    continue
                kind = t["split_kind"].iloc[0]
                n_rep = int(t["n"].max())
                if t["split_value"].nunique() > 1:
                    xl = {"ratio": "training points (% of the data)",
                          "per_class": "training points per class"}.get(kind, kind)
                    m = self.metric
                    self.curves(t, "split_value", ds, k, f"{m}_vs_split_{slug(ds)}_k{k}",
                                f"{m}_vs_split", f"{ds}: {k}-NN {m} against the training size "
                                f"(mean ± std, {n_rep} repeats)", xl)
                latent = t[t["dim"] > 0]
                # Only when some method was run at several dimensions: otherwise each method is
                # a single point and the figure says nothing the tables do not.
                if latent.groupby("method")["dim"].nunique().max() > 1:
                    splits = sorted(t["split_value"].unique())
                    for sv in splits:
                        suffix = "" if len(splits) == 1 else f"_split{sv:g}"
                        self.curves(t[t["split_value"] == sv], "dim", ds, k,
                                    f"{self.metric}_vs_dim_{slug(ds)}_k{k}{suffix}",
                                    f"{self.metric}_vs_dim",
                                    f"{ds}: {k}-NN {self.metric} against the latent dimension "
                                    f"({fmt_split(kind, sv)}, {n_rep} repeats)",
                                    "latent dimension")

    # ---- optimiser traces ----
    def traces(self):
        tr = self.r.traces
        if tr.empty:
            return
        for ds in self.datasets:
            for label in self.labels:
                t = self.tasks[(self.tasks["dataset"] == ds) & (self.tasks["label"] == label)]
                t = t[t["id"].isin(set(tr["task_id"]))]
                if t.empty:
                    continue
                # One partition (the first split value, repeat 0), one dim (as the scatter):
                # the curves then differ only in optimiser/setting.
                dims = sorted(t["dim"].unique())
                dim = 2 if 2 in dims else dims[0]
                t = t[(t["dim"] == dim) & (t["split_value"] == t["split_value"].min())]
                t = t[t["repeat"] == t["repeat"].min()].sort_values("id")
                final = {i: tr[tr["task_id"] == i]["objective"].iloc[-1] for i in t["id"]}
                if len(t) > MAX_TRACE_CURVES:  # keep the settings that reached the lowest
                    keep = sorted(final, key=lambda i: final[i])[:MAX_TRACE_CURVES]
                    t = t[t["id"].isin(keep)]
                fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.8))
                cmap = plt.get_cmap("tab10" if len(t) <= 10 else "tab20")
                obj_all = []
                grid = self.tasks[(self.tasks["dataset"] == ds) &
                                  (self.tasks["label"] == label)]["setting"]
                for j, (_, task) in enumerate(t.iterrows()):
                    d = tr[tr["task_id"] == task["id"]]
                    opt = d["optimizer"].iloc[0]
                    secs = d["seconds"].iloc[-1]
                    st = ",".join(x for x in short_setting(task["setting"], grid).split(",")
                                  if x and x != f"optimizer={opt}")
                    lab = f"{opt} {st}".strip() + f" ({secs:.3g} s)"
                    a1.plot(d["iteration"], d["objective"], color=cmap(j % cmap.N), lw=1.2,
                            label=lab)
                    a2.plot(d["seconds"], d["objective"], color=cmap(j % cmap.N), lw=1.2)
                    obj_all.append(d["objective"].to_numpy())
                obj = np.concatenate(obj_all) if obj_all else np.array([1.0])
                obj = obj[np.isfinite(obj)]
                # Starting objectives can be orders of magnitude above the converged ones (a
                # strong prior at a poor start): a log axis keeps the convergence visible;
                # symlog when objectives reach zero or below (negative log-likelihoods).
                spread = obj.max() - obj.min() if obj.size else 0.0
                typical = np.median(np.abs(obj)) if obj.size else 1.0
                for a in (a1, a2):
                    if obj.size and np.all(obj > 0) and obj.max() / obj.min() > 100:
                        a.set_yscale("log")
                    elif obj.size and spread > 100 * max(typical, 1e-12):
                        a.set_yscale("symlog", linthresh=max(typical, 1e-12))
                    a.grid(alpha=0.3)
                    a.set_ylabel("objective")
                a1.set_xlabel("iteration")
                a2.set_xlabel("seconds")
                t0 = t.iloc[0]
                fig.suptitle(f"{ds}, {label}: optimiser traces "
                             f"({fmt_split(t0['split_kind'], t0['split_value'])}, d={dim}, "
                             f"repeat {t0['repeat']})", fontsize=10)
                a1.legend(fontsize=7, frameon=False, loc="center left",
                          bbox_to_anchor=(2.25, 0.5))
                self.save(fig, f"trace_{slug(ds)}_{slug(label)}", "trace", ds, label,
                          t["id"].tolist(), "objective against iteration and seconds; legend: "
                          "optimizer, setting, total seconds")

    # ---- R_NX(K) ----
    def rnx_settings(self) -> pd.DataFrame:
        """The tables by rnx_auc, as the program chooses each cell's setting for them (its
        selection rule in the measure's direction, framework/results/aggregate.cpp); the kNN
        tables where the program cannot be asked (no file on disk, no program)."""
        if not self.r.path:
            return self.tables
        try:
            return dres.long_table(self.r.path, metric="rnx_auc")
        except (ValueError, FileNotFoundError):
            return self.tables

    @staticmethod
    def reported_tasks(tl, tables, ds, label, split_value, dim):
        """The tasks of one cell whose results `tables` report: those of its setting, or, when the
        setting is none (one setting) or chosen per partition (selection: validation), every
        test-point task of the cell, which are the chosen ones."""
        if "fold" in tl:  # validation's inner tasks embed inner splits, not the test points
            tl = tl[tl["fold"] < 0]
        row = tables[(tables["dataset"] == ds) & (tables["method"] == label) &
                     (tables["split_value"] == split_value) & (tables["dim"] == dim)]
        if row.empty:
            return tl
        picked = tl[tl["setting"] == row.iloc[0]["setting"]]
        return picked if not picked.empty else tl

    def rnx_curves(self):
        """Per dataset (and latent dim, when several): the mean R_NX(K) over the partitions of
        the first split value, one line per method at the setting `drbench aggregate --metric
        rnx_auc` reports (else the kNN table's), log K axis, the mean AUC in the legend."""
        curves = self.r.rnx_curves()
        if curves.empty:
            return
        t = self.tasks[self.tasks["id"].isin(set(curves["task_id"]))]
        if "ok" in t:
            t = t[t["ok"]]
        has_auc = "rnx_auc" in t
        chosen = self.rnx_settings() if has_auc else self.tables
        for ds in self.datasets:
            td = t[t["dataset"] == ds]
            if td.empty:
                continue
            sv = td["split_value"].min()
            td = td[td["split_value"] == sv]
            latent = sorted(d for d in td["dim"].unique() if d != 0)
            for dim in latent or [0]:
                fig, ax = plt.subplots(figsize=(6.4, 4.2))
                used = []
                for label in self.labels:
                    tl = td[(td["label"] == label) &
                            ((td["dim"] == dim) | (label in self.input_space_labels))]
                    if tl.empty:
                        continue
                    tl = self.reported_tasks(tl, chosen, ds, label, sv, dim)
                    c = curves[curves["task_id"].isin(set(tl["id"]))]
                    mean = c.groupby("K")["rnx"].mean()
                    if mean.empty:
                        continue
                    auc = tl["rnx_auc"].mean() if has_auc else float("nan")
                    lab = label + (" (input space)" if label in self.input_space_labels else "")
                    lab += f", AUC {auc:.3f}" if np.isfinite(auc) else ""
                    ax.plot(mean.index, 100 * mean.values, color=self.colors[label], lw=1.5,
                            ls="--" if label in self.input_space_labels else "-", label=lab)
                    used += tl["id"].tolist()
                if not used:
                    plt.close(fig)
                    continue
                ax.set_xscale("log")
                ax.set_xlabel("K (neighbourhood size)")
                ax.set_ylabel("100 R$_{NX}$(K)")
                ax.grid(alpha=0.3, which="both")
                ax.set_ylim(bottom=min(0.0, ax.get_ylim()[0]))
                n_rep = td["repeat"].nunique()
                kind = td["split_kind"].iloc[0]
                ax.set_title(f"{ds}: R$_{{NX}}$(K), mean over {n_rep} partition"
                             f"{'s' if n_rep != 1 else ''} ({fmt_split(kind, sv)}"
                             + (f", d={dim}" if dim else "") + ")", fontsize=10)
                ax.legend(fontsize=8, frameon=False)
                suffix = f"_d{dim}" if len(latent) > 1 else ""
                self.save(fig, f"rnx_{slug(ds)}{suffix}", "rnx", ds, "", used,
                          "R_NX(K) against log K, one line per method at the rnx_auc table's "
                          "setting; legend: AUC_logK(R_NX)")

    # ---- critical-difference diagram (Demsar 2006) ----
    def cd_diagram(self, measure="rnx_auc", alpha=0.05):
        """Mean rank of each method over the (dataset, split value) blocks by one stored
        measure and the Nemenyi critical difference, as `drbench aggregate --ranks` computes them
        (framework/results/ranks.cpp; nothing is ranked here): the CD as a bar, methods closer
        than it joined by a line."""
        t = self.tasks[self.tasks["ok"]] if "ok" in self.tasks else self.tasks
        if measure not in t or t["dataset"].nunique() < 2:
            return
        paths = [self.r.path] if self.r.path else list(dict.fromkeys(self.r.tasks["source"]))
        m, _, kk = measure.partition("@")
        try:
            rk = dres.ranks(paths, m, int(kk) if kk else None)
        except (ValueError, FileNotFoundError) as e:
            print(f"drbench plot: no critical-difference diagram ({e})", file=sys.stderr)
            return
        rk = rk[rk["label"].isin(self.labels)]
        if rk.empty or int(rk["blocks"].iloc[0]) < 2 or len(rk) < 2:
            return
        mean = pd.Series(rk["mean_rank"].to_numpy(), index=rk["label"])
        n, k = int(rk["blocks"].iloc[0]), len(rk)
        cd, alpha = float(rk["cd"].iloc[0]), float(rk["alpha"].iloc[0])
        order = mean.sort_values()
        fig, ax = plt.subplots(figsize=(7, 1.4 + 0.4 * k))
        ax.set_xlim(0.5, k + 0.9)
        ax.axhline(0, color="0.2", lw=1)
        for r in range(1, k + 1):
            ax.plot([r, r], [0, 0.15], color="0.2", lw=1)
            ax.text(r, 0.3, str(r), ha="center", fontsize=8)
        ax.plot([1, 1 + cd], [1.3, 1.3], color="k", lw=2)
        ax.text(1 + cd / 2, 1.45, f"CD = {cd:.2f}", ha="center", fontsize=8)
        # Groups not significantly different: maximal runs of methods within CD of each other.
        vals = order.to_numpy()
        groups = []
        for i in range(k):
            j = max(j for j in range(k) if vals[j] - vals[i] <= cd + 1e-12)
            if j > i and not any(g[0] <= i and j <= g[1] for g in groups):
                groups.append((i, j))
        for gi, (i, j) in enumerate(groups):
            y = -0.4 - 0.35 * gi
            ax.plot([vals[i] - 0.05, vals[j] + 0.05], [y, y], color="k", lw=2.5)
        top = -0.6 - 0.35 * len(groups)
        for i, (lb, r) in enumerate(order.items()):
            y = top - i * 0.7
            ax.plot([r, r], [0, y], color=self.colors[lb], lw=1)
            ax.text(r + 0.05, y, f"{lb} ({r:.2f})", va="center", fontsize=8,
                    color=self.colors[lb])
        ax.set_ylim(top - k * 0.7, 1.8)
        ax.axis("off")
        ax.set_title(f"Mean rank by {measure} over {n} dataset blocks (1 = best); Nemenyi "
                     f"alpha = {alpha}", fontsize=9)
        self.save(fig, f"cd_{slug(measure)}", "cd", "", "", t["id"].tolist(),
                  f"critical-difference diagram of {measure} (Demsar 2006): mean ranks, CD bar; "
                  "thick lines join methods not significantly different")

    def all(self):
        self.latent()
        self.error_curves()
        self.rnx_curves()
        self.cd_diagram()
        self.traces()
        return self.write_manifest()

    def missing(self):
        """Why a kind of figure was not drawn, and how to get it: one line per absent kind."""
        kinds = {m[1] for m in self.manifest}
        why = []
        if "latent" not in kinds:
            why.append("no latent spaces: " + (
                "no embeddings kept (fix: output.keep_embeddings: true in the config, or "
                "output.keep_embeddings=true after the config on the drbench run command line)"
                if not self.r.embedding_ids else
                "no kept embedding matches the --dataset/--method selection"))
        if not kinds & {"error_vs_split", "accuracy_vs_split", "error_vs_dim", "accuracy_vs_dim"}:
            why.append("no error curves: " + (
                "no finished tasks" if self.tables.empty else
                "one split value and one latent dimension per method, so each method is a "
                "single number (see drbench aggregate; curves need several split values, e.g. "
                "splits.per_class: [10, 20, 30], or several dims)"))
        # An empty trace table already has its note in r.notes.
        if "trace" not in kinds and not self.r.traces.empty:
            why.append("no optimiser traces: no kept trace matches the --dataset/--method "
                       "selection")
        return why


def write_whole(path, write):
    """Calls write(tmp) on a temporary name beside `path` and renames it to `path`: never a half-written file. A
    failure (a full disk) removes the temporary file and raises ValueError naming the path."""
    base, ext = os.path.splitext(path)
    tmp = f"{base}.tmp{ext}"  # the extension kept: image writers choose the format by it
    try:
        write(tmp)
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise ValueError(f"{path}: cannot write it ({e.strerror or e}) (fix: free space on that "
                         "disk, or write elsewhere with -o)") from None


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="drbench plot", description="Figures of a drbench results file (docs/figures.md).")
    p.add_argument("results", nargs="+",
                   help="RESULTS.h5 written by drbench run; several files of one table run in "
                        "pieces (one profile per column) draw its curves as one table")
    p.add_argument("-o", "--output", default=None,
                   help="directory for the figures (default figures/<experiment name>)")
    p.add_argument("--dataset", action="append", help="only this dataset (repeatable)")
    p.add_argument("--method", action="append", help="only this method label or name (repeatable)")
    p.add_argument("--format", default="png", choices=["png", "pdf", "svg"])
    p.add_argument("--dpi", type=int, default=100)
    p.add_argument("--metric", default="error", choices=["error", "accuracy"],
                   help="y axis of the curves: kNN error (default) or accuracy = 100 - error")
    p.add_argument("--data-path", action="append", default=[],
                   help="directory with the dataset .h5 files (class names, images)")
    p.add_argument("--paper", default=None,
                   help="CSV of published values (method,split_value,mean,std as error "
                        "fractions, '#' comments; tests/reference/*.csv) drawn dotted beside "
                        "ours on the error-against-split curves")
    p.add_argument("--k", default=None,
                   help="curves for this k of the kNN error (comma list, or 'all'; default the "
                        "first k of the file)")
    a = p.parse_args(argv)
    try:
        r = dres.load_pieces(a.results)
    except ValueError as e:
        p.error(str(e))
    a.results = " ".join(a.results)
    out = a.output or os.path.join("figures", slug(r.name))
    for sel, col, what in ((a.dataset, "dataset", "dataset"), (a.method, None, "method")):
        if sel:
            known = set(r.tasks["dataset"]) if col else set(r.tasks["label"]) | set(
                r.tasks["method"])
            bad = [s for s in sel if s not in known]
            if bad:
                p.error(f"--{what} {', '.join(bad)}: not in {a.results} (has: "
                        f"{', '.join(sorted(known))})")
    if a.k is None:
        ks = r.k[:1]
    elif a.k == "all":
        ks = r.k
    else:
        try:
            ks = [int(x) for x in a.k.split(",")]
        except ValueError:
            p.error(f"--k {a.k}: expected integers separated by commas, or 'all'")
        if not set(ks) <= set(r.k):
            p.error(f"--k {a.k}: {a.results} has kNN errors for k = "
                    f"{', '.join(map(str, r.k))} only")
    paper = None
    if a.paper:
        try:
            paper = pd.read_csv(a.paper, comment="#")
            missing = {"method", "split_value", "mean", "std"} - set(paper.columns)
            if missing:
                p.error(f"--paper {a.paper}: no column(s) {', '.join(sorted(missing))} (need "
                        "method,split_value,mean,std)")
        except OSError as e:
            p.error(f"--paper {a.paper}: {e.strerror}")
    pl = Plotter(r, out, a.format, a.dpi, a.dataset, a.method, a.data_path, a.metric, ks=ks,
                 paper=paper)
    try:
        manifest = pl.all()
    except ValueError as e:
        p.error(str(e))
    for n in r.notes:
        print(f"note: {n}", file=sys.stderr)
    for n in pl.missing():
        print(f"note: {n}", file=sys.stderr)
    if not pl.manifest:
        print(f"0 figures drawn for {a.results}: the notes above say why and how to get them")
        return 0
    print(f"{len(pl.manifest)} figures in {out} (list: {manifest})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
