#include "methods/linear/pca/pca.hpp"

#include "framework/budget/budget.hpp"
#include "framework/core/registry.hpp"
#include "methods/common/plain_projection.hpp"

namespace drbench {

void Pca::fit(const FitInput& in) {
  basis_ = pca_basis(in.X, in.dim);
  set_projection(in.X, basis_.mean, basis_.W);
}

namespace {

MethodInfo pca_info() {
  return describe_plain_projection<Pca>(
      "pca", "principal component analysis: top covariance eigenvectors of the centred data",
      "Jolliffe, Principal Component Analysis (2002); baseline of TPSLVM/GPLRF/OIP");
}

}  // namespace
DRBENCH_METHOD(pca_info, linear_budget(thin_svd_cost()))
}  // namespace drbench
