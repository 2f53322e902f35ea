"""What the GPy comparisons (gplvm_gpy.py, sparse_gplvm_gpy.py) share: one BLAS thread, GPy and
paramz from the checkouts GPY_PATH names, the test data, and the call of bench_sparse_gplvm.

Import it before numpy: the BLAS thread count is read when numpy loads its BLAS.
"""
import os
import subprocess
import sys
import tempfile

for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"
import numpy as np  # noqa: E402

for p in reversed(os.environ.get("GPY_PATH", "").split(os.pathsep)):
    if p:
        sys.path.insert(0, p)


def sheet(rng, n, d):
    """A noisy 2-D sheet in d dimensions, centred (the GP-LVM has no mean)."""
    T = rng.standard_normal((n, 2))
    F = np.column_stack([T, np.sin(T[:, 0]) * T[:, 1]])
    Y = F @ rng.standard_normal((3, d)) + 0.1 * rng.standard_normal((n, d))
    return Y - Y.mean(0)


def run_bench(bench, arrays, repeats, *extra):
    """bench_sparse_gplvm on `arrays` (name -> array, written as NAME.txt): its stdout lines, split,
    and the gradient files it wrote (grad_<name>.txt), read back."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, arr in arrays.items():
            np.savetxt(os.path.join(tmp, name + ".txt"), arr, fmt="%.17g")
        out = subprocess.run([bench, tmp, str(repeats), *extra], check=True, capture_output=True,
                             text=True,
                             env=dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")).stdout
        rows = [line.split() for line in out.strip().splitlines()]
        grads = {r[0]: np.loadtxt(os.path.join(tmp, f"grad_{r[0]}.txt")) for r in rows}
        return rows, grads
