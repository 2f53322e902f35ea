#pragma once
// The declarations of Kernel's six full-matrix calls (kernel.hpp: K(X, X2), cross_gradients,
// K(X), gradients, diag, diag_gradients), for a kernel class that overrides all of them (the
// static and stationary bases, the sum): one list to keep in step with Kernel's.
#include "methods/gplvm/kernels/kernel.hpp"

#define DRBENCH_KERNEL_MATRIX_CALLS                                                                \
  arma::mat K(const arma::mat& X, const arma::mat& X2) const override;                             \
  void cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,                \
                       arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const override;       \
  arma::mat K(const arma::mat& X) const override;                                                  \
  void gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params, arma::mat& g_X)      \
      const override;                                                                              \
  arma::vec diag(const arma::mat& X) const override;                                               \
  void diag_gradients(const arma::mat& X, const arma::vec& g, arma::vec& g_params, arma::mat& g_X) \
      const override
