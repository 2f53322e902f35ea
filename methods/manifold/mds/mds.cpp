#include "methods/manifold/mds/mds.hpp"

#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

void ClassicalMDS::fit(const FitInput& in) {
  X_ = in.X;
  spectrum_.fit(sq_distances(in.X), in.dim, "mds");
}

arma::mat ClassicalMDS::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != X_.n_rows)
    throw MethodError("mds transform: new points have " + std::to_string(Xnew.n_rows) +
                      " features, the training data " + std::to_string(X_.n_rows));
  return spectrum_.extend(sq_distances(X_, Xnew));
}

namespace {

MethodInfo mds_info() {
  MethodInfo m = describe_method(
      "mds", "manifold",
      "classical (Torgerson) MDS on Euclidean distances; Gower/Nystroem out-of-sample",
      "Torgerson 1952; Gower 1968; Bengio et al. 2003 (NIPS 16) eq. 8-10");
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return std::min<arma::uword>(s.n > 0 ? s.n - 1 : 0, s.d);
  };
  m.transform_reproduces_embedding = true;
  m.make = [](const ParamSet&) { return std::make_unique<ClassicalMDS>(); };
  return m;
}

}  // namespace
DRBENCH_METHOD(mds_info, make_budget(dense_eigen_cost(100.0, 0.0)))
}  // namespace drbench
