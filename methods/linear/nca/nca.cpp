#include "methods/linear/nca/nca.hpp"

#include <string>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/common/lda_start.hpp"
#include "methods/common/metric_learning.hpp"

namespace drbench {

NcaObjective::NcaObjective(const arma::mat& X, const arma::uvec& labels, arma::uword dim)
    : X_(X), dim_(dim) {
  const arma::uword n = labels.n_elem;
  same_.set_size(n, n);
  for (arma::uword j = 0; j < n; ++j)
    for (arma::uword i = 0; i < n; ++i) same_(i, j) = labels(i) == labels(j) ? 1.0 : 0.0;
}

double NcaObjective::evaluate(const arma::vec& x, arma::vec* grad) {
  const arma::uword d = X_.n_rows, n = X_.n_cols;
  const arma::mat L = arma::reshape(x, dim_, d);
  const arma::mat Y = L * X_;  // dim x n
  // Column i holds p_{i.}: a softmax over j != i of the negated squared distances, shifted by its
  // largest exponent (the nearest other point) so nothing underflows to 0/0.
  arma::mat P = sq_distances(Y);
  for (arma::uword i = 0; i < n; ++i) {
    P(i, i) = arma::datum::inf;
    arma::vec c = P.col(i);
    c = arma::exp(c.min() - c);
    P.col(i) = c / arma::accu(c);
  }
  const arma::mat masked = P % same_;
  const arma::rowvec p = arma::sum(masked, 0);  // p_i
  const double loss = arma::accu(p);
  if (grad) {
    arma::mat W = masked - P.each_row() % p;  // column i: p_ij (same_ij - p_i)
    arma::mat S = W + W.t();
    S.diag() = -arma::sum(W, 1);
    *grad = -arma::vectorise(2.0 * Y * S * X_.t());
  }
  return -loss;
}

void Nca::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  const arma::uword d = in.X.n_rows, k = in.dim;
  const arma::mat L = linear_map_start(s_.init, in.X, y, k, in.rng, "nca");
  NcaObjective obj(in.X, y, k);
  const OptimResult r = minimize("lbfgs", obj, arma::vectorise(L),
                                 scipy_lbfgs_options(s_.iterations, s_.tolerance, in.trace));
  objective_ = r.f;
  const arma::mat Lfit = arma::reshape(r.x, k, d);
  set_projection(in.X, arma::vec(arma::mean(in.X, 1)), Lfit.t());
}

namespace {

// The parameters the contract and the budget both read.
struct NcaKeys {
  IntKey iterations = keywords::iterations(50, 100000, "of L-BFGS (scikit-learn: 50)");
};

MethodInfo nca_info() {
  MethodInfo m = describe_method(
      "nca", "linear",
      "neighbourhood components analysis: the linear map maximising leave-one-out stochastic 1-NN",
      "Goldberger, Roweis, Hinton & Salakhutdinov, NIPS 2004, section 2 (scikit-learn's "
      "NeighborhoodComponentsAnalysis)");
  const auto [iterations] = NcaKeys{};
  describe_lbfgs_map<Nca>(m, iterations, scipy_lbfgs_tolerance(" (scikit-learn: 1e-5)"),
                          linear_map_init("its NCA's"));
  return m;
}

}  // namespace
// Every evaluation forms the n x n softmax and two products with it, about 1.5 evaluations an
// L-BFGS step; it holds the label mask, P, its masked copy, the weights and their symmetric sum:
// five n x n arrays.
DRBENCH_METHOD(nca_info, metric_learning_budget(NcaKeys{}.iterations, 1.5, 10.0, 5.0))
}  // namespace drbench
