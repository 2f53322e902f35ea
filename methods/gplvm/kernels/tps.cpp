#include "methods/gplvm/kernels/tps.hpp"

#include <cmath>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {
namespace {

constexpr double kPi = 3.14159265358979323846;

double q2_constant(TpsConstant c) {
  return c == TpsConstant::paper ? 1.0 / (8.0 * std::sqrt(kPi)) : 1.0 / (8.0 * kPi);
}

void check_q(arma::uword q) {
  if (q < 1 || q > 4)
    throw MethodError(
        "tps kernel: thin-plate splines of order 2 exist for latent dimensions 1..4, "
        "got " +
        std::to_string(q) + " (eta is singular at 0 from q = 5; fix: dims <= 4)");
}

}  // namespace

double tps_eta(double s, arma::uword q, TpsConstant c) {
  if (s < kTpsZeroSq) return 0.0;
  switch (q) {
    case 1:
      return s * std::sqrt(s) / 12.0;
    case 2:
      return 0.5 * q2_constant(c) * s * std::log(s);  // c r^2 log r
    case 3:
      return -std::sqrt(s) / (8.0 * kPi);
    case 4:
      return -std::log(s) / (16.0 * kPi * kPi);  // -log r / (8 pi^2)
    default:
      check_q(q);
  }
  return 0.0;
}

double tps_deta_over_r(double s, arma::uword q, TpsConstant c) {
  if (s < kTpsZeroSq) return 0.0;
  switch (q) {
    case 1:
      return std::sqrt(s) / 4.0;
    case 2:
      return q2_constant(c) * (std::log(s) + 1.0);  // c (2 log r + 1)
    case 3:
      return -1.0 / (8.0 * kPi * std::sqrt(s));
    case 4:
      return -1.0 / (8.0 * kPi * kPi * s);
    default:
      check_q(q);
  }
  return 0.0;
}

namespace {

arma::mat basis_from_sq(const arma::mat& S, arma::uword q, TpsConstant c, arma::mat* D) {
  check_q(q);
  arma::mat E(S.n_rows, S.n_cols);
  if (D) D->set_size(S.n_rows, S.n_cols);
  const double* s = S.memptr();
  double* e = E.memptr();
  double* d = D ? D->memptr() : nullptr;
  for (arma::uword i = 0; i < S.n_elem; ++i) {
    e[i] = tps_eta(s[i], q, c);
    if (d) d[i] = tps_deta_over_r(s[i], q, c);
  }
  return E;
}

}  // namespace

arma::mat tps_basis(const arma::mat& Z, const arma::mat& X, TpsConstant c, arma::mat* D) {
  if (Z.n_rows != X.n_rows) throw Error("internal: tps_basis knots and points differ in dimension");
  return basis_from_sq(sq_distances(Z, X), X.n_rows, c, D);
}

void TpsKernel::set_params(const arma::vec& log_values) {
  if (!log_values.is_empty()) throw Error("internal: the tps kernel has no hyperparameters");
}

const arma::mat& TpsKernel::cached_E(const arma::mat& X, arma::mat* D) const {
  const bool hit = cache_X_.n_rows == X.n_rows && cache_X_.n_cols == X.n_cols &&
                   arma::all(arma::vectorise(cache_X_ == X));
  if (!hit) {
    // The one-argument distance is exactly symmetric with a zero diagonal, so E is too.
    cache_E_ = basis_from_sq(sq_distances(X), X.n_rows, c_, &cache_D_);
    cache_X_ = X;
  }
  if (D) *D = cache_D_;
  return cache_E_;
}

void TpsKernel::fix_inputs(const arma::mat& X) {
  knots_ = X;
  knots_E_ = basis_from_sq(sq_distances(X), X.n_rows, c_, nullptr);
}

arma::mat TpsKernel::basis_at(const arma::mat& X) const {
  const bool at_knots = X.n_rows == knots_.n_rows && X.n_cols == knots_.n_cols &&
                        arma::all(arma::vectorise(X == knots_));
  return at_knots ? knots_E_ : tps_basis(knots_, X, c_);
}

arma::mat TpsKernel::K(const arma::mat& X) const {
  // Knot-free: E is symmetric, E^T E = E E.
  const arma::mat& E = knots_.is_empty() ? cached_E(X, nullptr) : basis_at(X);
  arma::mat K = E.t() * E;
  K += X.t() * X;
  K += 1.0;
  return K;
}

arma::mat TpsKernel::K(const arma::mat& X, const arma::mat& X2) const {
  if (knots_.is_empty()) {
    arma::mat K = tps_basis(X2, X, c_).t() * tps_basis(X2, X2, c_);
    K += X.t() * X2;
    K += 1.0;
    return K;
  }
  arma::mat K = basis_at(X).t() * basis_at(X2);
  K += X.t() * X2;
  K += 1.0;
  return K;
}

arma::vec TpsKernel::diag(const arma::mat& X) const {
  const arma::mat Phi = knots_.is_empty() ? tps_basis(X, X, c_) : basis_at(X);
  return (arma::sum(arma::square(Phi), 0) + arma::sum(arma::square(X), 0) + 1.0).t();
}

arma::mat TpsKernel::grad_through_basis(const arma::mat& A, const arma::mat& Z,
                                        const arma::mat& dPhi) const {
  arma::mat D;
  tps_basis(Z, A, c_, &D);
  const arma::mat P = dPhi % D;  // N x m
  // dL/da_i = sum_j P_ji (a_i - z_j)
  return A.each_row() % arma::sum(P, 0) - Z * P;
}

arma::mat TpsKernel::grad_X(const arma::mat& X, const arma::mat& G) const {
  const arma::mat Gs = G + G.t();
  if (!knots_.is_empty()) {
    return grad_through_basis(X, knots_, basis_at(X) * Gs) + X * Gs;
  }
  // K = E E + C^T C with E symmetric: dL/dE = G E + E G, and E_nj moves with x_n and x_j, so
  // W = (dL/dE + dL/dE^T) .* eta'/r = (M + M^T) .* D with M = Gs E.
  arma::mat D;
  const arma::mat& E = cached_E(X, &D);
  const arma::mat M = Gs * E;
  arma::mat W = M + M.t();
  W %= D;
  arma::mat gX = X.each_row() % arma::sum(W, 0);
  gX -= X * W;
  gX += X * Gs;
  return gX;
}

arma::mat TpsKernel::grad_X_cross(const arma::mat& X, const arma::mat& X2,
                                  const arma::mat& G) const {
  // K(X, X2) = Phi(X)^T Phi(X2) + X^T X2 + 1 with the knots fixed: dL/dPhi(X) = Phi(X2) G^T.
  if (knots_.is_empty())
    return grad_through_basis(X, X2, tps_basis(X2, X2, c_) * G.t()) + X2 * G.t();
  return grad_through_basis(X, knots_, basis_at(X2) * G.t()) + X2 * G.t();
}

arma::mat TpsKernel::grad_X_diag(const arma::mat& X, const arma::vec& g) const {
  if (knots_.is_empty())
    throw Error("internal: tps kernel diag gradient needs fixed knots (call fix_inputs)");
  const arma::mat Phi = tps_basis(knots_, X, c_);
  return grad_through_basis(X, knots_, 2.0 * (Phi.each_row() % g.t())) +
         2.0 * (X.each_row() % g.t());
}

}  // namespace drbench
