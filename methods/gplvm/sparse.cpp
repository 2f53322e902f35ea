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

namespace {

// What the value, the gradient and the posterior share.
struct SparseCore {
  CholeskyJitter ku;  // Kuu (+ jitter) = R^T R
  arma::vec lambda;   // n
  arma::vec q;        // diag(Q), n
  arma::mat Vt;       // Kfu R^-1, n x m
  CholeskyJitter a;   // A' = I + Vt^T Lambda^-1 Vt = S^T S
  arma::mat H;        // S^-T Vt^T Lambda^-1 Y, m x d
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
  c.Vt = Kfu;
  symmetric::solve_upper('R', 'N', c.ku.R, c.Vt);
  c.q = arma::sum(arma::square(c.Vt), 1);
  if (ap == GpApproximation::fitc)
    c.lambda = diag - c.q;
  else
    c.lambda = arma::vec(n, arma::fill::value(sigma2));
  if (!(c.lambda.min() > 0.0)) return false;
  const arma::vec isl = 1.0 / arma::sqrt(c.lambda);
  const arma::mat U = c.Vt.each_col() % isl;
  arma::mat Ap = U.t() * U;
  Ap.diag() += 1.0;
  if (!cholesky_with_jitter(Ap, c.a)) return false;
  const arma::mat Yl = Yt.each_col() % isl;
  c.H = U.t() * Yl;
  symmetric::solve_upper('L', 'T', c.a.R, c.H);
  const double logdet = 2.0 * arma::accu(arma::log(c.a.R.diag())) + arma::accu(arma::log(c.lambda));
  c.value = 0.5 * d * logdet +
            0.5 * (arma::accu(arma::square(Yl)) - arma::accu(arma::square(c.H))) +
            0.5 * double(n) * d * std::log(2.0 * arma::datum::pi);
  if (ap == GpApproximation::vfe) c.value += 0.5 * d / sigma2 * arma::accu(diag - sigma2 - c.q);
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
  const arma::vec il = 1.0 / c.lambda;
  // alpha = Sigma^-1 Y by Woodbury: Lambda^-1 (Y - Kfu C).
  arma::mat alpha = Yt - Kfu * C;
  alpha.each_col() %= il;
  arma::mat KK = c.Vt;  // Kfu Kuu^-1
  symmetric::solve_upper('R', 'T', c.ku.R, KK);
  const arma::mat W = KK.t() * alpha;  // Kuu^-1 Kuf alpha, m x d
  const arma::mat KA = Kfu * Ainv;     // Kfu A^-1
  // G_ii = 1/2 (d (Sigma^-1)_ii - |alpha_i|^2), (Sigma^-1)_ii = 1/lambda_i - k_i A^-1 k_i /
  // lambda_i^2.
  const arma::vec G = 0.5 * (d * (il - arma::sum(KA % Kfu, 1) % arma::square(il)) -
                             arma::sum(arma::square(alpha), 1));
  arma::vec cvec;
  switch (ap) {
    case GpApproximation::fitc:
      cvec = 2.0 * G;
      r.ddiag = G;
      r.dsigma2 = 0.0;
      break;
    case GpApproximation::vfe:
      cvec = arma::vec(n, arma::fill::value(d / sigma2));
      r.ddiag = arma::vec(n, arma::fill::value(0.5 * d / sigma2));
      r.dsigma2 = arma::accu(G) - 0.5 * d * arma::accu(diag - c.q) / (sigma2 * sigma2);
      break;
    default:  // dtc
      cvec.zeros(n);
      r.ddiag.zeros(n);
      r.dsigma2 = arma::accu(G);
      break;
  }
  r.dKfu = d * (KA.each_col() % il) - alpha * W.t() - KK.each_col() % cvec;
  r.dKuu = 0.5 * d * (Ainv - Kuuinv) + 0.5 * (W * W.t());
  if (ap != GpApproximation::dtc) r.dKuu += 0.5 * (KK.t() * (KK.each_col() % cvec));
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
