"""drbench.external (the SDK of `method: external`) and drbench.octave: the file halves, seeds
and traces, the estimator adapter against scikit-learn called directly, and the Octave adapter
against NumPy (skipped without octave-cli outside CI, failed in CI)."""
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))

from drbench import external  # noqa: E402


def make_input(path, n=40, m=7, d=5, dim=2, params=None, labels=True):
    rng = np.random.default_rng(3)
    params = params or {}
    with h5py.File(path, "w") as f:
        f["X_train"] = rng.normal(size=(n, d))
        f["X_test"] = rng.normal(size=(m, d))
        if labels:
            f["y_train"] = (np.arange(n) % 2).astype(np.int32)
        f.attrs.update(format=external.FORMAT, seed=42, dim=dim, n_classes=2, threads=1,
                       label="t $(x)", dataset="toy")
        g = f.create_group("params")
        names, types = [], []
        for k, (typ, v) in params.items():
            names.append(k)
            types.append(typ)
            g.attrs[k] = v
        f.attrs["param_names"] = names
        f.attrs["param_types"] = types


def test_read_task_types_and_write_output_with_trace(tmp_path):
    make_input(tmp_path / "in.h5", params={"k": ("int", np.int64(4)), "w": ("real", 0.5),
                                           "b": ("bool", np.int64(0)), "c": ("choice", "a;b")})
    t = external.read_task(str(tmp_path / "in.h5"))
    assert t.params == {"k": 4, "w": 0.5, "b": False, "c": "a;b"}
    assert isinstance(t.params["b"], bool) and isinstance(t.params["k"], int)
    assert t.X_train.shape == (40, 5) and t.X_test.shape == (7, 5) and t.y_train.shape == (40,)
    assert (t.dim, t.seed, t.label) == (2, 42, "t $(x)")
    t.log(3.0, grad_norm=0.5)
    t.log(2.0, seconds=1.5, step=0.1)
    external.write_output(str(tmp_path / "out.h5"), np.zeros((40, 2)), np.ones((7, 2)), t.trace,
                          "gd")
    with h5py.File(tmp_path / "out.h5") as f:
        assert f["Z_train"].shape == (40, 2) and f["Z_test"].shape == (7, 2)
        np.testing.assert_array_equal(f["trace/objective"][()], [3.0, 2.0])
        assert f["trace/seconds"][1] == 1.5 and np.isnan(f["trace/step"][0])
        assert f.attrs["optimizer"] == "gd"


def test_read_task_refuses_another_format(tmp_path):
    make_input(tmp_path / "in.h5")
    with h5py.File(tmp_path / "in.h5", "a") as f:
        f.attrs["format"] = "something/2"
    with pytest.raises(ValueError, match="format"):
        external.read_task(str(tmp_path / "in.h5"))


def test_estimator_matches_sklearn_called_directly_and_gets_the_seed(tmp_path):
    sklearn = pytest.importorskip("sklearn.decomposition")
    make_input(tmp_path / "in.h5", labels=False)
    seen = {}

    @external.estimator
    def pca(task):
        est = sklearn.PCA(n_components=task.dim, svd_solver="randomized")
        seen["est"] = est
        return est

    pca.main([str(tmp_path / "in.h5"), str(tmp_path / "out.h5")])
    assert seen["est"].random_state == 42  # the task's seed, set because the factory left None
    t = external.read_task(str(tmp_path / "in.h5"))
    ref = sklearn.PCA(n_components=2, svd_solver="randomized", random_state=42)
    Zr = ref.fit_transform(t.X_train)
    with h5py.File(tmp_path / "out.h5") as f:
        np.testing.assert_allclose(f["Z_train"][()], Zr, atol=1e-10)
        np.testing.assert_allclose(f["Z_test"][()], ref.transform(t.X_test), atol=1e-10)


def test_demo_module_is_a_pca(tmp_path):
    make_input(tmp_path / "in.h5", params={"center": ("bool", np.int64(1))}, labels=False)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    subprocess.run(["/usr/bin/python3", "-m", "drbench.external", str(tmp_path / "in.h5"),
                    str(tmp_path / "out.h5")], check=True, env=env)
    t = external.read_task(str(tmp_path / "in.h5"))
    Xc = t.X_train - t.X_train.mean(axis=0)
    with h5py.File(tmp_path / "out.h5") as f:
        Z = f["Z_train"][()]
        # Same subspace and variance as the top-2 principal components.
        np.testing.assert_allclose(np.linalg.svd(Z, compute_uv=False),
                                   np.linalg.svd(Xc, compute_uv=False)[:2], rtol=1e-10)
        assert f["trace/objective"].shape == (1,)


def test_octave_adapter_runs_a_function_file(tmp_path):
    if shutil.which("octave-cli") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("octave-cli missing (scripts/install-deps.sh --test installs octave)")
        pytest.skip("octave-cli not installed")
    make_input(tmp_path / "in.h5", params={"center": ("bool", np.int64(1))}, labels=False)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    fn = os.path.join(ROOT, "examples", "external", "octave_pca.m")
    subprocess.run(["/usr/bin/python3", "-m", "drbench.octave", fn, str(tmp_path / "in.h5"),
                    str(tmp_path / "out.h5")], check=True, env=env, cwd=tmp_path)
    subprocess.run(["/usr/bin/python3", "-m", "drbench.external", str(tmp_path / "in.h5"),
                    str(tmp_path / "ref.h5")], check=True, env=env)
    with h5py.File(tmp_path / "out.h5") as a, h5py.File(tmp_path / "ref.h5") as b:
        np.testing.assert_allclose(a["Z_train"][()], b["Z_train"][()], atol=1e-10)
        np.testing.assert_allclose(a["Z_test"][()], b["Z_test"][()], atol=1e-10)
