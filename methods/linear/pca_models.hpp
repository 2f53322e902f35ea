#pragma once
// What the methods pca and ppca share besides the decomposition (framework/linalg/pca): a fit
// that is pca_basis and a linear map.
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/registry.hpp"

namespace drbench {

// transform(training points) == embedding().
void describe_pca_models(MethodInfo& m);
// Their budget: linear_budget(thin_svd_cost()), a d x d covariance eigenproblem when d <= n, a
// thin SVD when d > n; memory_linear (centred copies, the d x d covariance, a dim x dim posterior
// map).

}  // namespace drbench
