#include "methods/gplvm/sparse.hpp"

#include <cmath>
#include <limits>

#include "framework/core/error.hpp"
#include "methods/gplvm/likelihood.hpp"
#include "methods/gplvm/symmetric.hpp"

namespace drbench {

const std::vector<std::string>& gp_approximation_names() {
  static const std::vector<std::string> n = {"exact", "dtc", "fitc", "vfe"};
  return n;
}

GpApproximation gp_approximation(const std::string& name) {
  if (name == "exact") return GpApproximation::exact;
  if (name == "dtc") return GpApproximation::dtc;
  if (name == "fitc") return GpApproximation::fitc;
  if (name == "vfe") return GpApproximation::vfe;
  throw Error("unknown approximation '" + name + "' (known: exact, dtc, fitc, vfe)");
}

double add_inducing_jitter(arma::mat& Kuu, double rel) {
  if (rel <= 0.0 || Kuu.n_rows == 0) return 0.0;
  const double j = rel * arma::mean(Kuu.diag());
  Kuu.diag() += j;
  return j;
}

void chain_inducing_jitter(arma::mat& dKuu, double rel) {
  if (rel <= 0.0 || dKuu.n_rows == 0) return;
  dKuu.diag() += rel / double(dKuu.n_rows) * arma::trace(dKuu);
}

namespace {

// What the value, the gradient and the posterior share. With a constant Lambda = sigma^2 I (dtc,
// vfe) the gradient goes through the m x m matrix Kuf Kfu and needs one n x m x m product; fitc's
// Lambda differs per point and needs Kfu A^-1 row by row (one symmetric product in the whitened
// basis Vt and one triangular product back) and Vt^T diag(c) Vt (one symmetric rank-k update).
struct SparseCore {
  CholeskyJitter ku;     // Kuu (+ jitter) = R^T R
  arma::vec lambda;      // fitc: n
  arma::mat Vt;          // Kfu R^-1, n x m, in Kfu's storage
  arma::mat B;           // dtc, vfe: Kuf Y, m x d
  arma::mat P;           // dtc, vfe: Vt^T Vt = R^-T Kuf Kfu R^-1, m x m
  arma::mat UtU;         // fitc: Vt^T Lambda^-1 Vt = A' - I (upper triangle and mirror)
  double trace_q = 0.0;  // tr(Q) = sum_i k_i Kuu^-1 k_i
  CholeskyJitter a;      // A' = I + R^-T Kuf Lambda^-1 Kfu R^-1 = S^T S
  arma::mat H;           // S^-T R^-T Kuf Lambda^-1 Y, m x d
  double value = std::numeric_limits<double>::infinity();
};

// Kfu is consumed: Vt is solved in its storage (no n x m copy). fitc writes Lambda^-1/2 Vt into
// ws.U.
bool sparse_core(GpApproximation ap, const arma::mat& Kuu, arma::mat&& Kfu, const arma::vec& diag,
                 double sigma2, const arma::mat& Yt, SparseGpWorkspace& ws, SparseCore& c) {
  const arma::uword n = Kfu.n_rows, m = Kfu.n_cols;
  const double d = double(Yt.n_cols);
  if (ap == GpApproximation::exact) throw Error("internal: sparse likelihood asked for 'exact'");
  if (Kuu.n_rows != m || Kuu.n_cols != m || Yt.n_rows != n || diag.n_elem != n)
    throw Error("internal: sparse GP likelihood given inconsistent shapes");
  if (!Kfu.is_finite() || !diag.is_finite() || !std::isfinite(sigma2)) return false;
  if (!cholesky_with_jitter(Kuu, c.ku)) return false;
  double logdet, yy;
  arma::mat Ap;
  if (ap == GpApproximation::fitc) {
    c.Vt = std::move(Kfu);
    symmetric::solve_upper('R', 'N', c.ku.R, c.Vt);
    const arma::vec q = arma::sum(arma::square(c.Vt), 1);
    c.trace_q = arma::accu(q);
    c.lambda = diag - q;
    if (!(c.lambda.min() > 0.0)) return false;
    const arma::vec isl = 1.0 / arma::sqrt(c.lambda);
    arma::mat& U = ws.U;
    U.set_size(n, m);
    for (arma::uword j = 0; j < m; ++j) {
      const double* v = c.Vt.colptr(j);
      double* u = U.colptr(j);
      for (arma::uword i = 0; i < n; ++i) u[i] = v[i] * isl[i];
    }
    symmetric::ensure_size(c.UtU, m);
    symmetric::syrk('T', 1.0, U, 0.0, c.UtU);
    // cholesky_with_jitter checks the whole matrix for non-finite values: the lower triangle of a
    // fresh buffer is uninitialised memory (a run failed on it), so it gets the upper's values.
    symmetric::mirror_upper(c.UtU);
    Ap = c.UtU;
    Ap.diag() += 1.0;
    if (!cholesky_with_jitter(Ap, c.a)) return false;
    const arma::mat Yl = Yt.each_col() % isl;
    c.H = U.t() * Yl;
    logdet = arma::accu(arma::log(c.lambda));
    yy = arma::accu(arma::square(Yl));
  } else {
    if (!(sigma2 > 0.0)) return false;
    const double beta = 1.0 / sigma2;
    // A' from Kfu R^-1 rather than from R^-T (Kuf Kfu) R^-1: the latter squares what an
    // ill-conditioned Kuu does to the rounding (finite differences of the objective showed it).
    c.B = Kfu.t() * Yt;
    c.Vt = std::move(Kfu);
    symmetric::solve_upper('R', 'N', c.ku.R, c.Vt);
    c.trace_q = arma::accu(arma::square(c.Vt));
    symmetric::ensure_size(Ap, m);
    symmetric::syrk('T', 1.0, c.Vt, 0.0, Ap);
    symmetric::mirror_upper(Ap);
    c.P = Ap;
    Ap *= beta;
    Ap.diag() += 1.0;
    if (!cholesky_with_jitter(Ap, c.a)) return false;
    c.H = beta * c.B;
    symmetric::solve_upper('L', 'T', c.ku.R, c.H);
    logdet = double(n) * std::log(sigma2);
    yy = beta * arma::accu(arma::square(Yt));
  }
  symmetric::solve_upper('L', 'T', c.a.R, c.H);
  logdet += 2.0 * arma::accu(arma::log(c.a.R.diag()));
  c.value = 0.5 * d * logdet + 0.5 * (yy - arma::accu(arma::square(c.H))) +
            0.5 * double(n) * d * std::log(2.0 * arma::datum::pi);
  if (ap == GpApproximation::vfe)
    c.value += 0.5 * d / sigma2 * (arma::accu(diag) - double(n) * sigma2 - c.trace_q);
  return std::isfinite(c.value);
}

// A^-1 = R^-1 A'^-1 R^-T and C = A^-1 Kuf Lambda^-1 Y = R^-1 S^-1 H.
void posterior_parts(const SparseCore& c, arma::mat& Ainv, arma::mat& C) {
  Ainv = inverse_from_cholesky(c.a.R);
  symmetric::solve_upper('L', 'N', c.ku.R, Ainv);
  symmetric::solve_upper('R', 'T', c.ku.R, Ainv);
  C = c.H;
  symmetric::solve_upper('L', 'N', c.a.R, C);
  symmetric::solve_upper('L', 'N', c.ku.R, C);
}

}  // namespace

namespace {

// R^-1 M R^-T for the upper factor R of Kuu: an m x m matrix of the whitened basis taken back to
// Kuu's, by two triangular solves (no explicit Kuu^-1, whose rounding grows with Kuu's condition).
arma::mat unwhiten(const arma::mat& R, arma::mat M) {
  symmetric::solve_upper('L', 'N', R, M);
  symmetric::solve_upper('R', 'T', R, M);
  return M;
}

}  // namespace

SparseGpResult sparse_gp_neg_log_likelihood(GpApproximation ap, const arma::mat& Kuu, arma::mat Kfu,
                                            const arma::vec& diag, double sigma2,
                                            const arma::mat& Yt, bool with_grad) {
  SparseGpWorkspace ws;
  SparseGpResult r;
  sparse_gp_neg_log_likelihood(ap, Kuu, std::move(Kfu), diag, sigma2, Yt, with_grad, ws, r);
  return r;
}

void sparse_gp_neg_log_likelihood(GpApproximation ap, const arma::mat& Kuu, arma::mat&& Kfu,
                                  const arma::vec& diag, double sigma2, const arma::mat& Yt,
                                  bool with_grad, SparseGpWorkspace& ws, SparseGpResult& r) {
  SparseCore c;
  r.jitter = 0.0;
  r.dsigma2 = 0.0;
  if (!sparse_core(ap, Kuu, std::move(Kfu), diag, sigma2, Yt, ws, c)) {
    r.value = std::numeric_limits<double>::infinity();
    return;
  }
  r.value = c.value;
  r.jitter = c.ku.jitter;
  if (!with_grad) return;

  // Every gradient in the whitened basis Vt = Kfu R^-1, where A = R^T A' R and Kuu^-1 = R^-1 R^-T:
  //   Kfu A^-1 = Vt A'^-1 R^-T,  Kfu Kuu^-1 = Vt R^-T,  W = R^-1 W',  A^-1 - Kuu^-1 = R^-1 (A'^-1
  //   - I) R^-T,  Kuu^-1 Kuf diag(c) Kfu Kuu^-1 = R^-1 (Vt^T diag(c) Vt) R^-T,
  // so dL/dKuu = 1/2 R^-1 [d (A'^-1 - I) + W' W'^T + Vt^T diag(c) Vt] R^-T.
  const double d = double(Yt.n_cols);
  const arma::uword n = c.Vt.n_rows, m = c.Vt.n_cols;
  const arma::mat Ai = inverse_from_cholesky(c.a.R);  // A'^-1
  arma::mat Cw = c.H;                                 // S^-1 H: C = R^-1 Cw
  symmetric::solve_upper('L', 'N', c.a.R, Cw);
  const arma::mat I = arma::eye(m, m);
  if (ap != GpApproximation::fitc) {
    // Lambda = sigma^2 I: every n x m x m product folds into one, Kfu times an m x m matrix.
    const double beta = 1.0 / sigma2;
    arma::mat alpha = Yt - c.Vt * Cw;  // Sigma^-1 Y = beta (Y - Kfu C), Kfu C = Vt Cw
    alpha *= beta;
    // W' = Vt^T alpha = beta (R^-T B - P Cw), from what the value has: no n x m x d product.
    arma::mat RB = c.B;
    symmetric::solve_upper('L', 'T', c.ku.R, RB);
    const arma::mat Wp = beta * (RB - c.P * Cw);
    // sum_i G_ii, with sum_i k_i A^-1 k_i = tr(A'^-1 P).
    const double sumG = 0.5 * (d * (double(n) * beta - beta * beta * arma::accu(Ai % c.P)) -
                               arma::accu(arma::square(alpha)));
    const double cc = ap == GpApproximation::vfe ? d * beta : 0.0;
    // dL/dKfu = Kfu (d beta A^-1 - cc Kuu^-1) - alpha W^T = Vt (d beta A'^-1 - cc I) R^-T - ...
    arma::mat M = d * beta * Ai - cc * I;
    symmetric::solve_upper('R', 'T', c.ku.R, M);
    r.dKfu = c.Vt * M;      // into r.dKfu's storage when it has the size
    arma::mat Wt = Wp.t();  // W^T = W'^T R^-T
    symmetric::solve_upper('R', 'T', c.ku.R, Wt);
    r.dKfu -= alpha * Wt;  // the rank-d term subtracted in place (gemm with beta = 1)
    arma::mat inner = d * (Ai - I) + Wp * Wp.t();
    if (ap == GpApproximation::vfe) inner += cc * c.P;  // Vt^T diag(c) Vt with c = d beta
    r.dKuu = unwhiten(c.ku.R, 0.5 * inner);
    if (ap == GpApproximation::vfe) {
      r.ddiag = arma::vec(n, arma::fill::value(0.5 * d * beta));
      r.dsigma2 = sumG - 0.5 * d * (arma::accu(diag) - c.trace_q) * beta * beta;
    } else {
      r.ddiag.zeros(n);
      r.dsigma2 = sumG;
    }
    return;
  }
  const arma::vec il = 1.0 / c.lambda;
  // alpha = Sigma^-1 Y by Woodbury: Lambda^-1 (Y - Kfu C).
  arma::mat alpha = Yt - c.Vt * Cw;
  alpha.each_col() %= il;
  const arma::mat Wp = c.Vt.t() * alpha;  // W' = R W = Vt^T alpha, m x d
  arma::mat& T = r.dKfu;
  symmetric::symm('R', Ai, c.Vt, T);  // Vt A'^-1, becomes dL/dKfu below
  // G_ii = 1/2 (d (Sigma^-1)_ii - |alpha_i|^2), (Sigma^-1)_ii = 1/lambda_i - k_i A^-1 k_i /
  // lambda_i^2, k_i A^-1 k_i = (Vt A'^-1 Vt^T)_ii. The n x m passes are written out: each is
  // memory-bound, and these are fused where Armadillo's expressions would take one per operation.
  arma::vec kak(n, arma::fill::zeros);
  for (arma::uword j = 0; j < m; ++j) {
    const double *t = T.colptr(j), *v = c.Vt.colptr(j);
    for (arma::uword i = 0; i < n; ++i) kak[i] += t[i] * v[i];
  }
  const arma::vec aa = arma::sum(arma::square(alpha), 1);
  const arma::vec G = 0.5 * (d * (il - kak % arma::square(il)) - aa);
  // Lambda_ii = diag_ii - q_ii: dL/ddiag = G, and dL/dq = -G reaches Kfu and Kuu through q.
  r.ddiag = G;
  r.dsigma2 = 0.0;
  // [d Lambda^-1 Vt A'^-1 - diag(c) Vt - alpha W'^T] R^-T (c = 2 G), built in T's storage. For
  // dL/dKuu, c = d/lambda - e with e = d k_i A^-1 k_i / lambda_i^2 + |alpha_i|^2 >= 0 splits
  //   Vt^T diag(c) Vt = d Vt^T Lambda^-1 Vt - E^T E,  E = diag(sqrt(e)) Vt,
  // whose first term the value has (A' - I) and whose second is one symmetric rank-k update (half
  // the flops of the rank-2k update Vt^T (diag(c) Vt) needs); E goes into U's storage, which the
  // value is done with.
  arma::mat& E = ws.U;
  E.set_size(n, m);
  const arma::vec cv = 2.0 * G, dil = d * il;
  const arma::vec se = arma::sqrt(d * kak % arma::square(il) + aa);
  // The rank-d term alpha W'^T joins the pass for one output column (the benchmarks' and GPy's
  // case); for more it is one gemm with beta = 1, which blocks the d-long sums.
  const bool fuse_rank_d = Yt.n_cols == 1;
  const double* a1 = alpha.memptr();
  for (arma::uword j = 0; j < m; ++j) {
    const double* v = c.Vt.colptr(j);
    double *t = T.colptr(j), *e = E.colptr(j);
    if (fuse_rank_d) {
      const double w = Wp[j];
      for (arma::uword i = 0; i < n; ++i) {
        t[i] = dil[i] * t[i] - cv[i] * v[i] - a1[i] * w;
        e[i] = se[i] * v[i];
      }
    } else {
      for (arma::uword i = 0; i < n; ++i) {
        t[i] = dil[i] * t[i] - cv[i] * v[i];
        e[i] = se[i] * v[i];
      }
    }
  }
  if (!fuse_rank_d) T -= alpha * Wp.t();  // in place (gemm with beta = 1)
  // T R^-T as T (R^-1)^T, R^-1 solved once at m x m (as dtc's M R^-T is): OpenBLAS's trmm runs
  // this at 1.6x the speed of its trsm with a transposed factor (1.2 against 1.9 ms at n = 5,000,
  // m = 100, one thread).
  arma::mat Ri = I;
  symmetric::solve_upper('L', 'N', c.ku.R, Ri);
  symmetric::multiply_upper('R', 'T', Ri, T);
  arma::mat inner;
  symmetric::syrk('T', -1.0, E, 0.0, inner);
  symmetric::mirror_upper(inner);
  inner += d * (c.UtU + Ai - I) + Wp * Wp.t();
  r.dKuu = unwhiten(c.ku.R, 0.5 * inner);
}

bool sparse_gp_posterior(GpApproximation ap, const arma::mat& Kuu, const arma::mat& Kfu,
                         const arma::vec& diag, double sigma2, const arma::mat& Yt,
                         SparsePosterior& out) {
  SparseCore c;
  SparseGpWorkspace ws;
  if (!sparse_core(ap, Kuu, arma::mat(Kfu), diag, sigma2, Yt, ws, c)) return false;
  arma::mat Ainv;
  posterior_parts(c, Ainv, out.C);
  out.P = inverse_from_cholesky(c.ku.R) - Ainv;
  return true;
}

}  // namespace drbench
