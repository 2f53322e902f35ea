#pragma once
// The thin-plate-spline covariance of TPSLVM (Jiang et al. 2014, eq. 13-17) without its noise
// term: K = E^T E + C^T C, E_ij = eta(|x_i - x_j|), C = [X; 1]. Every training latent point is a
// knot, so an entry of K depends on all the points and its X-gradient is not a stationary
// kernel's: with G = dL/dK and S = G E + E G (dL/dE), dL/dx_n = sum_j (S_nj + S_jn) eta'(r_nj) /
// r_nj (x_n - x_j), two O(N^3) products per evaluation (the authors' code loops over every x_mn
// and costs O(q N^4)). The noise beta^-1 I is a separate white kernel; beta's log is learnt.
//
// Before fit the knots are the points K is asked about (K(X) uses X itself; K(X, X2) uses X2);
// fix_inputs() pins them at the fitted latent points, after which a new point x* has the
// feature vector [eta(|x* - x_j|)]_j, [x*; 1] and the GP prediction of eq. 29 follows.
#include "methods/gplvm/kernels/kernel.hpp"

namespace drbench {

// c in eta = c r^2 log r for q = 2: the paper's eq. 8 and the authors' code use 1/(8 sqrt(pi));
// the classical thin-plate constant is 1/(8 pi).
enum class TpsConstant { paper, classical };

// Squared distances below this are treated as 0 (eta(0) = 0), as the authors' code does.
inline constexpr double kTpsZeroSq = 1e-5;

// eta(r) and eta'(r)/r as functions of s = r^2 in latent dimension q = 1..4 (thin-plate order
// m = 2): q = 1: r^3/12, q = 2: c r^2 log r, q = 3: -r/(8 pi), q = 4: -log r/(8 pi^2).
double tps_eta(double s, arma::uword q, TpsConstant c);
double tps_deta_over_r(double s, arma::uword q, TpsConstant c);

// |Z| x |X| matrix eta(|z_i - x_j|) for knots Z (q x N) and points X (q x m), and the same for
// eta'/r when D is non-null.
arma::mat tps_basis(const arma::mat& Z, const arma::mat& X, TpsConstant c, arma::mat* D = nullptr);

class TpsKernel final : public KernelWithParams, public TrianglePath {
 public:
  explicit TpsKernel(TpsConstant c = TpsConstant::paper)
      : KernelWithParams({}, arma::vec()), c_(c) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<TpsKernel>(*this); }
  std::string name() const override { return "tps"; }

  arma::mat K(const arma::mat& X, const arma::mat& X2) const override;
  // Knot-free the knots are X itself, which K(X, X) would not differentiate through.
  arma::mat K(const arma::mat& X) const override;
  void gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                 arma::mat& g_X) const override;
  arma::vec diag(const arma::mat& X) const override;
  // Fixed knots only (knot-free, each point's variance would depend on all of X).
  void diag_gradients(const arma::mat& X, const arma::vec& g, arma::vec& g_params,
                      arma::mat& g_X) const override;
  void fix_inputs(const arma::mat& X) override;
  // One triangle (knot-free mode; with fixed knots the full-matrix calls).
  void upper_K(const arma::mat& X, const UpperFill& fill, arma::mat& K) const override;
  void upper_gradients(const arma::mat& X, arma::mat& G, arma::vec& g_params, arma::mat& g_X,
                       UpperSums* sums) const override;

  // The sparse likelihoods' form (knot-free mode): K(X, Z) has its knots at the inducing inputs Z
  // (K(X, X2) does at X2), and so do K(Z, Z) and the diagonal, so every part of the sparse
  // covariance moves with Z as knots as well as points: g_X2 of cross_gradients and g_Z of
  // sparse_diag_gradients are the whole Z-gradients. O(n m) memory and O(n m^2) work. With
  // fixed knots (after fit, at Z) the knots are constants and these are the point gradients.
  // The kernel has no hyperparameters: g_params is empty.
  arma::mat cross_K(const arma::mat& X, const arma::mat& X2) const override;
  void cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                       arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const override;
  arma::vec sparse_diag(const arma::mat& X, const arma::mat& Z) const override;
  void sparse_diag_gradients(const arma::mat& X, const arma::mat& Z, const arma::vec& g,
                             arma::vec& g_params, arma::mat& g_X, arma::mat& g_Z) const override;

  const arma::mat& knots() const { return knots_; }

 private:
  // dL/dA for K = Phi(A)^T B' + A^T B2 + 1 given dL/dPhi(A) (N x m) with the knots Z fixed.
  arma::mat grad_through_basis(const arma::mat& A, const arma::mat& Z, const arma::mat& dPhi) const;
  // Knot-free X-gradient given Gs = scale * S for a full symmetric S (S = G + G^T, scale 1, or
  // a symmetric G, scale 2).
  arma::mat grad_X_knot_free(const arma::mat& X, const arma::mat& S, double scale) const;
  // E(X) (full) and eta'/r (upper triangle) at the last X of K(X) in knot-free mode: the
  // gradient at the same X reuses them.
  void refresh(const arma::mat& X) const;
  // eta(|z_i - x_j|) for the fixed knots Z; the knots against themselves come from knots_E_, as
  // every step of the out-of-sample search asks for K(x*, X) at the same X.
  arma::mat basis_at(const arma::mat& X) const;

  // eta and eta'/r of the points X (Phi, D: m x n) and of the knots Z among themselves (Psi,
  // Dz: m x m) for the knots Z: what the sparse form's value and gradients share. Two slots, as
  // an evaluation asks for (X, Z) and (Z, Z) in turn.
  struct CrossBasis {
    arma::mat X, Z, Phi, D, Psi, Dz;
  };
  const CrossBasis& cross_basis(const arma::mat& X, const arma::mat& Z) const;
  mutable CrossBasis cross_[2];
  mutable unsigned cross_next_ = 0;

  TpsConstant c_;
  arma::mat knots_;  // empty until fix_inputs
  arma::mat knots_E_;
  mutable arma::mat cache_X_, cache_E_, cache_D_;
  // N x N work buffers kept across evaluations (fresh ones fault in their pages every time):
  // E E in upper_K, then (G + G^T) E in the gradient; G + G^T (grad_X only).
  mutable arma::mat work_, gs_;
};

}  // namespace drbench
