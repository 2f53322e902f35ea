"""Quality measures end to end: a run asking for every measure, read back by drbench.results,
tabulated by `drbench aggregate --metric`, drawn as R_NX(K) curves."""
import os

import numpy as np
import pytest

from conftest import drbench, run_config

from drbench import plot as dplot
from drbench import results as dres

CONFIG = """
name: pyquality
seed: 5
datasets:
  - name: iris
    source: bundled
    preprocess: [standardize]
splits:
  train_ratio: [0.5]
  repeats: 3
methods:
  - {method: identity, label: input}
  - {method: pca, label: PCA, dims: [2]}
  - {method: lda, label: LDA, dims: [2]}
evaluation:
  knn: [1]
  quality: [trustworthiness, continuity, qnx, rnx, lcmc, mrre_intrusion, mrre_extrusion,
            rnx_auc, stress, shepard_spearman]
  quality_k: [3, 10]
  ttest_against: PCA
output:
  path: results/pyquality.h5
"""


@pytest.fixture(scope="module")
def qfile(tmp_path_factory):
    return str(run_config(tmp_path_factory.mktemp("quality"), "pyquality", CONFIG))


def test_reader_columns(qfile):
    r = dres.load(qfile)
    cols = r.quality_columns()
    assert list(cols["column"]) == [f"{m}@{k}" for m in ("trustworthiness", "continuity", "qnx",
                                                         "rnx", "lcmc", "mrre_intrusion",
                                                         "mrre_extrusion") for k in (3, 10)] + \
        ["rnx_auc", "stress", "shepard_spearman"]
    assert not cols.set_index("column").loc["stress", "higher_better"]
    t = r.tasks[r.tasks["ok"]]
    # 75 test points: exact, every point a query, standard errors 0.
    assert (t["quality_queries"] == 75).all()
    assert (t["rnx@10_se"] == 0).all()
    ident = t[t["label"] == "input"]
    assert np.allclose(ident["rnx@10"], 1.0) and np.allclose(ident["rnx_auc"], 1.0)
    assert np.allclose(ident["stress"], 0.0)
    pca = t[t["label"] == "PCA"]
    assert ((pca["rnx@3"] > 0.2) & (pca["rnx@3"] < 1)).all()
    curves = r.rnx_curves()
    assert set(curves["task_id"]) == set(t["id"])
    assert curves["K"].max() == 73  # N - 2


def test_aggregate_metric(qfile):
    out = drbench("aggregate", qfile, "--metric", "rnx_auc", "--format", "csv").stdout
    assert "mean,std" in out
    row = [ln for ln in out.splitlines() if ln.startswith("iris,LDA,")][0].split(",")
    r = dres.load(qfile).tasks
    lda = r[(r["label"] == "LDA") & r["ok"]]["rnx_auc"].mean()
    assert float(row[6]) == pytest.approx(lda, rel=1e-5)
    bad = drbench("aggregate", qfile, "--metric", "rnx_aoc", check=False)
    assert bad.returncode == 2 and "no such measure" in bad.stderr


def test_rnx_figure(qfile, tmp_path):
    r = dres.load(qfile)
    pl = dplot.Plotter(r, str(tmp_path), "png", 60)
    pl.rnx_curves()
    names = [m[0] for m in pl.manifest]
    assert names == ["rnx_iris.png"]
    assert os.path.getsize(tmp_path / "rnx_iris.png") > 1000


def test_sampled_queries(tmp_path):
    """Above quality_sample points the measures are estimates over that many seeded queries, with
    standard errors; the same config gives the same estimate."""
    cfg = tmp_path / "sampled.yaml"
    cfg.write_text(CONFIG.replace("ttest_against: PCA", "ttest_against: PCA\n  quality_sample: 40"))
    vals = []
    for run in ("a", "b"):
        out = tmp_path / f"{run}.h5"
        drbench("run", str(cfg), "--output", str(out), "--quiet", "--no-table", "--force-new")
        t = dres.load(str(out)).tasks
        t = t[t["ok"] & (t["label"] == "PCA")]
        assert (t["quality_queries"] == 40).all()
        assert (t["rnx@10_se"] > 0).all() and (t["rnx_auc_se"] > 0).all()
        vals.append(t["rnx_auc"].to_numpy())
    assert np.array_equal(vals[0], vals[1])
