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
// Lambda differs per point and needs Kfu A^-1 and Kfu Kuu^-1 row by row.
struct SparseCore {
  CholeskyJitter ku;     // Kuu (+ jitter) = R^T R
  arma::vec lambda;      // fitc: n
  arma::mat Vt;          // Kfu R^-1, n x m
  arma::mat B;           // dtc, vfe: Kuf Y, m x d
  arma::mat P;           // dtc, vfe: Vt^T Vt = R^-T Kuf Kfu R^-1, m x m
  double trace_q = 0.0;  // tr(Q) = sum_i k_i Kuu^-1 k_i
  CholeskyJitter a;      // A' = I + R^-T Kuf Lambda^-1 Kfu R^-1 = S^T S
  arma::mat H;           // S^-T R^-T Kuf Lambda^-1 Y, m x d
  double value = std::numeric_limits<double>::infinity();
};

bool sparse_core(GpApproximation ap, const arma::mat& Kuu, const arma::mat& Kfu,
                 const arma::vec& diag, double sigma2, const arma::mat& Yt, SparseCore& c) {
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
    c.Vt = Kfu;
    symmetric::solve_upper('R', 'N', c.ku.R, c.Vt);
    const arma::vec q = arma::sum(arma::square(c.Vt), 1);
    c.trace_q = arma::accu(q);
    c.lambda = diag - q;
    if (!(c.lambda.min() > 0.0)) return false;
    const arma::vec isl = 1.0 / arma::sqrt(c.lambda);
    const arma::mat U = c.Vt.each_col() % isl;
    symmetric::ensure_size(Ap, m);
    symmetric::syrk('T', 1.0, U, 0.0, Ap);
    // cholesky_with_jitter checks the whole matrix for non-finite values: the lower triangle of a
    // fresh buffer is uninitialised memory (a run failed on it), so it gets the upper's values.
    symmetric::mirror_upper(Ap);
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
    c.Vt = Kfu;
    symmetric::solve_upper('R', 'N', c.ku.R, c.Vt);
    c.trace_q = arma::accu(arma::square(c.Vt));
    symmetric::ensure_size(Ap, m);
    symmetric::syrk('T', 1.0, c.Vt, 0.0, Ap);
    symmetric::mirror_upper(Ap);
    c.P = Ap;
    Ap *= beta;
    Ap.diag() += 1.0;
    if (!cholesky_with_jitter(Ap, c.a)) return false;
    c.B = Kfu.t() * Yt;
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

SparseGpResult sparse_gp_neg_log_likelihood(GpApproximation ap, const arma::mat& Kuu,
                                            const arma::mat& Kfu, const arma::vec& diag,
                                            double sigma2, const arma::mat& Yt, bool with_grad) {
  SparseGpResult r;
  SparseCore c;
  if (!sparse_core(ap, Kuu, Kfu, diag, sigma2, Yt, c)) {
    r.value = std::numeric_limits<double>::infinity();
    return r;
  }
  r.value = c.value;
  r.jitter = c.ku.jitter;
  if (!with_grad) return r;

  const double d = double(Yt.n_cols);
  const arma::uword n = Kfu.n_rows;
  arma::mat Ainv, C;
  posterior_parts(c, Ainv, C);
  const arma::mat Kuuinv = inverse_from_cholesky(c.ku.R);
  if (ap != GpApproximation::fitc) {
    // Lambda = sigma^2 I: every n x m x m product folds into one, Kfu times an m x m matrix.
    const double beta = 1.0 / sigma2;
    // Kuf Kfu = R^T (Vt^T Vt) R: m^3 work from what the value already has, not another n m^2.
    arma::mat Phi = c.ku.R.t() * c.P * c.ku.R;
    Phi = 0.5 * (Phi + Phi.t());
    arma::mat alpha = Yt - Kfu * C;  // Sigma^-1 Y = beta (Y - Kfu C)
    alpha *= beta;
    const arma::mat W = beta * (Kuuinv * (c.B - Phi * C));  // Kuu^-1 Kuf alpha
    // sum_i G_ii, with sum_i k_i A^-1 k_i = tr(A^-1 Kuf Kfu).
    const double sumG = 0.5 * (d * (double(n) * beta - beta * beta * arma::accu(Ainv % Phi)) -
                               arma::accu(arma::square(alpha)));
    const double cc = ap == GpApproximation::vfe ? d * beta : 0.0;
    // The rank-d term subtracted in place (gemm with beta = 1): no second n x m temporary.
    r.dKfu = Kfu * (d * beta * Ainv - cc * Kuuinv);
    r.dKfu -= alpha * W.t();
    r.dKuu = 0.5 * d * (Ainv - Kuuinv) + 0.5 * (W * W.t());
    if (ap == GpApproximation::vfe) {
      r.dKuu += (0.5 * cc) * (Kuuinv * Phi * Kuuinv);
      r.ddiag = arma::vec(n, arma::fill::value(0.5 * d * beta));
      r.dsigma2 = sumG - 0.5 * d * (arma::accu(diag) - c.trace_q) * beta * beta;
    } else {
      r.ddiag.zeros(n);
      r.dsigma2 = sumG;
    }
    return r;
  }
  const arma::vec il = 1.0 / c.lambda;
  // alpha = Sigma^-1 Y by Woodbury: Lambda^-1 (Y - Kfu C).
  arma::mat alpha = Yt - Kfu * C;
  alpha.each_col() %= il;
  arma::mat KA = Kfu * Ainv;           // Kfu A^-1, becomes dL/dKfu below
  const arma::mat KK = Kfu * Kuuinv;   // Kfu Kuu^-1
  const arma::mat W = KK.t() * alpha;  // Kuu^-1 Kuf alpha, m x d
  // G_ii = 1/2 (d (Sigma^-1)_ii - |alpha_i|^2), (Sigma^-1)_ii = 1/lambda_i - k_i A^-1 k_i /
  // lambda_i^2.
  const arma::vec G = 0.5 * (d * (il - arma::sum(KA % Kfu, 1) % arma::square(il)) -
                             arma::sum(arma::square(alpha), 1));
  // Lambda_ii = diag_ii - q_ii: dL/ddiag = G, and dL/dq = -G reaches Kfu and Kuu through q.
  const arma::vec cvec = 2.0 * G;
  r.ddiag = G;
  r.dsigma2 = 0.0;
  // d Lambda^-1 Kfu A^-1 - alpha W^T - diag(c) Kfu Kuu^-1, built in KA's storage in the same
  // order of operations: three fewer n x m temporaries.
  const arma::mat KKc = KK.each_col() % cvec;
  KA.each_col() %= il;
  KA *= d;
  r.dKfu = std::move(KA);
  r.dKfu -= alpha * W.t();
  r.dKfu -= KKc;
  r.dKuu = 0.5 * d * (Ainv - Kuuinv) + 0.5 * (W * W.t()) + 0.5 * (KK.t() * KKc);
  return r;
}

bool sparse_gp_posterior(GpApproximation ap, const arma::mat& Kuu, const arma::mat& Kfu,
                         const arma::vec& diag, double sigma2, const arma::mat& Yt,
                         SparsePosterior& out) {
  SparseCore c;
  if (!sparse_core(ap, Kuu, Kfu, diag, sigma2, Yt, c)) return false;
  arma::mat Ainv;
  posterior_parts(c, Ainv, out.C);
  out.P = inverse_from_cholesky(c.ku.R) - Ainv;
  return true;
}

}  // namespace drbench
