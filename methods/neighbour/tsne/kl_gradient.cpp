#include "methods/neighbour/tsne/kl_gradient.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/space_tree.hpp"

namespace drbench {

double p_log_p(const arma::mat& P) {
  double s = 0.0;
  for (double p : P)
    if (p > 0) s += p * std::log(p);
  return s;
}

double p_log_p(const arma::sp_mat& P) {
  double s = 0.0;
  for (auto it = P.begin(); it != P.end(); ++it)
    if (*it > 0) s += *it * std::log(*it);
  return s;
}

double tsne_exact_gradient(const arma::mat& P, double plogp, const arma::mat& Y,
                           double exaggeration, bool want_kl, arma::mat& grad4) {
  const arma::uword n = Y.n_cols, d = Y.n_rows;
  if (P.n_rows != n || P.n_cols != n) throw Error("internal: t-SNE P does not match Y");
  arma::mat A(d, n, arma::fill::zeros), R(d, n, arma::fill::zeros);
  double Z = 0.0, cross = 0.0;
  std::vector<double> u(d);
  // One pass over the pairs i < j; both ends get their share.
  for (arma::uword j = 1; j < n; ++j) {
    const double* yj = Y.colptr(j);
    const double* Pj = P.colptr(j);
    double* Aj = A.colptr(j);
    double* Rj = R.colptr(j);
    for (arma::uword i = 0; i < j; ++i) {
      const double* yi = Y.colptr(i);
      double d2 = 0.0;
      for (arma::uword k = 0; k < d; ++k) {
        u[k] = yi[k] - yj[k];
        d2 += u[k] * u[k];
      }
      const double w = 1.0 / (1.0 + d2);
      Z += w;
      const double pij = Pj[i];
      if (want_kl && pij > 0) cross += pij * std::log(w);
      const double a = exaggeration * pij * w, r = w * w;
      double* Ai = A.colptr(i);
      double* Ri = R.colptr(i);
      for (arma::uword k = 0; k < d; ++k) {
        Ai[k] += a * u[k];
        Aj[k] -= a * u[k];
        Ri[k] += r * u[k];
        Rj[k] -= r * u[k];
      }
    }
  }
  Z *= 2.0;  // ordered pairs
  grad4 = A - R / Z;
  // Each unordered pair stands for p_ij and p_ji: twice the cross term.
  return want_kl ? plogp - 2.0 * cross + std::log(Z) : std::numeric_limits<double>::quiet_NaN();
}

namespace {

template <int D>
double bh_gradient(const arma::sp_mat& P, double plogp, const arma::mat& Y, double theta,
                   double exaggeration, bool want_kl, arma::mat& grad4) {
  const arma::uword n = Y.n_cols;
  grad4.zeros(D, n);
  // Attractive forces over the stored entries of P (column i holds p_.i = p_i. by symmetry).
  double cross = 0.0;
  const arma::uword* cp = P.col_ptrs;
  const arma::uword* ri = P.row_indices;
  const double* pv = P.values;
  for (arma::uword i = 0; i < n; ++i) {
    const double* yi = Y.colptr(i);
    double f[D] = {};
    for (arma::uword s = cp[i]; s < cp[i + 1]; ++s) {
      const double* yj = Y.colptr(ri[s]);
      double u[D], d2 = 0.0;
      for (int k = 0; k < D; ++k) {
        u[k] = yi[k] - yj[k];
        d2 += u[k] * u[k];
      }
      const double w = 1.0 / (1.0 + d2);
      if (want_kl) cross += pv[s] * std::log(w);
      const double a = pv[s] * w;
      for (int k = 0; k < D; ++k) f[k] += a * u[k];
    }
    double* g = grad4.colptr(i);
    for (int k = 0; k < D; ++k) g[k] = exaggeration * f[k];
  }
  // Repulsive forces from the tree, queried in its own order for locality.
  const SpaceTree<D> tree(Y);
  arma::mat R(D, n, arma::fill::zeros);
  double Z = 0.0;
  const double theta2 = theta * theta;
  for (arma::uword i : tree.order()) Z += tree.repulsion(i, theta2, R.colptr(i));
  grad4 -= R / Z;
  return want_kl ? plogp - cross + std::log(Z) : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

double tsne_bh_gradient(const arma::sp_mat& P, double plogp, const arma::mat& Y, double theta,
                        double exaggeration, bool want_kl, arma::mat& grad4) {
  if (P.n_rows != Y.n_cols || P.n_cols != Y.n_cols)
    throw Error("internal: t-SNE P does not match Y");
  switch (Y.n_rows) {
    case 1:
      return bh_gradient<1>(P, plogp, Y, theta, exaggeration, want_kl, grad4);
    case 2:
      return bh_gradient<2>(P, plogp, Y, theta, exaggeration, want_kl, grad4);
    case 3:
      return bh_gradient<3>(P, plogp, Y, theta, exaggeration, want_kl, grad4);
    default:
      throw MethodError("tsne: Barnes-Hut works in 1 to 3 dimensions, asked for " +
                        std::to_string(Y.n_rows) + " (fix: 'gradient: exact' or a lower dim)");
  }
}

}  // namespace drbench
