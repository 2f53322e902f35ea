"""Shared fixtures: a small results file made by the drbench built from this checkout.

The binary is $DRBENCH_BIN (ctest sets it) or build/drbench. The config uses bundled iris only, so
no dataset files are needed; it keeps embeddings and traces so every figure kind has input.
"""
import os
import subprocess
import sys

import h5py
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))

CONFIG = """
name: pytiny
seed: 11
datasets:
  - name: iris
    source: bundled
    preprocess: [standardize]
splits:
  train_ratio: [0.3, 0.6]
  repeats: 3
methods:
  - {method: pca, label: PCA, dims: [1, 2]}
  - {method: lda, label: LDA, dims: [2]}
  - {method: lda, label: LDA 1-D, dims: [1]}   # a one-dimensional scatter
  - method: gplvm
    label: GPLVM
    dims: [2]
    grid: {iterations: [25], oos_iterations: [10], optimizer: [scg, lbfgs]}
evaluation:
  knn: [1, 3]
  selection: min_mean_error
  ttest_against: LDA
output:
  path: results/pytiny.h5
  keep_embeddings: true
  keep_traces: true
"""


def drbench_bin():
    b = os.environ.get("DRBENCH_BIN") or os.path.join(ROOT, "build", "drbench")
    if not os.access(b, os.X_OK):
        pytest.fail(f"{b}: drbench not built (run bash scripts/build.sh, or set DRBENCH_BIN)")
    # The package computes tables missing from a file with this same program.
    os.environ["DRBENCH_PROGRAM"] = b
    return b


def env():
    e = dict(os.environ)
    e.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
             HDF5_USE_FILE_LOCKING="FALSE")
    return e


def drbench(*args, check=True, extra_env=None):
    e = env()
    e.update(extra_env or {})
    p = subprocess.run([drbench_bin(), *args], capture_output=True, text=True, env=e,
                       cwd=ROOT, timeout=300)
    if check and p.returncode != 0:
        pytest.fail(f"drbench {' '.join(args)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p


def run_config(directory, name, text):
    """`text` written as <directory>/<name>.yaml and run quietly, without a table, into
    <directory>/<name>.h5 (returned)."""
    cfg = directory / f"{name}.yaml"
    cfg.write_text(text)
    out = directory / f"{name}.h5"
    drbench("run", str(cfg), "--output", str(out), "--quiet", "--no-table")
    return out


@pytest.fixture(scope="session")
def raw_results(tmp_path_factory):
    """A finished run without /tables, as files written before `drbench run` stored its own."""
    out = run_config(tmp_path_factory.mktemp("run"), "pytiny", CONFIG)
    with h5py.File(out, "r+") as f:
        assert len(f["tables"]) > 0, "drbench run stored no tables"
        del f["tables"]
    return str(out)


@pytest.fixture(scope="session")
def results_file(raw_results, tmp_path_factory):
    """The same run after `drbench aggregate` stored its tables; returns (path, CLI csv text)."""
    d = tmp_path_factory.mktemp("agg")
    out = d / "pytiny.h5"
    out.write_bytes(open(raw_results, "rb").read())
    csv = drbench("aggregate", str(out), "--format", "csv").stdout
    return str(out), csv
