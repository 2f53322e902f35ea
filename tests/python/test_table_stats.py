"""The tables' tests, corrections and intervals (computed by the C++ program only) against
scipy.stats on the task table of the same file, and how load() and the report show them."""
import csv
import io
import warnings

import numpy as np
import pandas as pd
from scipy import stats

from drbench import report as drep
from drbench import results as dres



def holm(p):
    """Holm's step-down adjustment, written out: sorted ascending, p_(i) (m - i + 1), running
    maximum, capped at 1."""
    p = np.asarray(p, float)
    order = np.argsort(p, kind="stable")
    out, run = np.empty_like(p), 0.0
    for i, j in enumerate(order):
        run = max(run, (len(p) - i) * p[j])
        out[j] = min(1.0, run)
    return out


def paired(r, row, ref_label, k):
    """The errors (in %) of a table row's chosen setting and of its reference's, paired by
    partition, straight from the task table."""
    t = r.tasks[r.tasks["ok"] & (r.tasks["dataset"] == row["dataset"]) &
                (r.tasks["split_value"] == row["split_value"])]
    ref_row = r.tables[(r.tables["dataset"] == row["dataset"]) & (r.tables["k"] == k) &
                       (r.tables["method"] == ref_label) &
                       (r.tables["split_value"] == row["split_value"])]
    ref_row = ref_row[ref_row["dim"] == row["dim"]] if (ref_row["dim"] == row["dim"]).any() \
        else ref_row
    assert len(ref_row) == 1
    mine = t[(t["label"] == row["method"]) & (t["dim"] == row["dim"]) &
             (t["setting"] == row["setting"])].set_index("split_seed")[f"error_k{k}"]
    theirs = t[(t["label"] == ref_label) & (t["dim"] == ref_row["dim"].iloc[0]) &
               (t["setting"] == ref_row["setting"].iloc[0])].set_index("split_seed")[f"error_k{k}"]
    common = [s for s in mine.index if s in theirs.index]
    return mine[common].to_numpy(), theirs[common].to_numpy()


def scipy_wilcoxon(x, y):
    """scipy.stats.wilcoxon as drbench follows it: defaults, but the normal approximation where
    the differences tie (docs/results-format.md)."""
    d = x - y
    nz = np.abs(d[d != 0])
    if len(nz) == 0:
        return 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if (d == 0).any() or len(np.unique(nz)) < len(nz) or len(d) > 50:
            return stats.wilcoxon(x, y, method="approx").pvalue
        return stats.wilcoxon(x, y).pvalue


def check_tests(r, test):
    tested = r.tables[r.tables["p_value"].notna()]
    assert len(tested) > 0
    for _, row in tested.iterrows():
        x, y = paired(r, row, row["reference"], row["k"])
        d = (x - y) * 100
        if test == "ttest":
            res = stats.ttest_rel(x, y)
            assert row["p_value"] == pytest_approx(res.pvalue), row
        else:
            assert row["p_value"] == pytest_approx(scipy_wilcoxon(x, y)), row
        assert row["mean_diff"] == pytest_approx(d.mean(), abs=6e-5)
        half = stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
        assert row["ci95_low"] == pytest_approx(d.mean() - half, abs=6e-5)
        assert row["ci95_high"] == pytest_approx(d.mean() + half, abs=6e-5)


def pytest_approx(v, abs=None):
    import pytest
    return pytest.approx(v, rel=2e-5, abs=abs if abs is not None else 1e-12)


def test_named_reference_uncorrected_paired_t(results_file):
    path, _ = results_file
    r = dres.load(path)  # stored tables; the config names LDA: the papers' uncorrected tests
    assert r.tables_source == "stored"
    tested = r.tables[r.tables["p_value"].notna()]
    assert set(tested["reference"]) == {"LDA"}
    assert set(tested["test"]) == {"ttest"} and set(tested["correction"]) == {"none"}
    assert (tested["p_adjusted"] == tested["p_value"]).all()
    check_tests(r, "ttest")


def test_best_of_column_wilcoxon_holm(results_file, tmp_path):
    path, _ = results_file
    r = dres.load(path)
    r.tables = dres.aggregate(path, reference="best", test="wilcoxon")
    assert set(r.tables["correction"]) == {"holm"} and set(r.tables["test"]) == {"wilcoxon"}
    check_tests(r, "wilcoxon")
    for (ds, k, dim), t in r.tables.groupby(["dataset", "k", "dim"]):
        # Bold: the lowest mean of each column; the reference of every test is that column's
        # bold cell, which is not tested itself.
        for sv, col in t.groupby("split_value"):
            best = col[col["best"]]
            assert len(best) >= 1
            assert (best["mean_error_pct"] == col["mean_error_pct"].min()).all()
            assert best["p_value"].isna().all()
            assert set(col["reference"][col["p_value"].notna()]) <= set(best["method"])
        # Holm over the table's comparisons.
        tested = t[t["p_value"].notna()]
        np.testing.assert_allclose(tested["p_adjusted"], holm(tested["p_value"]), rtol=3e-5)
        assert (tested["worse"] == ((tested["p_adjusted"] < 0.05) &
                                    (tested["mean_diff"] > 0))).all()


def test_report_bold_and_caption(results_file):
    path, _ = results_file
    r = dres.load(path)
    html = drep.tables_html(r)
    assert "<b>" in html
    assert "bold: the best mean of its column" in html
    if r.tables["p_value"].notna().any():
        assert "† significantly worse than LDA (paired t-test, uncorrected, p &lt; 0.05)" in html
    md = next(iter(r.table_text.values()))
    assert "bold: the best mean of its column" in md
    assert "**" in md.split("\n", 2)[2]  # a bold cell below the caption line


def test_tables_stored_before_the_test_columns_are_recomputed(results_file, tmp_path):
    path, _ = results_file
    old = tmp_path / "old.h5"
    old.write_bytes(open(path, "rb").read())
    import h5py
    with h5py.File(old, "r+") as f:  # as a program from before the columns stored them
        for name in list(f["tables"]):
            if name.endswith(".csv"):
                text = f["tables"][name][()]
                text = text.decode() if isinstance(text, bytes) else str(text)
                rows = list(csv.reader(io.StringIO(text)))
                out = io.StringIO()
                csv.writer(out, lineterminator="\n").writerows(row[:13] for row in rows)
                del f["tables"][name]
                f["tables"][name] = out.getvalue()
    r = dres.load(str(old))
    assert r.tables_source == "recomputed"
    assert any("predate the columns best" in n for n in r.notes)
    assert r.tables["best"].any() and r.tables["ci95_low"].notna().any()
