"""scripts/reproduce_check.py: a committed seed-paper table's slice reruns to the committed digits,
and a changed committed number is caught and named."""
import os
import shutil
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "reproduce_check.py")
TABLE = os.path.join(ROOT, "results", "gplrf_usps_table1_linear.csv")
CONFIG = os.path.join(ROOT, "configs", "gplrf_usps_linear.yaml")
# PCA at 10 per class: 20 partitions of the GPLRF Table 1 linear rows (about 20 s of CPU).
SLICE = ["--only", "PCA", "splits.train_per_class=[10]"]


def usps_present():
    for d in (os.environ.get("DRBENCH_DATA", ""), os.path.join(ROOT, "..", "shared", "datasets")):
        if d and any(os.path.exists(os.path.join(d, n)) for n in ("usps", "usps.h5", "usps.bz2")):
            return True
    return False


def check(table, tmp_path, *more):
    return subprocess.run(["/usr/bin/python3", SCRIPT, str(table), CONFIG, *SLICE, *more],
                          capture_output=True, text=True, cwd=ROOT)


pytestmark = pytest.mark.skipif(not usps_present(), reason="USPS is not in the data path")


def test_committed_linear_table_reproduces_and_changed_tables_are_caught(tmp_path):
    r = check(TABLE, tmp_path, "--keep", str(tmp_path / "rerun"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 cell(s)" in r.stdout and "all reproduce" in r.stdout

    # The same committed table with PCA's mean at 10 per class one hundredth of a point higher.
    changed = tmp_path / "changed.csv"
    lines = open(TABLE).read().splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith("usps,PCA,per_class,10,"):
            cols = line.split(",")
            cols[6] = f"{float(cols[6]) + 0.01:.4f}"
            lines[i] = ",".join(cols)
    changed.write_text("".join(lines))
    kept = str(tmp_path / "rerun" / "rerun.h5")
    r = check(changed, tmp_path, "--from", kept)
    assert r.returncode == 1
    assert "usps/PCA/per_class/10.0/9.0/1.0: mean_error_pct committed" in r.stdout

    # A table the slice is not part of (the GP rows at 20 per class) is no evidence either way.
    other = tmp_path / "other.csv"
    shutil.copy(os.path.join(ROOT, "results", "gplrf_usps_table1_halving_20.csv"), other)
    r = check(other, tmp_path, "--from", kept)
    assert r.returncode == 1
    assert "none of the rerun's 1 cells" in r.stderr
