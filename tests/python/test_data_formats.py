"""The readers of the field's formats, each from files written by the format's own tools (numpy,
scipy.io for .mat v5/v7 and .mtx, h5py for the MATLAB v7.3 and AnnData .h5ad layouts, gzip), run
through `drbench run` on a tiny config; every format of the same points and classes gives the same
kNN errors (the same partitions), and bad files are refused with the key and the fix, leaving no
results file behind."""
import gzip
import os
import subprocess

import h5py
import numpy as np
import pytest
import scipy.io
import scipy.sparse

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("DRBENCH_BIN", os.path.join(ROOT, "build", "drbench"))

N_PER, D = 12, 6
NAMES = np.array(["b_cell", "monocyte", "t_cell"])


def points():
    """36 points of 3 classes in 6-D, sparse (half the entries zero), labels 0..2."""
    rng = np.random.default_rng(5)
    y = np.repeat(np.arange(3), N_PER)
    X = rng.normal(size=(3 * N_PER, D)) + 2.0 * y[:, None]
    X[rng.random(X.shape) < 0.5] = 0.0
    return X, y


CONFIG = """
name: formats
seed: 3
datasets:
  - name: toy
{entry}
splits:
  train_ratio: [0.5]
  repeats: 3
methods:
  - {{method: pca, label: PCA, dims: [2]}}
evaluation:
  knn: [1]
output:
  path: {out}
"""


def run(tmp_path, entry, name="r"):
    """`drbench run` on a config whose dataset entry is `entry` (YAML lines under `- name: toy`)."""
    out = tmp_path / (name + ".h5")
    cfg = tmp_path / (name + ".yaml")
    body = "\n".join("    " + line for line in entry.strip().splitlines())
    cfg.write_text(CONFIG.format(entry=body, out=out))
    p = subprocess.run([BIN, "run", str(cfg), "--memory-per-rank", "2G"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    return p, out


def errors(out):
    """The per-task 1-NN errors of a results file, in task order."""
    with h5py.File(out, "r") as f:
        found = []
        f.visititems(lambda name, obj: found.append(name)
                     if isinstance(obj, h5py.Dataset) and name.endswith("knn_error") else None)
        assert found, "no knn_error in " + str(out)
        return np.concatenate([np.asarray(f[n]).ravel() for n in sorted(found)])


def ok(tmp_path, entry, name):
    p, out = run(tmp_path, entry, name)
    assert p.returncode == 0, p.stderr
    return errors(out)


def refused(tmp_path, entry, *words):
    p, out = run(tmp_path, entry, "bad")
    assert p.returncode != 0, "accepted:\n" + p.stdout
    for w in words:
        assert w in p.stderr, f"{w!r} not in:\n{p.stderr}"
    assert "fix:" in p.stderr
    assert not out.exists(), "a refused run left a results file"
    return p.stderr


@pytest.fixture
def reference(tmp_path):
    """The 1-NN errors of the points as a plain CSV, labels 0..2."""
    X, y = points()
    np.savetxt(tmp_path / "toy.csv", np.column_stack([X, y]), delimiter=",", fmt="%.17g")
    return ok(tmp_path, "path: toy.csv", "csv")


def write_mat73(path, **arrays):
    """MATLAB's v7.3 layout: an HDF5 file behind a 512-byte header; each variable stored
    transposed (MATLAB is column-major), with its MATLAB_class a null-terminated string."""
    cls = h5py.h5t.C_S1.copy()
    cls.set_size(6)
    cls.set_strpad(h5py.h5t.STR_NULLTERM)
    with h5py.File(path, "w", userblock_size=512) as f:
        for k, v in arrays.items():
            f[k] = np.ascontiguousarray(v.T)
            # Written byte for byte (as MATLAB and matio do): a conversion would make room for a
            # terminator and store "doubl".
            a = h5py.h5a.create(f[k].id, b"MATLAB_class", cls, h5py.h5s.create(h5py.h5s.SCALAR))
            a.write(np.array(b"double", dtype="S6"), mtype=cls)
    head = b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Sun Nov 29 00:00:00 2026 HDF5 schema 1.00 ."
    head = head.ljust(116, b" ") + b"\0" * 8 + b"\x00\x02IM"
    with open(path, "r+b") as f:
        f.write(head)


def write_h5ad(path, X, labels, sparse=None, obsm=None, compression=None):
    """AnnData's on-disk layout (anndata >= 0.8) written with h5py: X dense or a csr/csc group,
    obs with a categorical column (codes + categories), obsm."""
    with h5py.File(path, "w") as f:
        f.attrs["encoding-type"] = "anndata"
        f.attrs["encoding-version"] = "0.1.0"
        if sparse:
            m = scipy.sparse.csr_matrix(X) if sparse == "csr" else scipy.sparse.csc_matrix(X)
            g = f.create_group("X")
            g.attrs["encoding-type"] = sparse + "_matrix"
            g.attrs["encoding-version"] = "0.1.0"
            g.attrs["shape"] = np.array(X.shape, dtype=np.int64)
            g["data"], g["indices"], g["indptr"] = m.data, m.indices, m.indptr
        else:
            f.create_dataset("X", data=X, compression=compression)
        obs = f.create_group("obs")
        obs.attrs["encoding-type"] = "dataframe"
        obs.attrs["_index"] = "_index"
        obs.attrs["column-order"] = np.array(["cell_type"], dtype=h5py.string_dtype())
        obs["_index"] = np.array([f"cell{i}" for i in range(len(X))], dtype=h5py.string_dtype())
        cats, codes = np.unique(labels, return_inverse=True)
        c = obs.create_group("cell_type")
        c.attrs["encoding-type"] = "categorical"
        c.attrs["ordered"] = False
        c["codes"] = codes.astype(np.int8)
        c["categories"] = np.array(list(cats), dtype=h5py.string_dtype())
        if obsm is not None:
            f.create_group("obsm")["X_pca"] = obsm


# ---- each format runs from a config and gives the CSV's errors --------------------------------

def test_npz_plain_compressed_fortran(tmp_path, reference):
    X, y = points()
    np.savez(tmp_path / "a.npz", X=X, y=y)
    assert np.array_equal(ok(tmp_path, "path: a.npz", "a"), reference)
    # float32 would change the points; Fortran order and deflate must not.
    np.savez_compressed(tmp_path / "b.npz", data=np.asfortranarray(X), target=y.astype(np.uint8))
    assert np.array_equal(
        ok(tmp_path, "path: b.npz\nvariables: {X: data, y: target}", "b"), reference)


def test_npy_with_labels_file_of_names(tmp_path, reference):
    X, y = points()
    np.save(tmp_path / "x.npy", X)
    (tmp_path / "labels.txt").write_text("\n".join(NAMES[y]) + "\n")
    assert np.array_equal(ok(tmp_path, "path: x.npy\nlabels_path: labels.txt", "n"), reference)


def test_mat_v5_v7_v73_one_based_labels(tmp_path, reference):
    X, y = points()
    # Deng Cai's files: fea (n x d) and gnd (n x 1), labels 1..C: same classes, same partitions.
    scipy.io.savemat(tmp_path / "v5.mat", {"fea": X, "gnd": (y + 1).reshape(-1, 1).astype(float)})
    scipy.io.savemat(tmp_path / "v7.mat", {"fea": X, "gnd": (y + 1).reshape(-1, 1)},
                     do_compression=True)
    write_mat73(tmp_path / "v73.mat", fea=X, gnd=(y + 1.0).reshape(-1, 1))
    for v in ("v5", "v7", "v73"):
        e = ok(tmp_path, f"path: {v}.mat\nvariables: {{X: fea, y: gnd}}", v)
        assert np.array_equal(e, reference), v
    # A sparse fea (20 Newsgroups, TDT2 as Deng Cai ships them) is densified.
    scipy.io.savemat(tmp_path / "sp.mat", {"fea": scipy.sparse.csc_matrix(X),
                                            "gnd": (y + 1).reshape(-1, 1)})
    assert np.array_equal(ok(tmp_path, "path: sp.mat\nvariables: {X: fea, y: gnd}", "sp"),
                          reference)


def test_h5ad_dense_csr_csc_obsm(tmp_path, reference):
    X, y = points()
    for kind in (None, "csr", "csc"):
        write_h5ad(tmp_path / f"{kind}.h5ad", X, NAMES[y], sparse=kind)
        e = ok(tmp_path, f"path: {kind}.h5ad\nlabels: cell_type", str(kind))
        assert np.array_equal(e, reference), kind
    # An embedding as input: obsm/X_pca holds the points.
    write_h5ad(tmp_path / "e.h5ad", np.zeros((len(y), 2)), NAMES[y], obsm=X)
    assert np.array_equal(ok(tmp_path, "path: e.h5ad\nlabels: cell_type\nmatrix: obsm/X_pca",
                             "e"), reference)


def test_mtx_and_csv_gz(tmp_path, reference):
    X, y = points()
    scipy.io.mmwrite(str(tmp_path / "m.mtx"), scipy.sparse.coo_matrix(X))
    np.savetxt(tmp_path / "y.txt", y + 1, fmt="%d")
    assert np.array_equal(ok(tmp_path, "path: m.mtx\nlabels_path: y.txt", "m"), reference)
    scipy.io.mmwrite(str(tmp_path / "d.mtx"), X)  # dense: the array format
    assert np.array_equal(ok(tmp_path, "path: d.mtx\nlabels_path: y.txt", "d"), reference)
    with gzip.open(tmp_path / "t.csv.gz", "wt") as f:
        np.savetxt(f, np.column_stack([X, y]), delimiter=",", fmt="%.17g")
    assert np.array_equal(ok(tmp_path, "path: t.csv.gz", "gz"), reference)


# ---- bad files are refused with the key and the fix -------------------------------------------

def test_npz_npy_refusals(tmp_path):
    X, y = points()
    np.savez(tmp_path / "noy.npz", X=X, labels=y)
    refused(tmp_path, "path: noy.npz", "no array 'y'", "labels", "variables: {y: NAME}")
    np.savez(tmp_path / "short.npz", X=X, y=y[:-1])
    refused(tmp_path, "path: short.npz", "35 labels for 36 points")
    Xn = X.copy()
    Xn[4, 2] = np.nan
    np.savez(tmp_path / "nan.npz", X=Xn, y=y)
    refused(tmp_path, "path: nan.npz", "NaN at point 4, feature 2")
    np.savez(tmp_path / "cplx.npz", X=X.astype(np.complex128), y=y)
    refused(tmp_path, "path: cplx.npz", "dtype '<c16' is not supported")
    np.savez(tmp_path / "nanlab.npz", X=X, y=np.where(y == 1, np.nan, y))
    refused(tmp_path, "path: nanlab.npz", "is NaN, not an integer")
    raw = (tmp_path / "short.npz").read_bytes()
    np.savez_compressed(tmp_path / "c.npz", X=X, y=y)
    (tmp_path / "cut.npz").write_bytes((tmp_path / "c.npz").read_bytes()[:len(raw) // 3])
    refused(tmp_path, "path: cut.npz", "not a complete zip archive")
    np.save(tmp_path / "x.npy", X)
    (tmp_path / "cut.npy").write_bytes((tmp_path / "x.npy").read_bytes()[:1000])
    (tmp_path / "y.txt").write_text("\n".join(map(str, y)))
    refused(tmp_path, "path: cut.npy\nlabels_path: y.txt", "elements its header promises")
    refused(tmp_path, "path: x.npy", "labels_path")
    # Damaged headers: a shape past 64 bits, and one whose element count overflows.
    for shape, words in (("(99999999999999999999999, 6)", "shape '"),
                         ("(1099511627776, 1099511627776)", "impossible shape")):
        hdr = "{'descr': '<f8', 'fortran_order': False, 'shape': %s, }" % shape
        hdr = hdr.ljust(117) + "\n"  # the data start 128 bytes in, as numpy aligns them
        (tmp_path / "bad.npy").write_bytes(b"\x93NUMPY\x01\x00" + len(hdr).to_bytes(2, "little")
                                           + hdr.encode() + b"\0" * 64)
        refused(tmp_path, "path: bad.npy\nlabels_path: y.txt", words)
    refused(tmp_path, "path: x.npy\nlabels_path: nothere.txt", "nothere.txt", "labels_path")
    refused(tmp_path, "path: x.npy\nlabels: cell_type", "'labels' does not apply")


def test_mat_refusals(tmp_path):
    X, y = points()
    scipy.io.savemat(tmp_path / "a.mat", {"fea": X, "gnd": y.reshape(-1, 1)})
    refused(tmp_path, "path: a.mat", "no variable 'X'", "fea, gnd", "variables")
    scipy.io.savemat(tmp_path / "t.mat", {"fea": X.T, "gnd": y.reshape(-1, 1)})
    refused(tmp_path, "path: t.mat\nvariables: {X: fea, y: gnd}", "transpose")
    scipy.io.savemat(tmp_path / "c.mat", {"fea": {"a": 1}, "gnd": y.reshape(-1, 1)})
    refused(tmp_path, "path: c.mat\nvariables: {X: fea, y: gnd}", "struct", "numeric")
    raw = (tmp_path / "a.mat").read_bytes()
    (tmp_path / "cut.mat").write_bytes(raw[:len(raw) // 2])
    refused(tmp_path, "path: cut.mat\nvariables: {X: fea, y: gnd}", "cut.mat")
    refused(tmp_path, "path: a.mat\nvariables: {X: fea, z: gnd}", "variables.z")


def test_h5ad_refusals(tmp_path):
    X, y = points()
    write_h5ad(tmp_path / "a.h5ad", X, NAMES[y])
    refused(tmp_path, "path: a.h5ad", "labels", "cell_type")
    refused(tmp_path, "path: a.h5ad\nlabels: celltype", "no obs column 'celltype'", "cell_type")
    refused(tmp_path, "path: a.h5ad\nlabels: cell_type\nmatrix: obsm/X_umap", "obsm/X_umap")
    # LZF is h5py's own filter, which libhdf5 does not carry.
    write_h5ad(tmp_path / "lzf.h5ad", X, NAMES[y], compression="lzf")
    refused(tmp_path, "path: lzf.h5ad\nlabels: cell_type", "compression filter", "gzip")
    # A shape that its arrays do not fill is refused as damaged, before the matrix is made (a
    # sparse matrix is kept sparse: tests/python/test_sparse_input.py).
    write_h5ad(tmp_path / "big.h5ad", X, NAMES[y], sparse="csr")
    with h5py.File(tmp_path / "big.h5ad", "r+") as f:
        f["X"].attrs["shape"] = np.array([10**7, 10**7], dtype=np.int64)
    refused(tmp_path, "path: big.h5ad\nlabels: cell_type", "damaged CSR matrix",
            "indptr must hold 10000001")
    raw = (tmp_path / "a.h5ad").read_bytes()
    (tmp_path / "cut.h5ad").write_bytes(raw[:len(raw) // 2])
    refused(tmp_path, "path: cut.h5ad\nlabels: cell_type", "cut.h5ad")


def test_mtx_csv_gz_refusals(tmp_path):
    X, y = points()
    scipy.io.mmwrite(str(tmp_path / "m.mtx"), scipy.sparse.coo_matrix(X))
    refused(tmp_path, "path: m.mtx", "labels_path")
    (tmp_path / "y.txt").write_text("\n".join(map(str, y)))
    (tmp_path / "yt.txt").write_text("\n".join(map(str, range(D))))
    # 10x writes genes x cells: labels that match the columns name the transposition.
    scipy.io.mmwrite(str(tmp_path / "t.mtx"), scipy.sparse.coo_matrix(X.T))
    refused(tmp_path, "path: t.mtx\nlabels_path: y.txt", "transpose")
    text = (tmp_path / "m.mtx").read_text().splitlines()
    (tmp_path / "cut.mtx").write_text("\n".join(text[:len(text) // 2]) + "\n")
    refused(tmp_path, "path: cut.mtx\nlabels_path: y.txt", "entries its size line promises")
    lines = (tmp_path / "m.mtx").read_text().splitlines()
    size = next(i for i, ln in enumerate(lines) if not ln.startswith("%"))
    lines[size] = "40000000 30000 100"
    (tmp_path / "big.mtx").write_text("\n".join(lines) + "\n")
    # Kept sparse, so a large size line is read as such (no dense allocation); its labels are
    # then too few.
    refused(tmp_path, "path: big.mtx\nlabels_path: y.txt", "has 36 labels for 40000000 points")
    scipy.io.mmwrite(str(tmp_path / "c.mtx"), scipy.sparse.coo_matrix(X.astype(complex)))
    refused(tmp_path, "path: c.mtx\nlabels_path: y.txt", "complex", "not supported")
    with gzip.open(tmp_path / "t.csv.gz", "wt") as f:
        np.savetxt(f, np.column_stack([X, y]), delimiter=",")
    raw = (tmp_path / "t.csv.gz").read_bytes()
    (tmp_path / "cut.csv.gz").write_bytes(raw[:len(raw) // 2])
    refused(tmp_path, "path: cut.csv.gz", "damaged or truncated")


def test_load_transient_is_counted_by_the_memory_model(tmp_path):
    """An .npz is held three times while read (the file, its values, the matrix): the memory
    model counts that load before any task runs. 40,000 x 50 float64 is 15 MiB a copy; at 80 MiB
    a rank holds the kept points (about 65 MiB with the process and a partition) but not the
    load."""
    rng = np.random.default_rng(0)
    n = 40000
    np.savez(tmp_path / "big.npz", X=rng.normal(size=(n, 50)), y=np.arange(n) % 4)
    cfg = tmp_path / "big.yaml"
    cfg.write_text(CONFIG.format(entry="    path: big.npz", out=tmp_path / "big.h5"))
    p = subprocess.run([BIN, "run", str(cfg), "--memory-per-rank", "80M"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode != 0
    assert "loading dataset toy: 40000 points read in 50-D" in p.stderr, p.stderr
    assert not (tmp_path / "big.h5").exists()
