#include "methods/linear/ppca/ppca.hpp"

#include <algorithm>
#include <cmath>

#include "framework/budget/budget.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/pca.hpp"
#include "methods/common/plain_projection.hpp"

namespace drbench {

arma::mat PpcaModel::posterior_map() const {
  const arma::mat M = W.t() * W + sigma2 * arma::eye(W.n_cols, W.n_cols);
  return arma::solve(arma::symmatu(M), W.t(), arma::solve_opts::likely_sympd);
}

double PpcaModel::log_likelihood(const arma::mat& Y) const {
  const double d = static_cast<double>(Y.n_rows), n = static_cast<double>(Y.n_cols);
  const arma::mat C = W * W.t() + sigma2 * arma::eye(Y.n_rows, Y.n_rows);
  const arma::mat R = arma::chol(C);
  const arma::mat Z = arma::solve(arma::trimatl(R.t()), arma::mat(Y.each_col() - mean));
  const double logdet = 2.0 * arma::accu(arma::log(R.diag()));
  return -0.5 * (n * d * std::log(2.0 * M_PI) + n * logdet + arma::accu(arma::square(Z)));
}

PpcaModel ppca_fit(const arma::mat& Y, arma::uword q) {
  const arma::uword d = Y.n_rows, n = Y.n_cols;
  if (q == 0 || q >= d || q + 1 > n)
    throw MethodError("ppca: dims=" + std::to_string(q) + " must be in 1..min(d-1, n-1)=" +
                      std::to_string(std::min(d - 1, n > 0 ? n - 1 : 0)) +
                      " (sigma^2 is the mean of the d - q discarded eigenvalues); lower 'dims'");
  const PcaBasis b = pca_basis(Y, q);
  // PCA uses the unbiased 1/(n-1) covariance; the likelihood is maximised by the 1/n one.
  const double ml = static_cast<double>(n - 1) / static_cast<double>(n);
  const arma::vec lambda = b.variances * ml;
  const double total = b.total_variance * ml;
  PpcaModel m;
  m.mean = b.mean;
  m.sigma2 = std::max(0.0, total - arma::accu(lambda)) / static_cast<double>(d - q);
  if (!(m.sigma2 > 0.0))
    throw MethodError("ppca: the data lie exactly in a " + std::to_string(q) +
                      "-dimensional subspace, so the noise variance sigma^2 is 0 and the "
                      "likelihood is unbounded; lower 'dims'");
  m.W = b.W * arma::diagmat(arma::sqrt(arma::clamp(lambda - m.sigma2, 0.0, arma::datum::inf)));
  return m;
}

arma::mat ppca_init(const arma::mat& Y, arma::uword q) {
  const PpcaModel m = ppca_fit(Y, q);
  return m.posterior_map() * (Y.each_col() - m.mean);
}

void Ppca::fit(const FitInput& in) {
  model_ = ppca_fit(in.X, in.dim);
  set_projection(in.X, model_.mean, model_.posterior_map().t());
}

namespace {

MethodInfo ppca_info() {
  MethodInfo m = describe_plain_projection<Ppca>(
      "ppca", "probabilistic PCA, closed-form ML fit; points map to their posterior mean",
      "Tipping & Bishop, JRSS-B 61(3) 1999, eq. 7-8 and section 3.2");
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return std::min<arma::uword>(s.d > 0 ? s.d - 1 : 0, s.n > 0 ? s.n - 1 : 0);
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(ppca_info, linear_budget(thin_svd_cost()))
}  // namespace drbench
