#!/usr/bin/python3
"""An independent numpy implementation of DSNE (DEE paper, papers/001 eq. 5-8), written from the
equations and not from methods/neighbour/dsne, to check drbench's objective, gradient and
optimiser from outside.

    p_ij = exp(-|x_i - x_j|^2 / (2 s^2)) / Z^P_g        (eq. 5, g = same / different class)
    q_ij = (1 + |A x_i - A x_j|^2)^-1 / Z^Q_g           (eq. 6)
    E(A) = sum_{i != j} p_ij log(p_ij / q_ij)           (eq. 7)

with 2 s^2 = kernel_width^2 x the mean squared same-class distance (drbench's `width: relative`).
The gradient is derived here by the chain rule on the pair list, not through a Laplacian.

Usage:
  dsne_reference.py check DATA.h5 RESULTS.h5   drbench's DSNE objective at its own final A
                                               (recovered from the embedding; needs D < N) vs
                                               this implementation's
  dsne_reference.py fit DATA.h5 [--kernel-width W]  scipy L-BFGS from drbench's PCA start
                                               (init: pca), and the objective of a separating
                                               (Fisher LDA) layout and of L-BFGS started there
  dsne_reference.py layouts DATA.h5 RESULTS.h5 [--task K] [--kernel-width W]
                                               E (split into its two KL terms) of drbench's
                                               embedding vs layouts that separate the classes
  dsne_reference.py selfcheck                  finite-difference check of this file's gradient
DATA.h5: a dataset file with a split column (0 = train), run by drbench with `splits: {own:
true}`; only the training points enter the objective.
"""
import argparse
import sys

import h5py
import numpy as np
from scipy.linalg import eigh
from scipy.optimize import minimize


def pair_lists(labels):
    n = len(labels)
    i, j = np.triu_indices(n, 1)
    same = labels[i] == labels[j]
    return i, j, same


def input_similarities(X, labels, kernel_width=1.0):
    """X: N x D (rows = points). Returns p over the pairs i < j (each unordered pair once; the
    ordered-pair P of eq. 5 is p/2 on each of (i,j), (j,i)), the pair lists and t = 2 s^2."""
    i, j, same = pair_lists(labels)
    sq = ((X[i] - X[j]) ** 2).sum(1)
    t = kernel_width ** 2 * sq[same].mean()
    p = np.empty_like(sq)
    for g in (same, ~same):
        k = np.exp(-(sq[g] - sq[g].min()) / t)  # shift cancels in the normalisation
        p[g] = k / k.sum()
    return p, (i, j, same), t


def objective(A, X, p, pairs):
    """E(A) and dE/dA for A (dim x D). Ordered pairs: both (i,j) and (j,i) carry p/2 and q/2,
    so the sum over ordered pairs of p log(p/q) equals the sum over unordered pairs of
    p log(p/q) with p, q normalised over unordered pairs."""
    i, j, same = pairs
    Y = X @ A.T
    diff = Y[i] - Y[j]
    d = (diff ** 2).sum(1)
    u = 1.0 / (1.0 + d)
    q = np.empty_like(u)
    for g in (same, ~same):
        q[g] = u[g] / u[g].sum()
    m = p > 0
    E = float((p[m] * np.log(p[m] / q[m])).sum())
    # dE/dd_ij = -p_ij (d log u_ij / dd) + sum_g-terms = p u - q u  (per unordered pair)
    c = (p - q) * u
    # d d_ij / dA = 2 A x_ij x_ij^T = 2 (y_i - y_j)(x_i - x_j)^T; summed over pairs through a dense
    # N x N weight matrix (forming every x_i - x_j would take N^2 D memory).
    n = X.shape[0]
    C = np.zeros((n, n))
    C[i, j] = c
    C += C.T
    Lc = np.diag(C.sum(1)) - C  # sum_{i<j} c_ij (y_i - y_j)(x_i - x_j)^T = Y^T Lc X
    G = 2.0 * (Y.T @ Lc @ X)
    return E, G


def pca_start(Xc, dim, spread=1e-2):
    """drbench's pca_projection_start: leading principal directions as rows, scaled so the
    embedded points' rms distance to their mean is `spread` (row signs do not matter: E and the
    whole optimisation path are invariant to flipping a row of A)."""
    U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
    A = Vt[:dim].copy()
    rms = np.sqrt(((Xc @ A.T) ** 2).sum() / Xc.shape[0])
    return A * (spread / rms)


def loo_1nn_error(Y, labels):
    D = ((Y[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(D, np.inf)
    return float((labels[D.argmin(1)] != labels).mean())


def lbfgs(A0, X, p, pairs, iterations):
    shape = A0.shape
    trace = []

    def f(a):
        E, G = objective(a.reshape(shape), X, p, pairs)
        trace.append(E)
        return E, G.ravel()

    r = minimize(f, A0.ravel(), jac=True, method="L-BFGS-B",
                 options={"maxiter": iterations, "gtol": 1e-10, "ftol": 1e-14, "maxcor": 20})
    return r.x.reshape(shape), r.fun, r.nit, trace


def lda_projection(Xc, y, dim, ridge=1e-3):
    """Fisher's 2-D projection (ridge on S_w): a layout that separates classes, for comparing
    objective values."""
    classes = np.unique(y)
    m = np.stack([Xc[y == c].mean(0) for c in classes])
    Sw = sum((Xc[y == c] - m[k]).T @ (Xc[y == c] - m[k]) for k, c in enumerate(classes))
    Sb = (m - m.mean(0)).T @ (m - m.mean(0))
    Sw += ridge * np.trace(Sw) / Sw.shape[0] * np.eye(Sw.shape[0])
    w, V = eigh(Sb, Sw)
    return V[:, np.argsort(-w)[:dim]].T


def best_scale(A, X, p, pairs):
    """min over s > 0 of E(s A): the objective of a layout at its best size."""
    from scipy.optimize import minimize_scalar
    r = minimize_scalar(lambda ls: objective(np.exp(ls) * A, X, p, pairs)[0],
                        bounds=(-12, 12), method="bounded")
    return np.exp(r.x), r.fun


def load_own(path):
    """A dataset file with a split column (0 = train), as drbench's `splits: {own: true}`."""
    with h5py.File(path, "r") as f:
        X = np.asarray(f["X"], float)
        y = np.asarray(f["y"]).astype(int).ravel()
        split = np.asarray(f["split"]).ravel()
    return X[split == 0], y[split == 0]


def kl_parts(Y, p, pairs):
    """E of an embedding Y (N x dim) split into its same-class and different-class KL terms."""
    i, j, same = pairs
    u = 1.0 / (1.0 + ((Y[i] - Y[j]) ** 2).sum(1))
    out = []
    for g in (same, ~same):
        m = g & (p > 0)
        q = u[m] / u[g].sum()
        out.append(float((p[m] * np.log(p[m] / q)).sum()))
    return out


def layouts(X, y, results, task, kernel_width):
    """E of drbench's embedding against layouts that separate the classes."""
    Xc = X - X.mean(0)
    p, pairs, t = input_similarities(Xc, y, kernel_width)
    _, _, same = pairs
    for g, name in ((same, "same"), (~same, "different")):
        H = -(p[g] * np.log(p[g])).sum()
        print(f"{name}-class pairs {g.sum()}: perplexity of P {np.exp(H):.0f} "
              f"({np.exp(H) / g.sum():.2f} of the pairs)")

    def show(name, Y):
        a, b = kl_parts(Y, p, pairs)
        print(f"{name}: E {a + b:.4f} (same {a:.4f}, different {b:.4f}), train LOO 1-NN error "
              f"{loo_1nn_error(Y, y):.3f}")

    A0 = pca_start(Xc, 2)
    show("PCA start (tiny)", Xc @ A0.T)
    with h5py.File(results, "r") as f:
        show(f"drbench task {task}", f["embeddings"][str(task)]["train"][:])
    L = lda_projection(Xc, y, 2)
    s, _ = best_scale(L, Xc, p, pairs)
    show("Fisher LDA at its best scale", Xc @ (s * L).T)
    Y0 = Xc @ A0.T
    Y0 /= np.sqrt((Y0 ** 2).sum(1).mean())
    ang = 2 * np.pi * np.searchsorted(np.unique(y), y) / len(np.unique(y))
    # Classes as blobs on a circle: separated by construction (not reachable by a linear map).
    for R in (1, 3, 10, 30):
        show(f"classes as blobs (rms 0.3) on a circle of radius {R}",
             np.c_[R * np.cos(ang), R * np.sin(ang)] + 0.3 * Y0)


def selfcheck():
    """Central finite differences of this file's gradient on small random data; 1 on failure."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 6))
    y = rng.integers(0, 3, 40)
    Xc = X - X.mean(0)
    p, pairs, _ = input_similarities(Xc, y)
    A = rng.normal(size=(2, 6))
    _, G = objective(A, Xc, p, pairs)
    h, Gn = 1e-6, np.zeros_like(A)
    for k in range(A.size):
        d = np.zeros(A.size)
        d[k] = h
        d = d.reshape(A.shape)
        Gn.flat[k] = (objective(A + d, Xc, p, pairs)[0]
                      - objective(A - d, Xc, p, pairs)[0]) / (2 * h)
    err = np.abs(G - Gn).max() / np.abs(Gn).max()
    print(f"finite-difference check of the gradient: max relative error {err:.1e}")
    return 0 if err < 1e-6 else 1


def main():
    if sys.argv[1:2] == ["selfcheck"]:
        return selfcheck()
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="objective at drbench's own solution (own-split data)")
    c.add_argument("data", help="the dataset file the run used (split column 0 = train)")
    c.add_argument("results", help="drbench results file with embeddings and traces")
    fp = sub.add_parser("fit", help="L-BFGS from drbench's PCA start; objective of other layouts")
    fp.add_argument("data", help="dataset file with a split column (0 = train)")
    fp.add_argument("--dim", type=int, default=2)
    fp.add_argument("--iterations", type=int, default=1000)
    fp.add_argument("--kernel-width", type=float, default=1.0)
    lp = sub.add_parser("layouts", help="E of drbench's embedding vs separating layouts")
    lp.add_argument("data")
    lp.add_argument("results")
    lp.add_argument("--task", type=int, default=0)
    lp.add_argument("--kernel-width", type=float, default=1.0)
    a = ap.parse_args()
    X, y = load_own(a.data)
    if a.cmd == "layouts":
        layouts(X, y, a.results, a.task, a.kernel_width)
        return 0
    Xc = X - X.mean(0)
    if a.cmd == "check":
        with h5py.File(a.data, "r") as f:  # train_index counts rows of the whole file
            X = np.asarray(f["X"], float)
            y = np.asarray(f["y"]).astype(int).ravel()
        with h5py.File(a.results, "r") as f:
            for task in f["embeddings"]:
                e = f["embeddings"][task]
                idx = e["train_index"][:]
                Y = e["train"][:]
                tr = f["traces"][task][:]
                setting = f["tasks/setting"][int(task)]
                if not np.array_equal(e["train_label"][:], y[idx]):
                    raise SystemExit("labels differ: not the data this run used")
                Z = X[idx] - X[idx].mean(0)  # drbench centres on the training mean
                A = np.linalg.lstsq(Z, Y, rcond=None)[0].T  # D < N: A is determined by Y
                kw = dict(kv.split("=") for kv in setting.decode().split(","))
                if kw.get("width", "relative") != "relative":
                    raise SystemExit("only width: relative is implemented here")
                p, pairs, t = input_similarities(Z, y[idx], float(kw.get("kernel_width", 1)))
                E, G = objective(A, Z, p, pairs)
                print(f"task {task} ({setting}): |XA^T - Y| {np.abs(Z @ A.T - Y).max():.1e}, "
                      f"numpy E {E:.10f} vs drbench trace {tr[-1, 1]:.10f} "
                      f"(rel {abs(E - tr[-1, 1]) / E:.1e}); |grad| numpy {np.linalg.norm(G):.6g}"
                      f" drbench {tr[-1, 2]:.6g}; iterations {int(tr[-1, 0])}; "
                      f"train LOO 1-NN error {loo_1nn_error(Y, y[idx]):.4f}")
        return 0
    p, pairs, t = input_similarities(Xc, y, a.kernel_width)
    A0 = pca_start(Xc, a.dim)
    E0, _ = objective(A0, Xc, p, pairs)
    A, E, nit, _ = lbfgs(A0, Xc, p, pairs, a.iterations)
    print(f"N={len(y)} D={X.shape[1]} t=2s^2={t:.6g}; E(A0)={E0:.8f}; scipy L-BFGS from the PCA "
          f"start: E={E:.8f} after {nit} iterations, train LOO 1-NN error "
          f"{loo_1nn_error(Xc @ A.T, y):.4f}, "
          f"|A x| rms {np.sqrt(((Xc @ A.T) ** 2).sum(1).mean()):.3g}")
    L = lda_projection(Xc, y, a.dim)
    s, El = best_scale(L, Xc, p, pairs)
    print(f"Fisher LDA {a.dim}-D at its best scale: E={El:.8f}, train LOO 1-NN error "
          f"{loo_1nn_error(Xc @ (s * L).T, y):.4f}")
    Al, Ell, nitl, _ = lbfgs(s * L, Xc, p, pairs, a.iterations)
    print(f"L-BFGS started from that LDA layout: E={Ell:.8f} after {nitl} iterations, train LOO "
          f"1-NN error {loo_1nn_error(Xc @ Al.T, y):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
