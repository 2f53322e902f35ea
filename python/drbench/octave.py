"""Run an Octave (or MATLAB-style) function as a drbench external method.

    command: [python3, -m, drbench.octave, ../examples/external/octave_pca.m]

The function file defines ``[Ztrain, Ztest] = name(Xtrain, ytrain, Xtest, params)``: Xtrain is
n x d (one row per point), ytrain the n training labels 0..C-1 ([] for an unsupervised method),
Xtest m x d ([] when there is nothing to map: return [] for Ztest), and params a struct with the
declared parameters plus dim, seed, threads and n_classes. Ztrain must be n x dim, Ztest m x dim.

The data go to Octave as a MATLAB v5 .mat file (scipy.io.savemat; Octave's load reads it) and
come back the same way (save -v7; scipy.io.loadmat), so nothing depends on Octave's own HDF5
layout. The interpreter is octave-cli, or $DRBENCH_OCTAVE.
"""

import os
import subprocess
import sys

import numpy as np

from drbench.external import method

RESERVED = ("dim", "seed", "threads", "n_classes")


def run_function(fn_file, task, octave=None):
    """Z_train, Z_test of the function in fn_file on the task (in the current directory)."""
    import scipy.io

    fn_file = os.path.abspath(fn_file)
    name, ext = os.path.splitext(os.path.basename(fn_file))
    if ext != ".m" or not os.path.isfile(fn_file):
        raise SystemExit(f"drbench.octave: {fn_file} is not an Octave function file (name.m)")
    clash = [p for p in task.params if p in RESERVED]
    if clash:
        raise SystemExit(f"drbench.octave: parameter(s) {clash} clash with the task fields "
                         f"{RESERVED} that params also carries; rename them")
    params = dict(task.params)
    params.update(dim=task.dim, seed=task.seed, threads=task.threads, n_classes=task.n_classes)
    empty = np.zeros((0, 0))
    scipy.io.savemat("octave_in.mat", {
        "Xtrain": task.X_train,
        "ytrain": empty if task.y_train is None else task.y_train.astype(np.float64)[:, None],
        "Xtest": empty if task.X_test is None else task.X_test,
        "params": params,
    })
    script = ("load('octave_in.mat'); "
              f"[Ztrain, Ztest] = {name}(Xtrain, ytrain, Xtest, params); "
              "save('-v7', 'octave_out.mat', 'Ztrain', 'Ztest');")
    exe = octave or os.environ.get("DRBENCH_OCTAVE") or "octave-cli"
    # argv, no shell: the function's directory goes in as data (addpath), never as shell text.
    cmd = [exe, "--no-gui", "--norc", "--quiet", "--no-history", "--eval",
           f"addpath('{_quoted(os.path.dirname(fn_file))}'); {script}"]
    rc = subprocess.run(cmd).returncode
    if rc != 0:
        raise SystemExit(f"drbench.octave: {exe} exited with status {rc} running {name}")
    out = scipy.io.loadmat("octave_out.mat")
    Z_test = out["Ztest"] if task.X_test is not None else None
    return out["Ztrain"], Z_test


def _quoted(s):
    return s.replace("'", "''")  # an Octave single-quoted string


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 3:
        raise SystemExit("usage: python3 -m drbench.octave FUNCTION.m INPUT.h5 OUTPUT.h5 "
                         "(drbench appends the last two)")
    fn_file = argv[0]
    method(lambda task: run_function(fn_file, task)).main(argv[1:])


if __name__ == "__main__":
    main()
