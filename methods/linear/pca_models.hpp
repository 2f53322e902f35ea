#pragma once
// What the methods pca and ppca share besides the decomposition (framework/linalg/pca) and their
// contract (plain_projection.hpp): the budget.
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/registry.hpp"

namespace drbench {

// Their budget: cost min(n, d)^2 max(n, d) (a d x d covariance eigenproblem when d <= n, a thin
// SVD when d > n), memory_linear (centred copies, the d x d covariance, a dim x dim posterior
// map).
Budget pca_models_budget(std::string method);

}  // namespace drbench
