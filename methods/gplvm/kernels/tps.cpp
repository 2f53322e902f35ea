#include "methods/gplvm/kernels/tps.hpp"

#include <algorithm>
#include <cmath>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"
#include "methods/gplvm/kernels/stationary.hpp"
#include "methods/gplvm/symmetric.hpp"

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

// eta and eta'/r at n squared distances (e and d may alias s), one transcendental call per
// entry: the same expressions as tps_eta and tps_deta_over_r.
void eta_and_derivative(const double* s, double* e, double* d, arma::uword n, arma::uword q,
                        TpsConstant c) {
  const double c2 = q2_constant(c);
  for (arma::uword i = 0; i < n; ++i) {
    const double si = s[i];
    double ei = 0.0, di = 0.0;
    if (si >= kTpsZeroSq) {
      switch (q) {
        case 1: {
          const double r = std::sqrt(si);
          ei = si * r / 12.0;
          di = r / 4.0;
          break;
        }
        case 2: {
          const double l = std::log(si);
          ei = 0.5 * c2 * si * l;
          di = c2 * (l + 1.0);
          break;
        }
        case 3: {
          const double r = std::sqrt(si);
          ei = -r / (8.0 * kPi);
          di = -1.0 / (8.0 * kPi * r);
          break;
        }
        default: {  // 4 (check_q ran)
          ei = -std::log(si) / (16.0 * kPi * kPi);
          di = -1.0 / (8.0 * kPi * kPi * si);
        }
      }
    }
    e[i] = ei;
    if (d) d[i] = di;
  }
}

arma::mat basis_from_sq(const arma::mat& S, arma::uword q, TpsConstant c, arma::mat* D) {
  check_q(q);
  arma::mat E(S.n_rows, S.n_cols);
  if (D) D->set_size(S.n_rows, S.n_cols);
  eta_and_derivative(S.memptr(), E.memptr(), D ? D->memptr() : nullptr, S.n_elem, q, c);
  return E;
}

}  // namespace

arma::mat tps_basis(const arma::mat& Z, const arma::mat& X, TpsConstant c, arma::mat* D) {
  if (Z.n_rows != X.n_rows) throw Error("internal: tps_basis knots and points differ in dimension");
  return basis_from_sq(sq_distances(Z, X), X.n_rows, c, D);
}

void TpsKernel::refresh(const arma::mat& X) const {
  const bool hit = cache_X_.n_rows == X.n_rows && cache_X_.n_cols == X.n_cols &&
                   arma::all(arma::vectorise(cache_X_ == X));
  if (hit) return;
  check_q(X.n_rows);
  const arma::uword n = X.n_cols;
  // Upper triangles only (E is symmetric with a zero diagonal): half the logarithms.
  symmetric::ensure_size(cache_E_, n);
  scaled_sq_distances_upper(X, 1.0, cache_D_, [&](arma::uword j) {
    eta_and_derivative(cache_D_.colptr(j), cache_E_.colptr(j), cache_D_.colptr(j), j + 1, X.n_rows,
                       c_);
  });
  symmetric::mirror_upper(cache_E_);
  cache_X_ = X;
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
  if (knots_.is_empty()) {
    // The upper triangle, then into both of K's, tile by tile.
    arma::mat U(X.n_cols, X.n_cols), K(X.n_cols, X.n_cols, arma::fill::zeros);
    upper_K(X, UpperFill{}, U);
    symmetric::add_upper(U, 1.0, K);
    return K;
  }
  const arma::mat E = basis_at(X);
  arma::mat K = E.t() * E;
  K += X.t() * X;
  K += 1.0;
  return K;
}

void TpsKernel::upper_K(const arma::mat& X, const UpperFill& fill, arma::mat& K) const {
  if (!knots_.is_empty()) {
    upper_K_from_full(*this, X, fill, K);
    return;
  }
  refresh(X);
  // Knot-free, E is symmetric: E^T E = E E, one syrk on the upper triangle (half a product),
  // then + X^T X + 1 + fill's constants, one column at a time.
  const arma::uword n = X.n_cols, q = X.n_rows;
  symmetric::ensure_size(work_, n);
  symmetric::syrk('T', 1.0, cache_E_, 0.0, work_);
  const double* x = X.memptr();
  for (arma::uword j = 0; j < n; ++j) {
    const double* e = work_.colptr(j);
    const double* xj = x + j * q;
    double* k = K.colptr(j);
    for (arma::uword i = 0; i <= j; ++i) {
      double xx = 0.0;
      for (arma::uword c = 0; c < q; ++c) xx += x[c + i * q] * xj[c];
      const double v = e[i] + xx + 1.0;
      k[i] = (fill.overwrite ? v : k[i] + v) + fill.every_pair;
    }
    k[j] += fill.same_point;
  }
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

void TpsKernel::gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                          arma::mat& g_X) const {
  g_params.reset();
  if (!knots_.is_empty()) {
    const arma::mat Gs = G + G.t();
    g_X = grad_through_basis(X, knots_, basis_at(X) * Gs) + X * Gs;
    return;
  }
  symmetric::ensure_size(gs_, X.n_cols);
  symmetric::sum_with_transpose(G, gs_);
  g_X = grad_X_knot_free(X, gs_, 1.0);
}

void TpsKernel::upper_gradients(const arma::mat& X, arma::mat& G, arma::vec& g_params,
                                arma::mat& g_X, UpperSums*) const {
  if (!knots_.is_empty()) {
    upper_gradients_from_full(*this, X, G, g_params, g_X);
    return;
  }
  // G symmetric: G + G^T = 2 G, so G itself (mirrored) serves, with no copy.
  symmetric::mirror_upper(G);
  g_params.reset();
  g_X = grad_X_knot_free(X, G, 2.0);
}

arma::mat TpsKernel::grad_X_knot_free(const arma::mat& X, const arma::mat& S, double scale) const {
  refresh(X);
  const arma::uword n = X.n_cols;
  // K = E E + C^T C with E symmetric: dL/dE = G E + E G, and E_ij moves with x_i and x_j, so
  //   W = (Gs E + E Gs) .* eta'/r,  Gs = G + G^T (G need not be symmetric),
  //   dL/dx_i = x_i (W 1)_i - (X W)_i + (X Gs)_i   (W_ii = 0; X Gs from C^T C).
  // The one N^3 step is the symmetric rank-2N update Gs E + E Gs (syr2k: one triangle, the
  // flops of one product); the rest is one pass over that triangle and one thin product.
  symmetric::ensure_size(work_, n);
  symmetric::syr2k(S, cache_E_, work_, scale);
  // work_ <- W - Gs on the upper triangle, r = W 1 on the way; then one thin symmetric product.
  arma::vec r(n, arma::fill::zeros);
  for (arma::uword j = 0; j < n; ++j) {
    double* w = work_.colptr(j);
    const double *dd = cache_D_.colptr(j), *g = S.colptr(j);
    double rj = 0.0;
    for (arma::uword i = 0; i < j; ++i) {
      const double wi = w[i] * dd[i];
      r[i] += wi;
      rj += wi;
      w[i] = wi - scale * g[i];
    }
    r[j] += rj;
    w[j] = -scale * g[j];
  }
  arma::mat XW;
  symmetric::symm('R', work_, X, XW);  // X (W - Gs)
  return X.each_row() % r.t() - XW;
}

void TpsKernel::diag_gradients(const arma::mat& X, const arma::vec& g, arma::vec& g_params,
                               arma::mat& g_X) const {
  if (knots_.is_empty())
    throw Error("internal: tps kernel diag gradient needs fixed knots (call fix_inputs)");
  g_params.reset();
  const arma::mat Phi = tps_basis(knots_, X, c_);
  g_X =
      grad_through_basis(X, knots_, 2.0 * (Phi.each_row() % g.t())) + 2.0 * (X.each_row() % g.t());
}

const TpsKernel::CrossBasis& TpsKernel::cross_basis(const arma::mat& X, const arma::mat& Z) const {
  auto same = [](const arma::mat& a, const arma::mat& b) {
    return a.n_rows == b.n_rows && a.n_cols == b.n_cols && arma::all(arma::vectorise(a == b));
  };
  for (const CrossBasis& c : cross_)
    if (same(c.X, X) && same(c.Z, Z)) return c;
  CrossBasis& c = cross_[cross_next_];
  cross_next_ ^= 1u;
  c.Phi = tps_basis(Z, X, c_, &c.D);
  c.Psi = tps_basis(Z, Z, c_, &c.Dz);
  c.X = X;
  c.Z = Z;
  return c;
}

arma::mat TpsKernel::cross_K(const arma::mat& X, const arma::mat& X2) const {
  if (!knots_.is_empty()) return K(X, X2);
  const CrossBasis& c = cross_basis(X, X2);
  arma::mat K = c.Phi.t() * c.Psi;
  K += X.t() * X2;
  K += 1.0;
  return K;
}

// K(X, Z) = Phi^T Psi + X^T Z + 1 with Phi_kj = eta(|z_k - x_j|), Psi_kl = eta(|z_k - z_l|).
// Given G = dL/dK: dL/dPhi = Psi G^T and dL/dPsi = Phi G. With P = (Psi G^T) .* D, an entry
// Phi_kj moves x_j by P_kj (x_j - z_k) and the knot z_k by P_kj (z_k - x_j); Psi_kl moves both
// z_k and z_l, so with S = Q + Q^T, Q = (Phi G) .* Dz, dL/dz_k gains sum_l S_kl (z_k - z_l).
// The linear part X^T Z gives Z G^T and X G. Two n m^2 products.
void TpsKernel::cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                                arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const {
  g_params.reset();
  if (!knots_.is_empty()) {
    // Fixed knots: K(X, X2) = Phi(X)^T Phi(X2) + X^T X2 + 1, so dL/dPhi(X) = Phi(X2) G^T.
    g_X = grad_through_basis(X, knots_, basis_at(X2) * G.t()) + X2 * G.t();
    if (g_X2) *g_X2 = grad_through_basis(X2, knots_, basis_at(X) * G) + X * G;
    return;
  }
  const CrossBasis& c = cross_basis(X, X2);
  const arma::mat P = (c.Psi * G.t()) % c.D;  // m x n
  g_X = X.each_row() % arma::sum(P, 0) - X2 * P + X2 * G.t();
  if (!g_X2) return;
  const arma::mat Q = (c.Phi * G) % c.Dz;  // m x m
  const arma::mat S = Q + Q.t();
  *g_X2 = X2.each_row() % (arma::sum(P, 1).t() + arma::sum(S, 1).t()) - X * P.t() - X2 * S + X * G;
}

arma::vec TpsKernel::sparse_diag(const arma::mat& X, const arma::mat& Z) const {
  if (!knots_.is_empty()) return diag(X);
  const CrossBasis& c = cross_basis(X, Z);
  return (arma::sum(arma::square(c.Phi), 0) + arma::sum(arma::square(X), 0) + 1.0).t();
}

// diag_j = |Phi_.j|^2 + |x_j|^2 + 1: dL/dPhi = 2 Phi diag(g), through the same P as above.
void TpsKernel::sparse_diag_gradients(const arma::mat& X, const arma::mat& Z, const arma::vec& g,
                                      arma::vec& g_params, arma::mat& g_X, arma::mat& g_Z) const {
  g_params.reset();
  if (!knots_.is_empty()) {
    g_X = grad_X_diag(X, g);
    return;
  }
  const CrossBasis& c = cross_basis(X, Z);
  arma::mat P = c.Phi % c.D;
  P.each_row() %= 2.0 * g.t();
  g_X = X.each_row() % (arma::sum(P, 0) + 2.0 * g.t()) - Z * P;
  g_Z += Z.each_row() % arma::sum(P, 1).t() - X * P.t();
}

}  // namespace drbench
