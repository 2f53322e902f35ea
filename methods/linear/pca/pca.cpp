#include "methods/linear/pca/pca.hpp"

#include "framework/core/registry.hpp"
#include "methods/linear/pca_models.hpp"

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
  describe_pca_models(m);
  m.make = [](const ParamSet&) { return std::make_unique<Pca>(); };
  return m;
}

}  // namespace
DRBENCH_METHOD(pca_info, linear_budget(thin_svd_cost()))
}  // namespace drbench
