#include "methods/linear/pca/pca.hpp"

#include <algorithm>

#include "framework/core/registry.hpp"

namespace drbench {

void Pca::fit(const FitInput& in) {
  basis_ = pca_basis(in.X, in.dim);
  set_projection(in.X, basis_.mean, basis_.W);
}

namespace {

MethodInfo pca_info() {
  MethodInfo m = describe_method(
      "pca", "linear",
      "principal component analysis: top covariance eigenvectors of the centred data",
      "Jolliffe, Principal Component Analysis (2002); baseline of TPSLVM/GPLRF/OIP");
  m.cost = [](const DataShape& s, const ParamSet&, arma::uword) {
    const double a = std::min(s.n, s.d), b = std::max(s.n, s.d);
    return a * a * b;
  };
  m.transform_reproduces_embedding = true;
  // Centred copies and a d x d covariance (d <= n) or a thin SVD (d > n): O(n d + d^2).
  m.memory = [](const DataShape& s, const ParamSet&, arma::uword dim) {
    return memory_linear(s, dim);
  };
  m.make = [](const ParamSet&) { return std::make_unique<Pca>(); };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(pca_info)
}  // namespace drbench
