#include "methods/linear/mcml/mcml.hpp"

#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/common/lda_start.hpp"
#include "methods/common/metric_learning.hpp"

namespace drbench {

McmlObjective::McmlObjective(const arma::mat& X, const arma::uvec& labels, arma::uword dim)
    : X_(X), dim_(dim) {
  const arma::uword n = labels.n_elem;
  P0_.zeros(n, n);
  entropy_.zeros(n);
  for (arma::uword i = 0; i < n; ++i) {
    const arma::uvec same = arma::find(labels == labels(i));
    if (same.n_elem < 2) continue;
    const double p = 1.0 / double(same.n_elem - 1);
    for (const arma::uword j : same)
      if (j != i) P0_(j, i) = p;
    entropy_(i) = std::log(p);  // sum_j p log p with m - 1 equal terms
  }
}

double McmlObjective::evaluate(const arma::vec& x, arma::vec* grad) {
  const arma::uword d = X_.n_rows, n = X_.n_cols;
  const arma::mat Y = arma::reshape(x, dim_, d) * X_;
  // Column i: log p(.|i), shifted by the nearest other point's distance so the exponentials
  // cannot all underflow.
  arma::mat logP = sq_distances(Y);
  double f = 0;
  for (arma::uword i = 0; i < n; ++i) {
    logP(i, i) = arma::datum::inf;
    arma::vec c = logP.col(i);
    const double dmin = c.min();
    c = dmin - c;
    const double log_z = std::log(arma::accu(arma::exp(c)));
    logP.col(i) = c - log_z;
    logP(i, i) = -arma::datum::inf;
    if (!arma::any(P0_.col(i))) continue;  // alone in its class
    for (arma::uword j = 0; j < n; ++j)
      if (P0_(j, i) > 0) f -= P0_(j, i) * logP(j, i);
    f += entropy_(i);
  }
  if (grad) {
    // dKL_i / d d_ij = p0(j|i) - p(j|i), for the points that have a target distribution.
    arma::mat W = arma::exp(logP);
    for (arma::uword i = 0; i < n; ++i) {
      if (!arma::any(P0_.col(i))) {
        W.col(i).zeros();
        continue;
      }
      W.col(i) = P0_.col(i) - W.col(i);
    }
    arma::mat S = W + W.t();
    S.diag() = -arma::sum(S, 1);
    // sum_ij S_ij (x_i - x_j)(x_i - x_j)^T / 2 = -X S X^T with S's diagonal set as above.
    *grad = arma::vectorise(-2.0 * Y * S * X_.t());
  }
  return f;
}

void Mcml::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  const arma::uword d = in.X.n_rows, k = in.dim;
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  start_ = linear_map_start(s_.init, Xc, y, k, in.rng, "mcml");
  McmlObjective obj(Xc, y, k);
  const OptimResult r = minimize("lbfgs", obj, arma::vectorise(start_),
                                 scipy_lbfgs_options(s_.iterations, s_.tolerance, in.trace));
  objective_ = r.f;
  set_projection(in.X, mean, arma::reshape(r.x, k, d).t());
}

namespace {

// The parameters the contract and the budget both read.
struct McmlKeys {
  IntKey iterations = keywords::iterations(200, 100000, "of L-BFGS");
};

MethodInfo mcml_info() {
  MethodInfo m = describe_method(
      "mcml", "linear",
      "maximally collapsing metric learning: the linear map whose softmax neighbours collapse "
      "each class to a point",
      "Globerson & Roweis, NIPS 2005, eq. 3-4, low-rank form over L (drtoolbox's mcml)");
  const auto [iterations] = McmlKeys{};
  describe_lbfgs_map<Mcml>(m, iterations, scipy_lbfgs_tolerance(""), linear_map_init(""));
  return m;
}

}  // namespace
// Every evaluation forms the n x n softmax, its exponentials and two products with it; the line
// search takes about 1.5 evaluations per iteration. It holds the target distribution, log P, W,
// its symmetric sum and a transposed copy: five n x n arrays.
DRBENCH_METHOD(mcml_info, metric_learning_budget(McmlKeys{}.iterations, 1.5, 12.0, 5.0))
}  // namespace drbench
