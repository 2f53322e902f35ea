"""What the GPy comparisons (gplvm_gpy.py, sparse_gplvm_gpy.py) share: one BLAS thread, GPy and
paramz from the checkouts GPY_PATH names, their common options, the test data, and the call of
bench_sparse_gplvm (build with -DDRBENCH_BENCHMARKS=ON).

Get GPy and paramz (no install needed):
    git clone https://github.com/SheffieldML/GPy /tmp/GPy
    git clone https://github.com/sods/paramz /tmp/paramz
    GPY_PATH=/tmp/GPy:/tmp/paramz /usr/bin/python3 benchmarks/<script>.py \
        --bench build/benchmarks/bench_sparse_gplvm
GPy falls back to numpy where its Cython extensions are not built; build them for the fair
comparison (apt-get install cython3; gplvm_gpy.py's first line says which ran):
    cd /tmp/GPy && python3 setup.py build_ext --inplace
Without GPy the scripts say so and exit 0 (skipped).

Import it before numpy: the BLAS thread count is read when numpy loads its BLAS.
"""
import argparse
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


def options(doc, n, repeats):
    """The options both scripts take; each adds its own."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", required=True, help="the bench_sparse_gplvm executable")
    ap.add_argument("--n", type=int, default=n)
    ap.add_argument("--d", type=int, default=12)
    ap.add_argument("--q", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=repeats)
    ap.add_argument("--seed", type=int, default=0)
    return ap


def import_gpy():
    """GPy, or None with the line that says the comparison is skipped."""
    try:
        import GPy
    except Exception as e:  # noqa: BLE001 - any failure to import means: no reference here
        print(f"skipped: GPy not importable ({e}); see benchmarks/gpy_common.py")
        return None
    return GPy


# rbf variance, lengthscale, bias variance, white noise: where Kuu of the sparse comparison is well
# conditioned (about 1e6), so that neither side needs jitter.
VAR, ELL, BIAS, NOISE = 1.3, 0.3, 0.7, 0.05
# drbench's log hyperparameters of the same: rbf variance, inverse squared lengthscale, bias, white.
THETA = np.log([VAR, 1.0 / ELL**2, BIAS, NOISE])


def rbf_bias(GPy, q):
    """GPy's rbf + bias kernel at the hyperparameters above (the white term is the likelihood's)."""
    return GPy.kern.RBF(q, variance=VAR, lengthscale=ELL) + GPy.kern.Bias(q, variance=BIAS)


def theta_gradient(m):
    """drbench's gradient of the negative log likelihood in THETA, from GPy model m's
    natural-scale gradients of its log likelihood."""
    k = m.kern
    return -np.array([k.rbf.variance.gradient[0] * VAR,
                      -0.5 * k.rbf.lengthscale.gradient[0] * ELL,  # d/dlog(1/ell^2)
                      k.bias.variance.gradient[0] * BIAS,
                      m.likelihood.variance.gradient[0] * NOISE])


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
