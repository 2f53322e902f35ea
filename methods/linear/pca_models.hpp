#pragma once
// What the methods pca and ppca share besides the decomposition (framework/linalg/pca): the
// descriptor's estimates of a fit that is pca_basis and a linear map.
#include "framework/core/registry.hpp"

namespace drbench {

// The estimates of a method whose fit is pca_basis and a linear map (pca, ppca): cost
// min(n, d)^2 max(n, d) (a d x d covariance eigenproblem when d <= n, a thin SVD when d > n),
// memory_linear (centred copies, the d x d covariance, a dim x dim posterior map), and
// transform(training points) == embedding().
void describe_pca_models(MethodInfo& m);

}  // namespace drbench
