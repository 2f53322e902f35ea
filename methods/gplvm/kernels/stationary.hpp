#pragma once
// Stationary kernels k(x, x') = variance * f(s), s = inv_width * |x - x'|^2 (GPy's Stationary):
// a subclass states only its profile f(s) and f'(s); the matrix, diagonal, cross-covariance and
// every gradient (log variance, log inv_width, X, X against fixed points) come from this base.
#include "methods/gplvm/kernels/kernel.hpp"

namespace drbench {

class StationaryKernel : public KernelWithParams {
 public:
  StationaryKernel(double variance, double inv_width)
      : KernelWithParams({"variance", "inv_width"}, arma::vec{variance, inv_width}) {}

  arma::mat K(const arma::mat& X) const override { return cached_K(X); }
  arma::mat K(const arma::mat& X, const arma::mat& X2) const override;
  arma::vec diag(const arma::mat& X) const override;
  arma::vec grad_params(const arma::mat& X, const arma::mat& G) const override;
  arma::mat grad_X(const arma::mat& X, const arma::mat& G) const override;
  void gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                 arma::mat& g_X) const override;
  arma::mat grad_X_cross(const arma::mat& X, const arma::mat& X2,
                         const arma::mat& G) const override;
  arma::mat grad_X_diag(const arma::mat& X, const arma::vec& g) const override;

 protected:
  // The profile at scaled squared distances S (in place), and its derivative df/ds given S and
  // F = f(S) (a profile may reuse F, as exp does).
  virtual void profile(arma::mat& S) const = 0;
  virtual arma::mat profile_derivative(const arma::mat& S, const arma::mat& F) const = 0;
  virtual double profile_at_zero() const = 0;

 private:
  // K(X) and s at the last X: the GP-LVM asks for K(X) and then for the gradients at the same
  // X, and recomputing the N^2 transcendental values would cost about a tenth of an evaluation.
  // Kernels are owned by one task's model, never shared between threads.
  const arma::mat& cached_K(const arma::mat& X) const;
  // dL/ds .* ds-free factor: W_ij = G_ij * variance * f'(s_ij), at the cached X.
  arma::mat weighted_derivative(const arma::mat& X, const arma::mat& G) const;
  mutable arma::mat cache_X_, cache_S_, cache_F_, cache_K_;
  mutable arma::vec cache_params_;
};

// Matern 3/2: f = (1 + u) exp(-u), u = sqrt(3 s); once differentiable in x.
class Matern32Kernel final : public StationaryKernel {
 public:
  explicit Matern32Kernel(double variance = 1.0, double inv_width = 1.0)
      : StationaryKernel(variance, inv_width) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<Matern32Kernel>(*this); }
  std::string name() const override { return "matern32"; }

 protected:
  void profile(arma::mat& S) const override;
  arma::mat profile_derivative(const arma::mat& S, const arma::mat& F) const override;
  double profile_at_zero() const override { return 1.0; }
};

// Matern 5/2: f = (1 + u + u^2 / 3) exp(-u), u = sqrt(5 s); twice differentiable in x.
class Matern52Kernel final : public StationaryKernel {
 public:
  explicit Matern52Kernel(double variance = 1.0, double inv_width = 1.0)
      : StationaryKernel(variance, inv_width) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<Matern52Kernel>(*this); }
  std::string name() const override { return "matern52"; }

 protected:
  void profile(arma::mat& S) const override;
  arma::mat profile_derivative(const arma::mat& S, const arma::mat& F) const override;
  double profile_at_zero() const override { return 1.0; }
};

}  // namespace drbench
