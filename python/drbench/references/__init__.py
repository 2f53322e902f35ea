"""The field's reference implementations as ready external methods (docs/external-methods.md,
"Reference implementations").

Each reference is a drbench external method run as ``python3 -m drbench.references NAME IN OUT``:
openTSNE (FFT and Barnes-Hut t-SNE), umap-learn, scikit-learn's Isomap, LLE, SpectralEmbedding,
MDS, TSNE, KernelPCA and FastICA, PaCMAP and TriMap. Every one

- sets its own thread count from the task (drbench's per-method ``threads:``): ``n_jobs`` where the
  library has one, numba's thread count for the numba packages, and the BLAS/OpenMP pools through
  threadpoolctl, so a library never falls back silently to whatever the environment exported;
- forwards the task's seed as the library's ``random_state`` (TriMap has none: numpy's and numba's
  generators are seeded);
- declares whether it maps new points (``out_of_sample``) and its parameter schema (``params``),
  which ``python3 -m drbench.references --yaml NAME`` prints as a config entry.

The packages that Debian does not ship (openTSNE, umap-learn, pacmap, trimap) are looked up first
in ``$DRBENCH_REFERENCES`` (default: ``build/references`` of this checkout), where
``scripts/get_references.sh`` puts them, then on the ordinary ``sys.path``.
"""

import importlib
import os
import sys
import types

import numpy as np

from drbench.external import method

__all__ = ["REFERENCES", "Reference", "available", "config_entry", "search_path"]

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))
# Folder of each package's source tree inside $DRBENCH_REFERENCES (importable from there).
_SOURCE_DIRS = ["openTSNE", "umap", os.path.join("PaCMAP", "source"), "trimap"]


def search_path():
    """The folder that scripts/get_references.sh fills: $DRBENCH_REFERENCES or build/references."""
    return os.environ.get("DRBENCH_REFERENCES") or os.path.join(_REPO, "build", "references")


def _add_search_path():
    root = search_path()
    for sub in reversed(_SOURCE_DIRS):
        d = os.path.join(root, sub)
        if os.path.isdir(d) and d not in sys.path:
            sys.path.insert(0, d)


_add_search_path()


class Reference:
    """One reference method: its package, schema, whether it maps new points, and its runner."""

    def __init__(self, name, package, label, out_of_sample, params, run, cost=None, doc=""):
        self.name = name
        self.package = package          # the module whose import decides availability
        self.label = label              # the suggested table row
        self.out_of_sample = out_of_sample
        self.params = params            # {name: {type, default, min, max, choices, doc}}
        self.cost = cost or {"n": 2, "d": 1}
        self.doc = doc

        def traced(task):
            out = run(task)
            # The package and version that ran, as the trace's optimiser name.
            self.method.optimizer = getattr(run, "optimizer", None)
            return out
        self.method = method(traced)


def _int(default, lo, hi, doc):
    return {"type": "int", "default": default, "min": lo, "max": hi, "doc": doc}


def _real(default, lo, hi, doc):
    spec = {"type": "real", "default": default, "min": lo, "doc": doc}
    if hi is not None:
        spec["max"] = hi
    return spec


def _choice(default, choices, doc):
    return {"type": "choice", "default": default, "choices": list(choices), "doc": doc}


def _bool(default, doc):
    return {"type": "bool", "default": default, "doc": doc}


def _limits(task):
    """Every BLAS/OpenMP pool of the process held at the task's thread count."""
    from threadpoolctl import threadpool_limits
    return threadpool_limits(limits=task.threads)


def _numba_threads(task):
    import numba
    numba.set_num_threads(min(task.threads, numba.config.NUMBA_NUM_THREADS))


def _version(module):
    return getattr(module, "__version__", "unknown version")


def _fit_map(task, est, name, fit_args=None):
    """fit_transform on the training points, transform on the test points, under the limits."""
    with _limits(task):
        Z_train = est.fit_transform(task.X_train, **(fit_args or {}))
        Z_test = est.transform(task.X_test) if task.X_test is not None else None
    return Z_train, Z_test


# --- openTSNE ---------------------------------------------------------------------------------

_TSNE_PARAMS = {
    "perplexity": _real(30.0, 1.0, None, "effective number of neighbours"),
    "early_exaggeration": _real(12.0, 1.0, None, "exaggeration of the first phase"),
    "exaggeration_iterations": _int(250, 0, 100000, "iterations of the first phase"),
    "iterations": _int(750, 1, 100000, "all iterations, both phases"),
    "learning_rate": _real(0.0, 0.0, None, "0: openTSNE's auto, n / early_exaggeration"),
    "initialization": _choice("pca", ["pca", "spectral", "random"], "the start"),
    "neighbors": _choice("auto", ["auto", "exact", "annoy", "pynndescent"], "kNN search"),
}


def _opentsne(gradient):
    def run(task):
        import openTSNE
        p = task.params
        early = min(p["exaggeration_iterations"], p["iterations"])
        extra = {"theta": p["theta"]} if gradient == "bh" else {}
        tsne = openTSNE.TSNE(
            n_components=task.dim, perplexity=p["perplexity"],
            learning_rate=p["learning_rate"] or "auto",
            early_exaggeration=p["early_exaggeration"], early_exaggeration_iter=early,
            n_iter=p["iterations"] - early, initialization=p["initialization"],
            neighbors=p["neighbors"], negative_gradient_method=gradient, n_jobs=task.threads,
            random_state=task.seed, verbose=False, **extra)
        with _limits(task):
            emb = tsne.fit(task.X_train)
            Z_test = emb.transform(task.X_test) if task.X_test is not None else None
        run.optimizer = f"openTSNE {_version(openTSNE)} {gradient}"
        return np.asarray(emb), (np.asarray(Z_test) if Z_test is not None else None)
    return run


# --- umap-learn -------------------------------------------------------------------------------

def _umap(task):
    _numba_threads(task)
    import umap
    p = task.params
    est = umap.UMAP(n_components=task.dim, n_neighbors=p["neighbours"], min_dist=p["min_dist"],
                    n_epochs=p["epochs"] or None, init=p["init"], random_state=task.seed,
                    n_jobs=task.threads, low_memory=True)
    _umap.optimizer = f"umap-learn {_version(umap)}"
    return _fit_map(task, est, "umap")


# --- scikit-learn -----------------------------------------------------------------------------

def _sk(build):
    """A scikit-learn estimator built by build(task, sklearn_module) with n_jobs/random_state."""
    def run(task):
        import sklearn
        est = build(task)
        params = est.get_params(deep=False)
        if "n_jobs" in params:
            est.set_params(n_jobs=task.threads)
        if "random_state" in params:
            est.set_params(random_state=task.seed)
        run.optimizer = f"scikit-learn {sklearn.__version__} {type(est).__name__}"
        with _limits(task):
            Z_train = est.fit_transform(task.X_train)
            if task.X_test is None:
                return Z_train, None
            return Z_train, est.transform(task.X_test)
    return run


def _isomap(task):
    from sklearn.manifold import Isomap
    return Isomap(n_components=task.dim, n_neighbors=task.params["neighbours"],
                  path_method=task.params["path_method"])


def _lle(task):
    from sklearn.manifold import LocallyLinearEmbedding
    p = task.params
    return LocallyLinearEmbedding(n_components=task.dim, n_neighbors=p["neighbours"],
                                  reg=p["reg"], method=p["variant"])


def _spectral(task):
    from sklearn.manifold import SpectralEmbedding
    return SpectralEmbedding(n_components=task.dim, affinity="nearest_neighbors",
                             n_neighbors=task.params["neighbours"])


def _mds(task):
    from sklearn.manifold import MDS
    p = task.params
    return MDS(n_components=task.dim, metric=p["metric"], n_init=p["inits"],
               max_iter=p["iterations"])


def _sktsne(task):
    from sklearn.manifold import TSNE
    p = task.params
    return TSNE(n_components=task.dim, perplexity=p["perplexity"], method=p["gradient"],
                n_iter=p["iterations"], learning_rate=p["learning_rate"] or "auto",
                init=p["init"], angle=p["theta"])


def _kpca(task):
    from sklearn.decomposition import KernelPCA
    p = task.params
    return KernelPCA(n_components=task.dim, kernel=p["kernel"], gamma=p["gamma"] or None,
                     degree=p["degree"])


def _fastica(task):
    from sklearn.decomposition import FastICA
    p = task.params
    return FastICA(n_components=task.dim, algorithm=p["algorithm"], fun=p["fun"],
                   whiten="unit-variance", max_iter=p["iterations"])


# --- PaCMAP and TriMap --------------------------------------------------------------------------

def _exact_knn(X, k, threads):
    """k nearest neighbours of every point, itself first, by an exact search."""
    from sklearn.neighbors import NearestNeighbors
    nn = NearestNeighbors(n_neighbors=k, n_jobs=threads).fit(X)
    dist, idx = nn.kneighbors(X)
    return idx, dist


class _ExactAnnoyIndex:
    """The part of annoy.AnnoyIndex that TriMap uses, answered by an exact search: Debian has no
    annoy, and the exact neighbours are what Annoy's 20 trees approximate."""

    def __init__(self, dim, metric="euclidean"):
        if metric != "euclidean":
            raise ImportError(f"annoy is not installed; the exact stand-in of drbench.references "
                              f"has the euclidean metric only, not {metric!r}")
        self._rows, self._X, self._nbrs = {}, None, {}

    def add_item(self, i, v):
        self._rows[i] = np.asarray(v, dtype=np.float32)

    def build(self, n_trees, n_jobs=-1):
        self._X = np.vstack([self._rows[i] for i in range(len(self._rows))])

    def get_nns_by_item(self, i, n, search_k=-1, include_distances=False):
        if n not in self._nbrs:
            self._nbrs[n] = _exact_knn(self._X, n, _ExactAnnoyIndex.threads)[0]
        return list(self._nbrs[n][i])

    def get_distance(self, i, j):
        return float(np.sqrt(np.sum((self._X[i] - self._X[j]) ** 2)))


_ExactAnnoyIndex.threads = 1


class _ExactFaissIndex:
    """The part of faiss.IndexHNSWFlat (METRIC_L2) that PaCMAP uses, answered by an exact search
    (squared distances, the point itself first, as faiss returns them)."""

    def __init__(self, dim, links, metric):
        if metric != "L2":
            raise ImportError("faiss is not installed; the exact stand-in of drbench.references "
                              "has the euclidean metric only")
        self._X = None

    def add(self, X):
        self._X = np.asarray(X, dtype=np.float32)

    def search(self, Q, k):
        from sklearn.neighbors import NearestNeighbors
        nn = NearestNeighbors(n_neighbors=k, n_jobs=_ExactAnnoyIndex.threads).fit(self._X)
        dist, idx = nn.kneighbors(np.asarray(Q, dtype=np.float32))
        return (dist ** 2).astype(np.float32), idx


def _exact_backend(name):
    """A module named like the missing backend, whose index is the exact stand-in above."""
    mod = types.ModuleType(name)
    mod.__doc__ = f"drbench.references' exact-kNN stand-in for {name} (not installed)"
    mod.EXACT_STAND_IN = True
    if name == "annoy":
        mod.AnnoyIndex = _ExactAnnoyIndex
    else:
        mod.IndexHNSWFlat = _ExactFaissIndex
        mod.Index = _ExactFaissIndex
        mod.METRIC_L2, mod.METRIC_INNER_PRODUCT, mod.METRIC_L1 = "L2", "IP", "L1"
        mod.omp_set_num_threads = lambda k: None
        mod.normalize_L2 = lambda X: None
    return mod


def _import_without(package, backend):
    """Import package; where its kNN backend is missing, with the exact stand-in in its place."""
    try:
        return importlib.import_module(package)
    except ImportError as e:
        if getattr(e, "name", None) != backend:
            raise
    sys.modules[backend] = _exact_backend(backend)
    return importlib.import_module(package)


def _seed_numba(seed):
    import numba

    @numba.njit
    def seed_numba(s):
        np.random.seed(s)
    seed_numba(seed)


def _knn_note(backend):
    """How the package's kNN was found, for the trace's optimiser name."""
    mod = sys.modules.get(backend)
    return " (exact kNN in place of " + backend + ")" if getattr(mod, "EXACT_STAND_IN", 0) else ""


def _pacmap(task):
    _numba_threads(task)
    _ExactAnnoyIndex.threads = task.threads
    pacmap = _import_without("pacmap", "faiss")
    p = task.params
    est = pacmap.PaCMAP(n_components=task.dim, n_neighbors=p["neighbours"],
                        MN_ratio=p["mn_ratio"], FP_ratio=p["fp_ratio"], num_iters=p["iterations"],
                        random_state=task.seed, apply_pca=True)
    _pacmap.optimizer = f"pacmap {_version(pacmap)}{_knn_note('faiss')}"
    with _limits(task):
        return est.fit_transform(np.array(task.X_train, dtype=np.float32), init="pca"), None


def _trimap(task):
    _numba_threads(task)
    _ExactAnnoyIndex.threads = task.threads
    trimap = _import_without("trimap", "annoy")
    np.random.seed(task.seed)  # TriMap has no random_state: both generators it draws from
    _seed_numba(task.seed)
    p = task.params
    est = trimap.TRIMAP(n_dims=task.dim, n_inliers=p["inliers"], n_outliers=p["outliers"],
                        n_random=p["random"], lr=p["learning_rate"], n_iters=p["iterations"],
                        verbose=False)
    _trimap.optimizer = f"trimap {_version(trimap)}{_knn_note('annoy')}"
    with _limits(task):
        return est.fit_transform(np.array(task.X_train, dtype=np.float32)), None


REFERENCES = {r.name: r for r in [
    Reference("opentsne_fft", "openTSNE", "openTSNE (FFT)", True,
              dict(_TSNE_PARAMS), _opentsne("fft"), {"n": 1, "d": 1},
              "openTSNE's t-SNE with the FFT-interpolated repulsion (Linderman et al. 2019); "
              "new points by openTSNE's transform"),
    Reference("opentsne_bh", "openTSNE", "openTSNE (BH)", True,
              dict(_TSNE_PARAMS, theta=_real(0.5, 0.0, 1.0, "Barnes-Hut opening angle")),
              _opentsne("bh"), {"n": 1.2, "d": 1}, "openTSNE's Barnes-Hut t-SNE"),
    Reference("umap", "umap", "umap-learn", True, {
        "neighbours": _int(15, 2, 1000, "kNN graph size"),
        "min_dist": _real(0.1, 0.0, None, "minimum distance in the embedding"),
        "epochs": _int(0, 0, 100000, "0: the package's own (500 below 10,000 points, else 200)"),
        "init": _choice("spectral", ["spectral", "pca", "random"], "the start")},
        _umap, {"n": 1.1, "d": 1}, "umap-learn's UMAP; new points by its transform"),
    Reference("sklearn_isomap", "sklearn", "sklearn Isomap", True, {
        "neighbours": _int(10, 1, 1000, "kNN graph size"),
        "path_method": _choice("auto", ["auto", "FW", "D"], "shortest paths")},
        _sk(_isomap), {"n": 2, "d": 1}, "scikit-learn's Isomap; new points by its transform"),
    Reference("sklearn_lle", "sklearn", "sklearn LLE", True, {
        "neighbours": _int(10, 2, 1000, "kNN graph size"),
        "reg": _real(0.001, 0.0, None, "regularisation of the local Gram matrices"),
        "variant": _choice("standard", ["standard", "modified", "hessian", "ltsa"], "method")},
        _sk(_lle), {"n": 1.5, "d": 1}, "scikit-learn's LLE; new points by its transform"),
    Reference("sklearn_spectral", "sklearn", "sklearn SpectralEmbedding", False, {
        "neighbours": _int(10, 1, 1000, "kNN graph size")},
        _sk(_spectral), {"n": 1.5, "d": 1},
        "scikit-learn's Laplacian eigenmaps (normalised Laplacian of the kNN graph); "
        "transductive"),
    Reference("sklearn_mds", "sklearn", "sklearn MDS", False, {
        "metric": _bool(True, "metric SMACOF (false: non-metric)"),
        "inits": _int(4, 1, 100, "SMACOF starts, the best kept"),
        "iterations": _int(300, 1, 100000, "SMACOF iterations per start")},
        _sk(_mds), {"n": 2, "d": 1}, "scikit-learn's SMACOF MDS; transductive"),
    Reference("sklearn_tsne", "sklearn", "sklearn t-SNE", False, {
        "perplexity": _real(30.0, 1.0, None, "effective number of neighbours"),
        "gradient": _choice("barnes_hut", ["barnes_hut", "exact"], "gradient"),
        "iterations": _int(1000, 250, 100000, "all iterations"),
        "learning_rate": _real(0.0, 0.0, None, "0: the package's auto"),
        "init": _choice("pca", ["pca", "random"], "the start"),
        "theta": _real(0.5, 0.0, 1.0, "Barnes-Hut opening angle")},
        _sk(_sktsne), {"n": 1.2, "d": 1}, "scikit-learn's t-SNE; transductive"),
    Reference("sklearn_kpca", "sklearn", "sklearn KernelPCA", True, {
        "kernel": _choice("rbf", ["rbf", "poly", "linear", "cosine", "sigmoid"], "kernel"),
        "gamma": _real(0.0, 0.0, None, "kernel width parameter (0: the package's 1/d)"),
        "degree": _int(3, 1, 20, "poly degree")},
        _sk(_kpca), {"n": 2, "d": 1}, "scikit-learn's kernel PCA; new points by its transform"),
    Reference("sklearn_fastica", "sklearn", "sklearn FastICA", True, {
        "algorithm": _choice("parallel", ["parallel", "deflation"], "FastICA variant"),
        "fun": _choice("logcosh", ["logcosh", "exp", "cube"], "contrast function"),
        "iterations": _int(200, 1, 100000, "maximum iterations")},
        _sk(_fastica), {"n": 1, "d": 2}, "scikit-learn's FastICA; new points by its transform"),
    Reference("pacmap", "pacmap", "PaCMAP (package)", False, {
        "neighbours": _int(10, 2, 1000, "near pairs per point"),
        "mn_ratio": _real(0.5, 0.0, None, "mid-near pairs per near pair"),
        "fp_ratio": _real(2.0, 0.0, None, "far pairs per near pair"),
        "iterations": _int(450, 1, 100000, "iterations")},
        _pacmap, {"n": 1, "d": 1}, "the authors' PaCMAP; transductive here"),
    Reference("trimap", "trimap", "TriMap (package)", False, {
        "inliers": _int(12, 1, 1000, "near neighbours per point"),
        "outliers": _int(4, 1, 1000, "outliers per inlier"),
        "random": _int(3, 0, 1000, "random triplets per point"),
        "learning_rate": _real(0.1, 0.0, None, "the package's step (lr)"),
        "iterations": _int(400, 1, 100000, "iterations")},
        _trimap, {"n": 1, "d": 1}, "the authors' TriMap; transductive"),
]}


def available(name):
    """(True, version) when the reference's package imports, else (False, the reason)."""
    ref = REFERENCES[name]
    try:
        if ref.package == "trimap":
            mod = _import_without("trimap", "annoy")
        elif ref.package == "pacmap":
            mod = _import_without("pacmap", "faiss")
        else:
            mod = importlib.import_module(ref.package)
    except Exception as e:  # noqa: BLE001 -- any failure to import means "not available"
        return False, f"{ref.package} does not import ({type(e).__name__}: {e}); " \
                      f"scripts/get_references.sh builds it into {search_path()}"
    return True, _version(mod)


def _yaml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return "[" + ", ".join(_yaml_value(x) for x in v) + "]"
    return repr(v)


def config_entry(name, label=None, python="/usr/bin/python3"):
    """The config entry (YAML text) that runs the reference `name` as an external method."""
    ref = REFERENCES[name]
    lines = ["  - method: external", f"    label: {label or ref.label}",
             f"    command: [{python}, -m, drbench.references, {name}]",
             f"    out_of_sample: {_yaml_value(ref.out_of_sample)}", "    params:"]
    for pname, spec in ref.params.items():
        body = ", ".join(f"{k}: {_yaml_value(v) if k != 'doc' else repr(v)}"
                         for k, v in spec.items())
        lines.append(f"      {pname}: {{{body}}}")
    lines.append("    cost: {" + ", ".join(f"{k}: {v}" for k, v in ref.cost.items()) + "}")
    return "\n".join(lines) + "\n"
