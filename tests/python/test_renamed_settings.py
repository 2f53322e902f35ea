"""A results file of settings version 1 (parameter names from before the renames,
docs/results-format.md "Renamed parameters") reads under today's names in Python as in C++: the
package asks the drbench program (`drbench info --settings`), which owns the one migration."""
import io
import shutil

import h5py
import pandas as pd
import pytest

from drbench import results as dres

from conftest import drbench


def _old_names(src, dst, stored_tables=True):
    """The file as a build before the renames wrote it: LDA's `ridge` called `reg` in the setting
    and key columns, no settings_version attribute (as tests/cli/renamed_params.sh makes one)."""
    shutil.copy(src, dst)
    with h5py.File(dst, "r+") as f:
        t = f["tasks"]
        methods = t["method"].asstr()[:]
        for name in ("setting", "key"):
            values = [v.replace("ridge=", "reg=") if m == "lda" else v
                      for m, v in zip(methods, t[name].asstr()[:])]
            dt = t[name].dtype
            del t[name]
            t.create_dataset(name, data=[v.encode() for v in values], dtype=dt)
        if "settings_version" in f.attrs:
            del f.attrs["settings_version"]
        if not stored_tables and "tables" in f:
            del f["tables"]
    return dst


def test_old_names_read_as_todays(results_file, tmp_path):
    path, _ = results_file
    old = _old_names(path, str(tmp_path / "old.h5"))
    with h5py.File(old, "r") as f:
        assert any("reg=" in s for s in f["tasks/setting"].asstr()[:])
    r = dres.load(old)
    lda = r.tasks[r.tasks["method"] == "lda"]
    assert len(lda) > 0
    assert lda["setting"].str.contains("ridge=").all()
    assert not r.tasks["setting"].str.contains(r"(^|,)reg=").any()
    assert not r.tasks["key"].str.contains(r"\|reg=|,reg=").any()
    assert any("settings version 1" in n for n in r.notes)
    # The stored tables were written with the old names: they are recomputed by the program.
    assert r.tables_source == "recomputed"
    assert not r.tables["setting"].str.contains("reg=").any()
    # The same names the C++ reader gives, setting by setting and key by key.
    tsv = drbench("info", old, "--settings").stdout
    cli = pd.read_csv(io.StringIO(tsv), sep="\t", keep_default_na=False)
    merged = r.tasks.merge(cli, on="id", suffixes=("", "_cli"))
    assert len(merged) == len(r.tasks)
    assert (merged["setting"] == merged["setting_cli"]).all()
    assert (merged["key"] == merged["key_cli"]).all()
    # And the file of today's version is left as it is (no program call changes anything).
    new = dres.load(path)
    assert list(new.tasks["setting"]) == list(r.tasks["setting"])
    assert list(new.tasks["key"]) == list(r.tasks["key"])


def test_without_the_program_old_names_stay_and_say_so(raw_results, tmp_path, monkeypatch):
    old = _old_names(raw_results, str(tmp_path / "old.h5"), stored_tables=False)
    monkeypatch.setattr(dres, "drbench_program", lambda: None)
    r = dres.load(old)
    assert r.tasks["setting"].str.contains("reg=").any()
    assert any("no drbench program to migrate them" in n for n in r.notes)


def test_program_settings_version():
    assert dres.program_settings_version() >= 2
    assert drbench("info", "--settings-version").stdout.strip() == str(
        dres.program_settings_version())
    p = drbench("info", "--settings-version", "x.h5", check=False)
    assert p.returncode == 2 and "takes no results file" in p.stderr


def test_migrate_settings_text(results_file, tmp_path):
    """scripts/migrate_settings_text.py turns a committed table printed with old names into the one
    drbench prints today, through `drbench methods --migrate`, and touches nothing else."""
    import os
    import subprocess
    import sys

    from conftest import CONFIG, ROOT, env
    path, _ = results_file
    cfg = tmp_path / "pytiny.yaml"
    cfg.write_text(CONFIG)
    today = tmp_path / "today.csv"
    drbench("aggregate", path, "--no-store", "--long", str(today))
    text = today.read_text()
    assert "ridge=" in text
    old_csv = tmp_path / "old.csv"
    old_csv.write_text(text.replace("ridge=", "reg="))
    md = ("| method | 0.3 |\n|---|---|\n| LDA | reg=0.001 |\n| PCA | (defaults) |\n"
          "| LDA 1-D | neighbours=5,reg=0.001 |\nProse keeps reg=1 as written.\n"
          "- iris LDA 1-D reg=0.5: failed\n")
    old_md = tmp_path / "notes.md"
    old_md.write_text(md)
    run = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "migrate_settings_text.py"),
                          str(cfg), str(old_csv), str(old_md)], capture_output=True, text=True,
                         env=env())
    assert run.returncode == 0, run.stderr
    assert old_csv.read_text() == text
    assert old_md.read_text() == (
        "| method | 0.3 |\n|---|---|\n| LDA | ridge=0.001 |\n| PCA | (defaults) |\n"
        "| LDA 1-D | neighbours=5,ridge=0.001 |\nProse keeps reg=1 as written.\n"
        "- iris LDA 1-D ridge=0.5: failed\n")
    # A line without a registered method is refused, naming it.
    prog = os.environ["DRBENCH_PROGRAM"]
    bad = subprocess.run([prog, "methods", "--migrate"], input="nope\treg=1\n",
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "'nope\treg=1' is not METHOD<tab>SETTING" in bad.stderr
