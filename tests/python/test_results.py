"""drbench.results against the C++ program that wrote and aggregated the file."""
import os

import h5py
import numpy as np
import pandas as pd
import pytest

from drbench import results as dres

from conftest import ROOT


def cli_tables(csv_text):
    return dres.parse_tables_csv(csv_text)


def assert_same_tables(a, b):
    assert len(a) == len(b)
    for c in dres.TABLE_COLUMNS:
        x, y = a[c].to_numpy(), b[c].to_numpy()
        if a[c].dtype.kind == "f":
            # The CLI prints 4 decimals (percent) and 6 significant digits (p).
            tol = dict(atol=6e-5, rtol=0) if c not in ("p_value", "p_adjusted") \
                else dict(atol=1e-12, rtol=1e-5)
            assert np.array_equal(np.isnan(x), np.isnan(y.astype(float))), c
            m = ~np.isnan(x)
            np.testing.assert_allclose(x[m], y[m].astype(float), err_msg=c, **tol)
        else:
            assert list(x) == list(y), c


def test_task_table(raw_results):
    r = dres.load(raw_results)
    with h5py.File(raw_results, "r") as f:
        n_tasks = int(f.attrs["n_tasks"])
    assert len(r.tasks) == n_tasks == 2 * 3 * (2 + 1 + 1 + 2)
    assert r.k == [1, 3]
    assert list(r.tasks["id"]) == sorted(r.tasks["id"])
    assert r.tasks["ok"].all()
    for k in (1, 3):
        e = r.tasks[f"error_k{k}"]
        assert ((e >= 0) & (e <= 1)).all()
    assert set(r.tasks["label"]) == {"PCA", "LDA", "LDA 1-D", "GPLVM"}
    assert r.attrs["name"] == "pytiny" and r.attrs["ranks"] == 1
    assert "keep_traces: true" in r.attrs["config"]


def test_tables_recomputed_when_not_stored(raw_results):
    r = dres.load(raw_results)
    assert r.tables_source == "recomputed"
    assert any("computed by `drbench aggregate --no-store`" in n for n in r.notes)
    assert len(r.tables) > 0 and r.tables["p_value"].notna().any()


def test_aggregate_agrees_with_cli(raw_results, results_file):
    path, csv = results_file
    stored = dres.load(path)
    # The csv of a one-protocol file names it in no column: each row takes its label's.
    assert set(stored.tables["protocol"]) == {"holdout"}
    cli = dres.fill_protocols(stored.tasks, cli_tables(csv))
    assert stored.tables_source == "stored" and stored.tables_reference == "LDA"
    assert_same_tables(stored.tables, cli)
    # The untouched file has no /tables: load() asks the program, and gets the same numbers.
    raw = dres.load(raw_results)
    assert raw.tables_source == "recomputed"
    assert_same_tables(raw.tables, cli)
    # Another t-test reference goes through to the program.
    untested = dres.aggregate(raw_results, reference="")
    assert untested["p_value"].isna().all() and not untested["worse"].any()
    # Some cells are significantly worse than LDA on iris (PCA 1-D): the t-test is exercised.
    assert cli["worse"].any() and (~cli["worse"]).any()
    assert set(stored.table_text) == {"iris_k1_d1", "iris_k1_d2", "iris_k3_d1", "iris_k3_d2"}


def test_tables_need_the_program(raw_results, monkeypatch):
    monkeypatch.setenv("DRBENCH_PROGRAM", "/nonexistent/drbench")
    monkeypatch.setattr(dres, "drbench_program", lambda: None)
    r = dres.load(raw_results)
    assert r.tables.empty and r.tables_source == ""
    assert any("no drbench program" in n and "DRBENCH_PROGRAM" in n for n in r.notes)
    with pytest.raises(FileNotFoundError, match="DRBENCH_PROGRAM"):
        dres.aggregate(raw_results)


def test_traces(raw_results):
    r = dres.load(raw_results)
    tr = r.traces
    gp = set(r.tasks[r.tasks["method"] == "gplvm"]["id"])
    assert set(tr["task_id"]) == gp
    assert set(tr["optimizer"]) == {"scg", "lbfgs"}
    for _, d in tr.groupby("task_id"):
        assert (np.diff(d["iteration"]) > 0).all()
        assert (np.diff(d["seconds"]) >= 0).all()
        assert np.isfinite(d["objective"]).all() and (d["grad_norm"] >= 0).all()
    if "step" in tr:  # traces written since optimisers log their step length
        assert (tr["step"].dropna() >= 0).all()


def test_embeddings(raw_results):
    r = dres.load(raw_results)
    e = r.embeddings
    assert set(e["task_id"]) == set(r.tasks["id"])
    for _, task in r.tasks.iterrows():
        one = e[e["task_id"] == task["id"]]
        assert (one["part"] == "train").sum() == task["n_train"]
        assert (one["part"] == "test").sum() == task["n_test"]
        dims = [c for c in one.columns if c.startswith("z") and one[c].notna().all()]
        assert len(dims) == task["dim"]
    if (e["index"] >= 0).all():  # files that store point indices: labels are the data's
        y = pd.read_csv(dres_root("datasets/data/iris.csv")).iloc[:, -1].to_numpy()
        assert (e["label"].to_numpy() == y[e["index"].to_numpy()]).all()
    else:
        assert (e["label"] == -1).all()
        assert any("no point indices" in n for n in r.notes)


def dres_root(rel):
    import os
    return os.path.join(os.path.dirname(__file__), "..", "..", rel)


def test_optional_columns_are_read(tmp_path):
    """A step column in traces and per-point indices/labels in embeddings, when a file has
    them, come through (synthetic file in the documented layout)."""
    p = tmp_path / "syn.h5"
    with h5py.File(p, "w") as f:
        f.attrs["name"] = "syn"
        t = f.create_group("tasks")
        t["id"] = np.array([0], dtype=np.uint64)
        t["status"] = np.array([0], dtype=np.int8)
        ke = t.create_dataset("knn_error", data=np.array([[0.1]]))
        ke.attrs["k"] = np.array([1])
        d = f.create_dataset("traces/0", data=np.array([[0, 5.0, 1.0, 0.0, 0.5],
                                                         [1, 4.0, 0.5, 0.1, 0.25]]))
        d.attrs["columns"] = ["iteration", "objective", "grad_norm", "seconds", "step"]
        d.attrs["optimizer"] = "scg"
        f["embeddings/0/train"] = np.zeros((3, 2))
        f["embeddings/0/train_index"] = np.array([4, 1, 7])
        f["embeddings/0/train_label"] = np.array([0, 2, 1])
    r = dres.load(str(p))
    assert list(r.traces["step"]) == [0.5, 0.25]
    e = r.embedding(0)
    assert list(e["index"]) == [4, 1, 7] and list(e["label"]) == [0, 2, 1]
    with pytest.raises(KeyError, match="keep_embeddings"):
        r.embedding(5)


def test_not_a_results_file(tmp_path):
    p = tmp_path / "x.h5"
    with h5py.File(p, "w") as f:
        f["a"] = 1
    with pytest.raises(ValueError, match="not a drbench results file"):
        dres.load(str(p))


def test_damaged_string_heap_is_refused_not_hung(raw_results, tmp_path):
    # libhdf5 loops forever on a string-heap free-space record of size 0 (a fuzzing find); the
    # reader walks the heaps first. Here the last record of the first heap becomes that record.
    data = bytearray(open(raw_results, "rb").read())
    at = data.find(b"GCOL\x01")
    end = at + int.from_bytes(data[at + 8:at + 16], "little")
    p, last = at + 16, None
    while p + 16 <= end:
        last = p
        idx, size = int.from_bytes(data[p:p + 2], "little"), int.from_bytes(data[p + 8:p + 16],
                                                                            "little")
        p += size if idx == 0 else 16 + (size + 7) // 8 * 8
    data[last:last + 2] = b"\0\0"
    data[last + 8:last + 16] = bytes(8)
    bad = tmp_path / "bad.h5"
    bad.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="string heap .* damaged|damaged: the string heap"):
        dres.load(str(bad))


def test_string_column_with_wrong_crc_is_refused(raw_results, tmp_path):
    bad = tmp_path / "crc.h5"
    bad.write_bytes(open(raw_results, "rb").read())
    with h5py.File(bad, "r+") as f:
        f["tasks/method"].attrs["crc32"] = np.int64(f["tasks/method"].attrs["crc32"]) ^ 1
    with pytest.raises(ValueError, match="'method'.*damaged"):
        dres.load(str(bad))
    # and the undamaged file verifies
    assert len(dres.load(raw_results).tasks) > 0


def test_file_that_crashes_libhdf5_raises_instead():
    # fuzz/known/results-libhdf5-heap-index.h5 makes libhdf5 1.10.8 read through a wild pointer
    # (h5py segfaults); the reader rehearses every read in a forked child first.
    path = os.path.join(ROOT, "fuzz", "known", "results-libhdf5-heap-index.h5")
    with pytest.raises(ValueError, match="crashed the HDF5 library"):
        dres.load(path)


def test_unfinished_run_warns(raw_results, tmp_path):
    """A file whose run has not finished (no `finished` stamp) says so, as `drbench aggregate`
    does; the finished file does not."""
    import shutil
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        done = dres.load(raw_results)
    assert not any("incomplete" in n for n in done.notes)
    p = tmp_path / "stopped.h5"
    shutil.copy(raw_results, p)
    with h5py.File(p, "a") as f:
        f.attrs["finished"] = ""
        n = int(f.attrs["n_tasks"])
    with pytest.warns(UserWarning, match=f"incomplete run: .* holds {n} of {n} tasks"):
        r = dres.load(str(p))
    assert r.notes[0].startswith("incomplete run")


def test_config_protocol_of_files_without_the_column(monkeypatch):
    # Files from before /tasks/protocol read as their config's evaluation.protocol (holdout when
    # it names none), with PyYAML and, without it, by the one protocol key such a config had.
    cases = {"evaluation: {knn: [1], protocol: transductive}\n": "transductive",
             "evaluation:\n  knn: [1]\n  protocol: holdout\n": "holdout",
             "# protocol: transductive\nevaluation: {knn: [1]}\n": "holdout",
             "methods: [{method: pca}]\n": "holdout"}
    for text, want in cases.items():
        assert dres.config_protocol(text) == want, text
    monkeypatch.setitem(__import__("sys").modules, "yaml", None)  # import yaml: ImportError
    for text, want in cases.items():
        assert dres.config_protocol(text) == want, text
