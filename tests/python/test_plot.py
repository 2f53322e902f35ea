"""`drbench plot` end to end: the C++ command runs python/drbench/plot.py on a real results file."""
import csv
import os

import matplotlib.image as mpimg
import numpy as np

from conftest import drbench


def manifest(d):
    with open(os.path.join(d, "manifest.tsv")) as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_plot_draws_every_kind(results_file, tmp_path):
    path, _ = results_file
    out = tmp_path / "figs"
    p = drbench("plot", path, "-o", str(out))
    assert "figures in" in p.stdout
    rows = manifest(out)
    kinds = {r["kind"] for r in rows}
    assert {"latent", "latent_grid", "error_vs_split", "error_vs_dim", "trace"} <= kinds
    files = sorted(os.listdir(out))
    assert sorted([r["file"] for r in rows] + ["manifest.tsv"]) == files
    names = {r["file"] for r in rows}
    assert not any("_k3" in n for n in (r["file"] for r in rows))  # first k unless --k
    for must in ("latent_iris_pca.png", "latent_iris_lda.png", "latent_iris_lda-1-d.png",
                 "latent_iris_grid.png",
                 "error_vs_split_iris_k1.png", "error_vs_dim_iris_k1_split0.3.png",
                 "trace_iris_gplvm.png"):
        assert must in names
    for r in rows:
        img = mpimg.imread(out / r["file"])
        assert img.shape[0] > 200 and img.shape[1] > 200, r["file"]
        rgb = img[..., :3].reshape(-1, 3)
        # Not blank: many pixels differ from the background, in several colours.
        assert (rgb.min(axis=1) < 0.9).mean() > 0.01, r["file"]
        assert len(np.unique((rgb * 255).astype(np.uint8), axis=0)) > 20, r["file"]
    # The trace legend states each run's total seconds.
    assert all(r["tasks"] for r in rows if r["kind"] in ("latent", "trace"))


def test_plot_is_deterministic_and_filters(results_file, tmp_path):
    path, _ = results_file
    a, b = tmp_path / "a", tmp_path / "b"
    drbench("plot", path, "-o", str(a), "--method", "LDA")
    drbench("plot", path, "-o", str(b), "--method", "LDA")
    fa, fb = sorted(os.listdir(a)), sorted(os.listdir(b))
    assert fa == fb and "latent_iris_lda.png" in fa
    assert not any("pca" in f or "gplvm" in f for f in fa)
    for f in fa:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f


def test_plot_svg_and_accuracy(results_file, tmp_path):
    path, _ = results_file
    out = tmp_path / "svg"
    drbench("plot", path, "-o", str(out), "--format", "svg", "--metric", "accuracy",
            "--dataset", "iris", "--method", "PCA", "--k", "all")
    svg = (out / "accuracy_vs_split_iris_k1.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "accuracy" in svg
    assert (out / "accuracy_vs_split_iris_k3.svg").exists()  # default: the first k only


def test_plot_bad_arguments(results_file, tmp_path):
    path, _ = results_file
    p = drbench("plot", path, "--dataset", "usps", check=False)
    assert p.returncode != 0 and "usps" in p.stderr and "iris" in p.stderr
    p = drbench("plot", path, "--k", "7", check=False)
    assert p.returncode != 0 and "k = 1, 3" in p.stderr
    p = drbench("plot", str(tmp_path / "missing.h5"), check=False)
    assert p.returncode != 0 and "missing.h5" in p.stderr


def test_plot_names_a_missing_package(results_file, tmp_path):
    path, _ = results_file
    fake = tmp_path / "fake" / "matplotlib"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('hidden for the test')\n")
    p = drbench("plot", path, "-o", str(tmp_path / "x"), check=False,
                extra_env={"PYTHONPATH": str(fake.parent)})
    assert p.returncode == 3
    assert "matplotlib" in p.stderr and "python3-matplotlib" in p.stderr
    assert not (tmp_path / "x").exists()
    p = drbench("plot", path, check=False, extra_env={"DRBENCH_PYTHON": "/nonexistent/python3"})
    assert p.returncode == 2 and "/nonexistent/python3" in p.stderr


PIECES = """
name: pypieces
seed: 11
datasets: [{name: iris, source: bundled, preprocess: [standardize]}]
splits: {train_ratio: [0.3, 0.6], repeats: 3}
methods:
  - {method: pca, label: PCA, dims: [2]}
  - {method: lda, label: LDA, dims: [2]}
evaluation: {knn: [1]}
output: {path: whole.h5}
profiles:
  col1: {splits: {train_ratio: [0.3]}, output: {path: col1.h5}}
  col2: {splits: {train_ratio: [0.6]}, output: {path: col2.h5}}
  k3: {splits: {train_ratio: [0.6]}, evaluation: {knn: [3]}, output: {path: k3.h5}}
"""


def test_plot_pieces_of_one_table(tmp_path):
    # A table run one column per profile draws as the whole run draws it: the same curves.
    import drbench.results as dres
    cfg = tmp_path / "pieces.yaml"
    cfg.write_text(PIECES)
    paths = {}
    for prof in ("", "col1", "col2", "k3"):
        out = tmp_path / f"{prof or 'whole'}.h5"
        args = ["run", str(cfg), "--output", str(out), "--quiet"]
        drbench(*args, *(["--profile", prof] if prof else []))
        paths[prof or "whole"] = str(out)
    whole = dres.load(paths["whole"]).tables
    pieces = dres.load_pieces([paths["col1"], paths["col2"]])
    assert pieces.attrs["profile"] == "col{1,2}"
    cols = ["method", "split_value", "mean_error_pct", "std_error_pct", "setting"]
    key = ["method", "split_value"]
    a = whole[cols].sort_values(key).reset_index(drop=True)
    b = pieces.tables[cols].sort_values(key).reset_index(drop=True)
    assert len(a) == 4 and a.equals(b)
    out = tmp_path / "figs"
    p = drbench("plot", paths["col1"], paths["col2"], "-o", str(out))
    assert (out / "error_vs_split_iris_k1.png").exists()
    assert "latent spaces and optimiser traces are drawn per file" in p.stderr
    assert not any(f.startswith(("latent", "trace")) for f in os.listdir(out))
    # A cell in two files, or files whose cells mean different things, make no table.
    p = drbench("plot", paths["col2"], paths["whole"], "-o", str(out), check=False)
    assert p.returncode == 2 and "in one table: both hold" in p.stderr
    p = drbench("plot", paths["col1"], paths["k3"], "-o", str(out), check=False)
    assert p.returncode == 2 and "the evaluated k differs" in p.stderr


TWO_DATASETS = """
name: pyranks
seed: 4
datasets:
  - {name: iris, source: bundled, preprocess: [standardize]}
  - {name: wine, source: bundled, preprocess: [standardize]}
splits: {train_ratio: [0.3, 0.6], repeats: 2}
methods:
  - {method: pca, label: PCA, dims: [2]}
  - {method: lda, label: LDA, dims: [2]}
  - {method: identity, label: input}
evaluation:
  knn: [1]
  quality: [rnx_auc]
output: {path: results/pyranks.h5}
"""


def test_cd_diagram_draws_the_stored_ranks(tmp_path):
    """The CD diagram and the ranks csv carry the mean ranks and CD `drbench aggregate --ranks`
    prints (one owner: framework/results/ranks.cpp)."""
    import re
    from conftest import run_config
    from drbench import plot as dplot
    from drbench import results as dres
    h5 = run_config(tmp_path, "pyranks", TWO_DATASETS)
    md = drbench("aggregate", str(h5), "--no-store", "--ranks", "--metric", "rnx_auc").stdout
    row = next(line for line in md.splitlines() if line.startswith("| **mean rank**"))
    want = [float(x) for x in re.findall(r"\*\*([0-9.]+)\*\*", row)]
    cd = float(re.search(r"CD = ([0-9.]+)", md).group(1))
    rk = dres.ranks(str(h5), "rnx_auc")
    assert list(rk["label"]) == ["PCA", "LDA", "input"]
    np.testing.assert_allclose(rk["mean_rank"], want, atol=5e-4)
    np.testing.assert_allclose(rk["cd"], cd, atol=5e-4)
    assert (rk["blocks"] == 4).all() and (rk["measure"] == "rnx_auc").all()
    r = dres.load(str(h5))
    pl = dplot.Plotter(r, str(tmp_path / "fig"), "png", 50)
    os.makedirs(tmp_path / "fig", exist_ok=True)
    pl.cd_diagram("rnx_auc")
    assert [m[1] for m in pl.manifest] == ["cd"]


RNX_GRID = """
name: pyrnx
seed: 6
datasets:
  - {name: iris, source: bundled, preprocess: [standardize]}
splits: {train_ratio: [0.5], repeats: 3}
methods:
  - {method: pca, label: PCA, dims: [2]}
  - {method: lle, label: LLE, dims: [2], grid: {neighbours: [4, 8, 16]}}
evaluation:
  knn: [1]
  selection: {rule: validation, fraction: 0.3}
  quality: [rnx_auc]
output: {path: results/pyrnx.h5}
"""


def test_rnx_curves_show_the_setting_the_program_chooses(tmp_path):
    """The R_NX figure draws each method at the setting `drbench aggregate --metric rnx_auc`
    reports (one owner of the best-setting rule: framework/results/aggregate.cpp)."""
    import csv as csv_module
    from conftest import run_config
    from drbench import plot as dplot
    from drbench import results as dres
    h5 = run_config(tmp_path, "pyrnx", RNX_GRID)
    text = drbench("aggregate", str(h5), "--no-store", "--metric", "rnx_auc", "--format",
                   "csv").stdout
    (chosen,) = [row["setting"] for row in csv_module.DictReader(text.splitlines())
                 if row["method"] == "LLE"]
    r = dres.load(str(h5))
    lle = r.tasks[r.tasks["label"] == "LLE"]
    assert lle["setting"].nunique() == 3
    pl = dplot.Plotter(r, str(tmp_path / "fig"), "png", 50)
    os.makedirs(tmp_path / "fig", exist_ok=True)
    pl.rnx_curves()
    (drawn,) = [m for m in pl.manifest if m[1] == "rnx"]
    ids = {int(i) for i in drawn[4].split(",")}
    # Under validation the reported tasks are the chosen settings' test-point tasks (fold -1),
    # never the inner ones that chose them.
    assert (lle["fold"] >= 0).any()
    test_points = lle[lle["fold"] < 0]
    if not chosen.startswith("per partition"):
        test_points = test_points[test_points["setting"] == chosen]
    want = set(test_points["id"]) | set(r.tasks[r.tasks["label"] == "PCA"]["id"])
    assert ids == want
