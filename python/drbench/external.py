"""Write a drbench method in Python: the SDK of `method: external` (docs/external-methods.md).

drbench runs an external method's command once per task as ``COMMAND... INPUT.h5 OUTPUT.h5``.
This module reads the input file, hands your code the task, and writes the output file, so a
method is a few lines::

    from sklearn.manifold import Isomap
    from drbench.external import estimator

    @estimator
    def isomap(task):                 # task.dim, task.seed, task.params, task.threads, ...
        return Isomap(n_components=task.dim, n_neighbors=task.params["neighbours"])

    if __name__ == "__main__":
        isomap.main()

`estimator` takes a function that builds a scikit-learn style estimator (fit + transform, or
fit_transform): the training points are embedded with fit_transform (or fit then transform), the
test points with transform; `random_state` is set to the task's seed when the estimator has one
and the factory left it unset. `method` takes a function ``f(task) -> (Z_train, Z_test)`` for
anything else. Either may log an optimiser trace with ``task.log(objective, ...)``.

``python3 -m drbench.external INPUT.h5 OUTPUT.h5`` runs a small demo method (PCA by SVD, with a
boolean parameter ``center``), which drbench's contract test uses.
"""

import sys
import time

import h5py
import numpy as np

FORMAT = "drbench-external/1"

__all__ = ["Task", "estimator", "method", "read_task", "write_output"]


class Task:
    """One task as drbench hands it over. Test labels never leave drbench."""

    def __init__(self, X_train, y_train, X_test, dim, seed, n_classes, threads, label, dataset,
                 params):
        self.X_train = X_train      # n x d
        self.y_train = y_train      # n int labels 0..C-1, or None for an unsupervised method
        self.X_test = X_test        # m x d, or None (transductive method, or nothing to map)
        self.dim = dim
        self.seed = seed            # 0 <= seed < 2**31: valid as any library's random_state
        self.n_classes = n_classes
        self.threads = threads
        self.label = label
        self.dataset = dataset
        self.params = params        # {name: value} with the declared types, defaults filled in
        self.trace = []             # rows (objective, grad_norm, seconds, step)
        self._t0 = time.monotonic()

    def log(self, objective, grad_norm=float("nan"), seconds=None, step=float("nan")):
        """One optimiser iteration for drbench's trace; seconds default to the time since start."""
        if seconds is None:
            seconds = time.monotonic() - self._t0
        self.trace.append((float(objective), float(grad_norm), float(seconds), float(step)))


def _text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def read_task(path):
    """The Task in drbench's input file."""
    with h5py.File(path, "r") as f:
        fmt = _text(f.attrs.get("format", ""))
        if fmt != FORMAT:
            raise ValueError(f"{path}: format {fmt!r}, this SDK reads {FORMAT!r}")
        names = [_text(n) for n in f.attrs.get("param_names", [])]
        types = [_text(t) for t in f.attrs.get("param_types", [])]
        params = {}
        for name, typ in zip(names, types):
            v = f["params"].attrs[name]
            params[name] = {"bool": lambda x: bool(int(x)), "int": int, "real": float,
                            "choice": _text}[typ](v)
        return Task(
            X_train=f["X_train"][()],
            y_train=f["y_train"][()].astype(np.int64) if "y_train" in f else None,
            X_test=f["X_test"][()] if "X_test" in f else None,
            dim=int(f.attrs["dim"]), seed=int(f.attrs["seed"]),
            n_classes=int(f.attrs["n_classes"]), threads=int(f.attrs["threads"]),
            label=_text(f.attrs["label"]), dataset=_text(f.attrs["dataset"]), params=params)


def write_output(path, Z_train, Z_test=None, trace=(), optimizer=None):
    """drbench's output file: Z_train (n x dim), Z_test (m x dim), the trace rows if any."""
    with h5py.File(path, "w") as f:
        f["Z_train"] = np.asarray(Z_train, dtype=np.float64)
        if Z_test is not None:
            f["Z_test"] = np.asarray(Z_test, dtype=np.float64)
        if len(trace):
            t = np.asarray(trace, dtype=np.float64).reshape(len(trace), 4)
            g = f.create_group("trace")
            for j, name in enumerate(("objective", "grad_norm", "seconds", "step")):
                g[name] = t[:, j]
        if optimizer:
            f.attrs["optimizer"] = optimizer


def _as_2d(Z, rows, what):
    Z = np.asarray(Z, dtype=np.float64)
    if Z.ndim == 1 and Z.shape[0] == rows:
        Z = Z[:, None]
    return Z


def _main(run, argv):
    if len(argv) < 2:
        sys.exit(f"usage: {sys.argv[0]} INPUT.h5 OUTPUT.h5 (drbench appends both)")
    task = read_task(argv[-2])
    Z_train, Z_test = run(task)
    Z_train = _as_2d(Z_train, task.X_train.shape[0], "Z_train")
    if task.X_test is not None:
        Z_test = _as_2d(Z_test, task.X_test.shape[0], "Z_test")
    else:
        Z_test = None
    write_output(argv[-1], Z_train, Z_test, task.trace, getattr(run, "optimizer", None))


class _Method:
    def __init__(self, run, optimizer=None):
        self._run = run
        self.optimizer = optimizer
        self.__doc__ = run.__doc__

    def __call__(self, task):
        return self._run(task)

    def main(self, argv=None):
        """Entry point of the command: reads argv's last two items (input, output)."""
        _main(self, sys.argv[1:] if argv is None else argv)


def method(run=None, *, optimizer=None):
    """Decorator: ``f(task) -> (Z_train, Z_test)`` (Z_test None when task.X_test is None)."""
    if run is None:
        return lambda f: _Method(f, optimizer)
    return _Method(run, optimizer)


def _seeded(est, seed):
    try:
        params = est.get_params(deep=False)
    except AttributeError:
        return est
    if "random_state" in params and params["random_state"] is None:
        est.set_params(random_state=seed)
    return est


def estimator(factory=None, *, supervised_fit=None):
    """Decorator: ``factory(task) -> estimator`` becomes a method. The labels are passed to fit
    when the task has them (a supervised method); ``supervised_fit=False`` never passes them."""
    def wrap(factory):
        def run(task):
            est = _seeded(factory(task), task.seed)
            y = task.y_train if supervised_fit is not False else None
            args = (task.X_train,) if y is None else (task.X_train, y)
            if hasattr(est, "fit_transform"):
                Z_train = est.fit_transform(*args)
            else:
                Z_train = est.fit(*args).transform(task.X_train)
            Z_test = est.transform(task.X_test) if task.X_test is not None else None
            return Z_train, Z_test
        run.__doc__ = factory.__doc__
        return _Method(run)
    return wrap if factory is None else wrap(factory)


@method
def _demo_pca(task):
    """PCA by SVD of the training points (centred when params['center'])."""
    X = task.X_train
    mean = X.mean(axis=0) if task.params.get("center", True) else np.zeros(X.shape[1])
    _, _, Vt = np.linalg.svd(X - mean, full_matrices=False)
    W = Vt[:task.dim].T
    # The sign of each component follows its largest loading, so the result is deterministic.
    W = W * np.sign(W[np.abs(W).argmax(axis=0), np.arange(W.shape[1])])
    task.log(float(np.sum((X - mean) ** 2)), seconds=0.0)
    Z_test = (task.X_test - mean) @ W if task.X_test is not None else None
    return (X - mean) @ W, Z_test


if __name__ == "__main__":
    _demo_pca.main()
