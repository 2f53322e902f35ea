"""Sparse input kept sparse: an AnnData CSR/CSC matrix and a MatrixMarket coordinate file, written
by scipy/h5py, give the dense file's results: a chain that starts with pca runs it on the sparse
matrix (the projection equal within 1e-8; t-SNE and UMAP run on it), any other chain densifies the points and gives the dense values
exactly. A sparse set whose dense points would not fit is refused before anything runs, with its
size and the fix (add a pca)."""
import os
import subprocess

import h5py
import numpy as np
import pytest
import scipy.io
import scipy.sparse

from test_data_formats import write_h5ad

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("DRBENCH_BIN", os.path.join(ROOT, "build", "drbench"))
NAMES = np.array(["b_cell", "monocyte", "t_cell"])

CONFIG = """
name: sparse
seed: 4
datasets:
  - name: cells
{entry}
splits:
  train_ratio: [0.5]
methods:
  - {{method: pca, label: PCA, dims: [2]}}
  - {{method: tsne, label: t-SNE, dims: [2], grid: {{gradient: exact, perplexity: 10}}}}
  - {{method: umap, label: UMAP, dims: [2]}}
evaluation:
  knn: [1, 5]
  protocol: auto
output:
  path: {out}
  keep_embeddings: true
"""


def counts(n_per=60, d=80, density=0.1, seed=7):
    """Counts-like cells x genes, each class raising its own block of genes, about `density`
    of the entries nonzero."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(3), n_per)
    lam = np.ones((3 * n_per, d))
    for c in range(3):
        lam[y == c, c * 20:(c + 1) * 20] = 4.0
    X = rng.poisson(lam) * (rng.random((3 * n_per, d)) < density * 2)
    return X.astype(float), y


def run(tmp_path, name, entry, memory="2G"):
    out = tmp_path / ("out_" + name + ".h5")
    cfg = tmp_path / (name + ".yaml")
    body = "\n".join("    " + line for line in entry.strip().splitlines())
    cfg.write_text(CONFIG.format(entry=body, out=out))
    p = subprocess.run([BIN, "run", str(cfg), "--memory-per-rank", memory], cwd=tmp_path,
                       capture_output=True, text=True, timeout=600)
    return p, out


def results(out):
    """{(method label, task id): (train embedding, knn errors)} of a results file."""
    got = {}
    with h5py.File(out, "r") as f:
        tasks = f["tasks"]
        labels = [v.decode() if isinstance(v, bytes) else v for v in tasks["label"][()]]
        ids = tasks["id"][()]
        knn = tasks["knn_error"][()]
        for i, (lab, tid) in enumerate(zip(labels, ids)):
            got[(lab, int(tid))] = (f[f"embeddings/{int(tid)}/train"][()], knn[i])
    return got


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("sparse")
    X, y = counts()
    with h5py.File(d / "counts.h5", "w") as f:
        f["X"], f["y"] = X, y.astype(np.int32)
    write_h5ad(d / "csr.h5ad", X, NAMES[y], sparse="csr")
    write_h5ad(d / "csc.h5ad", X, NAMES[y], sparse="csc")
    scipy.io.mmwrite(str(d / "cells.mtx"), scipy.sparse.coo_matrix(X))
    # A MATLAB sparse variable (scipy writes a sparse matrix as one), labels 1..3 as Deng Cai's.
    scipy.io.savemat(str(d / "cells.mat"), {"fea": scipy.sparse.csc_matrix(X),
                                            "gnd": (y + 1).reshape(-1, 1).astype(float)})
    (d / "cells.txt").write_text("\n".join(NAMES[y]) + "\n")
    return d


SOURCES = {"csr": "path: csr.h5ad\nlabels: cell_type",
           "csc": "path: csc.h5ad\nlabels: cell_type",
           "mtx": "path: cells.mtx\nlabels_path: cells.txt",
           "mat": "path: cells.mat\nvariables: {X: fea, y: gnd}"}


@pytest.mark.parametrize("tag,chain", [("k", "[{pca: {components: 10}}]"),
                                       ("v", "[unit_norm, {pca: {variance: 0.9}}]")])
def test_sparse_pca_chain_equals_dense(files, tag, chain):
    p, dense = run(files, "dense_" + tag, f"path: counts.h5\npreprocess: {chain}")
    assert p.returncode == 0, p.stderr
    ref = results(dense)
    for kind, entry in SOURCES.items():
        p, out = run(files, kind + "_" + tag, f"{entry}\npreprocess: {chain}")
        assert p.returncode == 0, p.stderr
        got = results(out)
        assert got.keys() == ref.keys()
        for key, (E, err) in got.items():
            E0, err0 = ref[key]
            if key[0] == "PCA":  # the projection itself, up to rounding
                assert np.abs(E - E0).max() < 1e-8 * max(1.0, np.abs(E0).max()), (kind, key)
                np.testing.assert_array_equal(err, err0, err_msg=f"{kind} {key}")
            else:
                # t-SNE and UMAP get inputs equal to about 1e-13 and build the same neighbour
                # graph from them (tests/unit/test_data_preprocess.cpp), but their nonconvex
                # optimisations (and UMAP's spectral start on a graph of several components)
                # carry such differences to other local optima: same shape, finite, scored.
                assert E.shape == E0.shape and np.isfinite(E).all(), (kind, key)
                assert np.isfinite(err).all(), (kind, key)


def test_sparse_densified_without_pca_is_exact(files):
    p, dense = run(files, "dense_raw", "path: counts.h5\npreprocess: [standardize]")
    assert p.returncode == 0, p.stderr
    ref = results(dense)
    p, out = run(files, "csr_raw", SOURCES["csr"] + "\npreprocess: [standardize]")
    assert p.returncode == 0, p.stderr
    for key, (E, err) in results(out).items():
        np.testing.assert_array_equal(E, ref[key][0], err_msg=str(key))
        np.testing.assert_array_equal(err, ref[key][1])


@pytest.mark.parametrize("fmt", ["h5ad", "mat"])
def test_sparse_too_large_dense_is_refused_and_runs_with_pca(tmp_path, fmt):
    """3,000 cells x 20,000 genes at 0.1 %: 0.9 MiB sparse, 458 MiB dense. At 256 MiB a rank
    holds it sparse with a 20-D PCA (Lanczos on the sparse matrix) but not dense; an AnnData CSR
    matrix and a MATLAB sparse variable alike stay sparse when read."""
    n, d = 3000, 20000
    m = scipy.sparse.random(n, d, density=0.001, format="csr", random_state=3,
                            data_rvs=lambda k: np.random.default_rng(1).integers(1, 9, k))
    y = np.arange(n) % 3
    if fmt == "h5ad":
        with h5py.File(tmp_path / "big.h5ad", "w") as f:
            g = f.create_group("X")
            g.attrs["encoding-type"] = "csr_matrix"
            g.attrs["shape"] = np.array([n, d], dtype=np.int64)
            g["data"], g["indices"], g["indptr"] = m.data, m.indices, m.indptr
            f.create_group("obs")["type"] = y
        source = "path: big.h5ad\nlabels: type"
    else:
        scipy.io.savemat(str(tmp_path / "big.mat"), {"X": m.tocsc().astype(float), "y": y})
        source = "path: big.mat"
    p, out = run(tmp_path, "big", source + "\npreprocess: [minmax]", "256M")
    assert p.returncode != 0
    for w in ["'datasets[0].preprocess'", "is sparse (3000 x 20000, 0.1 % stored",
              "up to 458 MiB", "add preprocessing: [pca(components=50)]"]:
        assert w in p.stderr, p.stderr
    assert not out.exists()
    p, out = run(tmp_path, "big_pca", source + "\npreprocess: [{pca: {components: 20}}]", "256M")
    assert p.returncode == 0, p.stderr
    with h5py.File(out, "r") as f:
        assert f["tasks"]["input_dim"][()].tolist() == [20, 20, 20]


GRAPH_CONFIG = """
name: sparse_graph
seed: 11
datasets:
  - name: cells
{entry}
splits:
  train_ratio: [0.7]
methods:
  - {{method: umap, label: UMAP, dims: [2], grid: {{neighbour_graph: exact, iterations: 60}}}}
  - {{method: tsne, label: t-SNE, dims: [2], grid: {{neighbour_graph: exact, init: random,
      iterations: 250}}}}
{extra}evaluation:
  knn: [1]
  protocol: transductive
output:
  path: {out}
  keep_embeddings: true
  keep_traces: true
"""


def run_graph(tmp_path, name, entry, memory, extra=""):
    out = tmp_path / ("out_" + name + ".h5")
    cfg = tmp_path / (name + ".yaml")
    body = "\n".join("    " + line for line in entry.strip().splitlines())
    cfg.write_text(GRAPH_CONFIG.format(entry=body, out=out, extra=extra))
    p = subprocess.run([BIN, "run", str(cfg), "--memory-per-rank", memory], cwd=tmp_path,
                       capture_output=True, text=True, timeout=900)
    return p, out


def embeddings(out):
    with h5py.File(out, "r") as f:
        return {int(t): f[f"embeddings/{t}/train"][()] for t in f["embeddings"]}


def test_graph_methods_read_sparse_points_without_densifying(tmp_path):
    """2,000 cells x 5,000 genes at 1 %: 1.6 MiB sparse, 76 MiB dense. UMAP and t-SNE under the
    transductive protocol with no preprocessing build their graphs from the sparse rows: at 64 MiB
    a rank runs them (the dense points alone would not fit, and the same file with a method that
    needs dense points is refused with the key and the fix), the peak resident size stays below
    the dense matrix, and the embeddings equal the dense file's bit for bit (the same exact graph,
    the same affinities)."""
    n, d = 2000, 5000
    rng = np.random.default_rng(5)
    y = np.arange(n) % 4
    m = scipy.sparse.random(n, d, density=0.008, format="lil", random_state=4,
                            data_rvs=lambda k: rng.integers(1, 6, k).astype(float))
    for c in range(4):  # each class expresses most of its own 50 genes
        rows = np.flatnonzero(y == c)
        cols = rng.integers(c * 50, (c + 1) * 50, size=(len(rows), 30))
        for r, cs in zip(rows, cols):
            m[r, cs] = 4.0
        # Every 10th cell also expresses the next class's genes (a doublet): the neighbour graph
        # stays connected, so UMAP starts from its spectrum, which depends on the graph alone.
        for r in rows[::10]:
            m[r, rng.integers(((c + 1) % 4) * 50, ((c + 1) % 4 + 1) * 50, size=30)] = 4.0
    m = m.tocsr()
    X = m.toarray()
    names = np.array(["a", "b", "c", "d"])[y]
    write_h5ad(tmp_path / "big.h5ad", X, names, sparse="csr")
    with h5py.File(tmp_path / "dense.h5", "w") as f:
        f["X"], f["y"] = X, y.astype(np.int32)

    p, out = run_graph(tmp_path, "sparse", "path: big.h5ad\nlabels: cell_type", "64M")
    assert p.returncode == 0, p.stderr
    E = embeddings(out)
    with h5py.File(out, "r") as f:
        peaks = f["tasks"]["peak_rss_bytes"][()]
        err = f["tasks"]["knn_error"][()]
        assert f["tasks"]["input_dim"][()].tolist() == [d, d]
        notes = [s.decode() if isinstance(s, bytes) else s
                 for t in f["traces"] for s in f["traces"][t].attrs["notes"]]
    assert notes.count("neighbour_graph=exact (sparse points)") == 2, notes
    assert "init=spectral" in notes, notes
    # 0 where the kernel cannot reset the peak.
    assert all(p == 0 or p < 8 * n * d for p in peaks), peaks
    assert np.isfinite(err).all() and err.max() < 0.2, err

    # The dense file does not fit at 64 MiB; with room, the same embedding.
    p, _ = run_graph(tmp_path, "dense_small", "path: dense.h5", "64M")
    assert p.returncode != 0
    p, dense = run_graph(tmp_path, "dense", "path: dense.h5", "2G")
    assert p.returncode == 0, p.stderr
    E0 = embeddings(dense)
    assert E.keys() == E0.keys() == {0, 1}
    for t in E:
        np.testing.assert_array_equal(E[t], E0[t], err_msg=f"task {t}")

    # A method that needs dense points on the same sparse file: refused before anything runs,
    # naming the dataset's key, the method and the fixes.
    p, out = run_graph(tmp_path, "lle", "path: big.h5ad\nlabels: cell_type", "64M",
                       "  - {method: laplacian_eigenmaps, label: LE, dims: [2]}\n")
    assert p.returncode != 0
    for w in ["'datasets[0].preprocess'", "LE (methods[2], laplacian_eigenmaps) gets dense points",
              "add preprocessing: [pca(components=50)]", "methods that read sparse points (",
              "tsne", "umap", "protocol: transductive"]:
        assert w in p.stderr, p.stderr
    assert not out.exists()
