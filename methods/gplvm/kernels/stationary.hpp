#pragma once
// Stationary kernels k(x, x') = variance * f(s), s = inv_width * |x - x'|^2 (GPy's Stationary):
// a subclass states only its profile f(s) and f'(s); the matrix, diagonal, cross-covariance and
// every gradient (log variance, log inv_width, X, X against fixed points) come from this base.
#include <functional>

#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/kernels/matrix_calls.hpp"

namespace drbench {

// The upper triangle (diagonal included, as 0) of scale * |x_i - x_j|^2 into S (n x n, reused),
// with the same arithmetic as sq_distances(X); the strict lower triangle is left as it was.
// column(j), when given, runs as soon as column j's segment is done (still in cache).
void scaled_sq_distances_upper(const arma::mat& X, double scale, arma::mat& S,
                               const std::function<void(arma::uword)>& column = {});

class StationaryKernel : public KernelWithParams, public TrianglePath {
 public:
  StationaryKernel(double variance, double inv_width)
      : KernelWithParams({"variance", "inv_width"}, arma::vec{variance, inv_width}) {}

  // K(X) and its gradients from f(s) of the upper triangle only (a symmetric matrix needs half
  // the transcendental evaluations), kept for the gradient at the same X.
  DRBENCH_KERNEL_MATRIX_CALLS;
  arma::mat cross_K(const arma::mat& X, const arma::mat& X2) const override;
  // K's columns written in the pass that computes f(s), the constant added there.
  arma::mat cross_K_plus(const arma::mat& X, const arma::mat& X2, double every_pair) const override;
  // One triangle: K's column j is written while f(s) of that column is still in cache, and the
  // gradient pass reads G's columns contiguously, taking G's sums for folded static parts.
  void upper_K(const arma::mat& X, const UpperFill& fill, arma::mat& K) const override;
  void upper_gradients(const arma::mat& X, arma::mat& G, arma::vec& g_params, arma::mat& g_X,
                       UpperSums* sums) const override;

 protected:
  // What a stationary kernel states: f at n scaled squared distances s (f may alias s), and
  // df/ds given s and f = f(s) (a profile may reuse f, as exp does). Called on contiguous runs: a
  // column's upper triangle, or a whole cross-covariance matrix.
  virtual void profile(const double* s, double* f, arma::uword n) const = 0;
  virtual void profile_derivative(const double* s, const double* f, double* df,
                                  arma::uword n) const = 0;
  // True, with c, where df/ds = c f (RBF: -1/2): the cross-gradient sweep then forms df itself,
  // in its vector lanes, instead of a pass through profile_derivative.
  virtual bool derivative_scales_profile(double& c) const {
    (void)c;
    return false;
  }

 private:
  double at_zero() const;  // k(x, x) = variance f(0)
  // f(s) at the last X, upper triangle only: K(X) and the gradients at the same X share it, and
  // a symmetric matrix needs half the transcendental evaluations. s itself is not stored: it is
  // recomputed from X, a few flops per pair, which is cheaper than an N x N pass through memory.
  // Kernels are owned by one task's model, never shared between threads.
  void refresh(const arma::mat& X, const std::function<void(arma::uword)>& column = {}) const;
  // s_ij = inv_width |x_i - x_j|^2 for i in [i0, i1) into s[i - i0], at the cached X.
  void column_s(arma::uword j, arma::uword i0, arma::uword i1, double* s) const;
  // The gradient pass given pairs(visit), which calls visit(j, i0, i1, gs) for segments of
  // column j's strict upper triangle, gs(i) = G_ij + G_ji; returns the sum of those gs.
  template <class Pairs>
  double gradient_pass(const arma::mat& X, Pairs&& pairs, const arma::mat& G, arma::vec& g_params,
                       arma::mat& g_X) const;
  mutable arma::mat cache_X_, cache_F_;
  mutable arma::mat cache_W_;  // the gradient's pair weights (a reused N x N buffer)
  mutable arma::vec cache_params_;
  // At q = 2 the gradients in one vectorised sweep that forms s again (cross_S_ is then one
  // column of scratch), reading f(s) of the cross_K just before at the same inputs.
  void cross_sweep_q2(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                      arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const;
  // s and f(s) of the last cross_K, for the cross_gradients that follows at the same inputs
  // (n x m each: the sparse likelihoods' Kfu, never an n x n matrix; at q = 2 only f).
  mutable arma::mat cross_X_, cross_X2_, cross_S_, cross_F_;
  mutable arma::mat cross_W_;     // cross_gradients' pair weights, reused
  mutable arma::vec cross_rows_;  // and their row sums
  mutable arma::mat cross_work_;  // the q = 2 sweep's per-point columns (n x 6)
  mutable arma::vec cross_params_;
};

// A concrete stationary kernel Self: its constructor (variance, inv_width; both 1 by default),
// clone and name (Self::kName) come from here, Self states its profile.
template <class Self>
class StationaryProfile : public StationaryKernel {
 public:
  explicit StationaryProfile(double variance = 1.0, double inv_width = 1.0)
      : StationaryKernel(variance, inv_width) {}
  std::unique_ptr<Kernel> clone() const override {
    return std::make_unique<Self>(static_cast<const Self&>(*this));
  }
  std::string name() const override { return Self::kName; }
};

// Matern 3/2: f = (1 + u) exp(-u), u = sqrt(3 s); once differentiable in x.
class Matern32Kernel final : public StationaryProfile<Matern32Kernel> {
 public:
  using StationaryProfile::StationaryProfile;
  static constexpr const char* kName = "matern32";

 protected:
  void profile(const double* s, double* f, arma::uword n) const override;
  void profile_derivative(const double* s, const double* f, double* df,
                          arma::uword n) const override;
};

// Matern 5/2: f = (1 + u + u^2 / 3) exp(-u), u = sqrt(5 s); twice differentiable in x.
class Matern52Kernel final : public StationaryProfile<Matern52Kernel> {
 public:
  using StationaryProfile::StationaryProfile;
  static constexpr const char* kName = "matern52";

 protected:
  void profile(const double* s, double* f, arma::uword n) const override;
  void profile_derivative(const double* s, const double* f, double* df,
                          arma::uword n) const override;
};

}  // namespace drbench
