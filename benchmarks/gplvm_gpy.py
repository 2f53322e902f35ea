#!/usr/bin/python3
"""drbench's exact GP-LVM objective+gradient against GPy's GPLVM (SheffieldML/GPy, pure Python on
numpy/scipy), the exact counterpart of sparse_gplvm_gpy.py.

Same data Y, latent points X and hyperparameters of rbf + bias + white on both sides (GPy: RBF +
Bias kernel, Gaussian likelihood variance for the white term, exact inference). It compares the
objective (the negative log likelihood) and the gradients in X and the log hyperparameters, then
times one objective+gradient evaluation on each side, one BLAS thread each, in rounds that
alternate drbench and GPy (mean and fastest evaluation, in CPU seconds of the evaluating thread:
on a shared machine wall time counts the other processes' time slices). Beside them, the floor
both sides pay in every evaluation, LAPACK's Cholesky and inverse (dpotrf + dpotri) of the n x n
kernel matrix, timed the same way through scipy on the BLAS numpy loads.

How to get GPy and run this: benchmarks/gpy_common.py.
--profile adds where GPy's evaluation spends its time (cProfile, by function).
"""
import os
import sys
import time

from gpy_common import NOISE, THETA, import_gpy, options, rbf_bias, run_bench, sheet, theta_gradient  # before numpy: one BLAS thread
import numpy as np  # noqa: E402


def main():
    ap = options(__doc__, n=1000, repeats=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    GPy = import_gpy()
    if GPy is None:
        return 0

    rng = np.random.default_rng(a.seed)
    Y = sheet(rng, a.n, a.d)
    X = rng.standard_normal((a.n, a.q))
    noise, theta = NOISE, THETA

    m = GPy.models.GPLVM(Y, a.q, X=X.copy(), kernel=rbf_bias(GPy, a.q))
    # GPy's exact inference adds a constant 1e-8 to the likelihood variance on K's diagonal.
    m.likelihood.variance[:] = noise - 1e-8
    m.parameters_changed()
    f_gpy = m.objective_function()
    k = m.kern
    # drbench's gradient in X: row-major n x q, drbench's vec(X^T).
    gth = theta_gradient(m)
    g_gpy = np.concatenate([-m.X.gradient.ravel(), gth])

    from GPy.kern.src.stationary import use_stationary_cython
    from GPy.util.linalg import use_linalg_cython

    print(f"exact GP-LVM, n = {a.n}, d = {a.d}, q = {a.q}; one BLAS thread each; CPU seconds per "
          f"objective+gradient evaluation ({a.repeats} evaluations, two points alternating), "
          f"rounds alternate drbench, GPy, floor; load {os.getloadavg()[0]:.1f}; GPy's Cython "
          f"linalg {use_linalg_cython}, stationary kernels {use_stationary_cython}")
    x0 = m.optimizer_array.copy()
    x1 = x0 + 1e-6
    m._objective_grads(x0)
    Kf = k.K(X) + noise * np.eye(a.n)
    worst = 0.0
    rows = []
    for r in range(a.rounds):
        f_ours, ours = run_drbench(a.bench, Y, X, theta, a.repeats)
        if r == 0:
            rel = abs(f_ours[0] - f_gpy) / abs(f_gpy)
            grel = np.abs(f_ours[1] - g_gpy).max() / np.abs(g_gpy).max()
            worst = max(rel, grel)
            print(f"objective drbench {f_ours[0]:.15g} GPy {f_gpy:.15g} rel diff {rel:.1e}; "
                  f"gradient max rel diff {grel:.1e}")
        gpy = cpu_times(lambda i: m._objective_grads(x1 if i % 2 else x0), a.repeats)
        floor = cpu_times(lambda i: potrf_potri(Kf), a.repeats)
        rows.append((ours, gpy, floor))
        print(f"round {r + 1}: drbench {ours[0]:.4f} (fastest {ours[1]:.4f})  GPy {gpy[0]:.4f} "
              f"(fastest {gpy[1]:.4f})  GPy / drbench {gpy[0] / ours[0]:.2f} by mean, "
              f"{gpy[1] / ours[1]:.2f} by fastest  floor {floor[0]:.4f} (fastest {floor[1]:.4f}): "
              f"drbench {ours[1] / floor[1]:.2f}x, GPy {gpy[1] / floor[1]:.2f}x the floor (fastest)",
              flush=True)
    if a.profile:
        profile_gpy(m, x0, x1, a.repeats)
    print("largest relative difference:", f"{worst:.1e}")
    return 0 if worst < 1e-8 else 1


def cpu_times(evaluate, repeats):
    """(mean, fastest) CPU seconds of this thread per call of evaluate(i)."""
    times = []
    for i in range(repeats):
        t0 = time.thread_time()
        evaluate(i)
        times.append(time.thread_time() - t0)
    return sum(times) / repeats, min(times)


def potrf_potri(K):
    from scipy.linalg import lapack

    L, info = lapack.dpotrf(K, lower=True, clean=False)
    assert info == 0
    inv, info = lapack.dpotri(L, lower=True)
    assert info == 0
    return inv


def profile_gpy(m, x0, x1, repeats):
    import cProfile
    import pstats

    pr = cProfile.Profile(time.thread_time)
    pr.enable()
    for i in range(repeats):
        m._objective_grads(x1 if i % 2 else x0)
    pr.disable()
    print(f"GPy's evaluation by function (cProfile, CPU seconds over {repeats} evaluations):")
    pstats.Stats(pr).sort_stats("tottime").print_stats(12)


def run_drbench(bench, Y, X, theta, repeats):
    """((objective, gradient), (mean, fastest CPU seconds per evaluation)) from bench_sparse_gplvm."""
    # Z is read and unused by the exact likelihood.
    rows, grads = run_bench(bench, {"Y": Y, "X": X, "Z": X[:1], "theta": theta}, repeats, "exact")
    name, f, _, _, cpu_mean, cpu_fastest = rows[0]
    assert name == "exact"
    return (float(f), grads["exact"]), (float(cpu_mean), float(cpu_fastest))

if __name__ == "__main__":
    sys.exit(main())
