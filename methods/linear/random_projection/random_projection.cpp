#include "methods/linear/random_projection/random_projection.hpp"

#include <cmath>

#include "framework/budget/budget.hpp"
#include "framework/core/registry.hpp"
#include "methods/common/plain_projection.hpp"

namespace drbench {

void RandomProjection::fit(const FitInput& in) {
  const arma::uword d = in.X.n_rows;
  const arma::mat R = in.rng.randn(d, in.dim) / std::sqrt(double(in.dim));
  set_projection(in.X, arma::zeros(d), R);
}

arma::uword johnson_lindenstrauss_min_dim(arma::uword n, double eps) {
  const double denominator = eps * eps / 2.0 - eps * eps * eps / 3.0;
  return arma::uword(4.0 * std::log(double(n)) / denominator);
}

namespace {

MethodInfo random_projection_info() {
  MethodInfo m = describe_plain_projection<RandomProjection>(
      "random_projection",
      "Gaussian random projection: N(0, 1/dim) matrix from the task's seed, no fitting",
      "Johnson & Lindenstrauss 1984; Dasgupta & Gupta 2003, Random Struct. Alg. 22; "
      "scikit-learn's GaussianRandomProjection");
  // The projection needs no more points than dimensions (the registry's default min(n - 1, d)
  // would refuse it on small data); d is where it stops reducing.
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.d; };
  return m;
}

}  // namespace
// The projection matrix (d x dim) and the embeddings of the training and test points.
DRBENCH_METHOD(random_projection_info,
               make_budget([](const TaskSize& z) { return z.n * z.d * z.q; },
                           [](const TaskSize& z) {
                             return 8.0 * (z.d * z.q + 2.0 * (z.n + z.n_test) * z.q);
                           }))
}  // namespace drbench
