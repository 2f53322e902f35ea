#pragma once
// Static kernels k(x, x') = variance * c(x, x'), where c does not depend on where the points lie
// (GPy's Static): a subclass states only which pairs share the variance, every pair (bias) or a
// point with itself (white); the matrix, diagonal, cross-covariance and every gradient come from
// this base. The gradients with respect to X are zero, and with respect to log variance
// tr(G^T dK/dlog variance) = variance * sum(G .* C).
#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/kernels/matrix_calls.hpp"

namespace drbench {

class StaticKernel : public KernelWithParams, public TrianglePath {
 public:
  // K(X, X2): distinct points, where a bias still covaries and white noise never does.
  DRBENCH_KERNEL_MATRIX_CALLS;
  double noise(arma::vec* grad) const override;
  // One triangle: a constant fill; the gradient from G's sums, taken from `sums` when another
  // part's pass filled them.
  void upper_K(const arma::mat& X, const UpperFill& fill, arma::mat& K) const override;
  void upper_gradients(const arma::mat& X, arma::mat& G, arma::vec& g_params, arma::mat& g_X,
                       UpperSums* sums) const override;
  bool static_share(double& every_pair, double& same_point) const override;

 protected:
  enum class Shared { every_pair, same_point };
  StaticKernel(double variance, Shared shared)
      : KernelWithParams({"variance"}, arma::vec{variance}), shared_(shared) {}

 private:
  Shared shared_;
};

}  // namespace drbench
