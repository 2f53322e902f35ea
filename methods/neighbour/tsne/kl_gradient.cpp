#include "methods/neighbour/tsne/kl_gradient.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/nbody/space_tree.hpp"
#include "framework/nbody/sparse_edge_sums.hpp"
#include "framework/support/parallel.hpp"

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

// Attractive forces over the stored entries of P (column i holds p_.i = p_i. by symmetry), times
// the exaggeration, written into grad4; returns sum_ij p_ij ln w_ij when want_kl. Each point's
// share of the sum is added in point order, so the result does not depend on the thread count.
template <int D>
double attractive(const arma::sp_mat& P, const arma::mat& Y, double exaggeration, bool want_kl,
                  arma::mat& grad4, unsigned threads) {
  grad4.set_size(D, Y.n_cols);
  std::vector<double> cross(want_kl ? Y.n_cols : 0);
  sparse_edge_sums<D>(
      P, Y, threads,
      [want_kl](double p, double d2) {
        const double w = 1.0 / (1.0 + d2);
        return EdgeTerms{want_kl ? p * std::log(w) : 0.0, p * w};
      },
      want_kl ? cross.data() : nullptr, grad4.memptr());
  grad4 *= exaggeration;
  double total = 0.0;
  for (double c : cross) total += c;
  return total;
}

template <int D>
double bh_gradient(const arma::sp_mat& P, double plogp, const arma::mat& Y, double theta,
                   double exaggeration, bool want_kl, arma::mat& grad4, unsigned threads) {
  const arma::uword n = Y.n_cols;
  const double cross = attractive<D>(P, Y, exaggeration, want_kl, grad4, threads);
  // Repulsive forces from the tree, queried in its own order for locality; each point's share of
  // Z is kept and summed in tree order, the same bits for any thread count.
  const SpaceTree<D> tree(Y);
  arma::mat R(D, n, arma::fill::zeros);
  std::vector<double> z(n);
  const double theta2 = theta * theta;
  const std::vector<arma::uword>& order = tree.order();
  parallel_blocks(n, threads, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t t = b; t < e; ++t) {
      const arma::uword i = order[t];
      z[i] = tree.repulsion(i, theta2, R.colptr(i));
    }
  });
  double Z = 0.0;
  for (arma::uword i : order) Z += z[i];
  grad4 -= R / Z;
  return want_kl ? plogp - cross + std::log(Z) : std::numeric_limits<double>::quiet_NaN();
}

template <int D>
double fft_gradient(const arma::sp_mat& P, double plogp, const arma::mat& Y,
                    const FftInterpolationOptions& fft, double exaggeration, bool want_kl,
                    arma::mat& grad4, unsigned threads, FftGridInfo* info, FftKernelSums& sums) {
  const arma::uword n = Y.n_cols;
  const double cross = attractive<D>(P, Y, exaggeration, want_kl, grad4, threads);
  // The kernel sums depend on differences only: centring the box keeps |y|^2 small in the
  // expansion of Z below, where it would otherwise cancel digits.
  arma::mat Yc = Y;
  for (int k = 0; k < D; ++k) Yc.row(k) -= 0.5 * (Y.row(k).min() + Y.row(k).max());
  // With w = 1 / (1 + r^2), sum_j w_ij^2 (y_i - y_j) = y_i phi_0 - phi_y and
  // sum_j w_ij = sum_j w_ij^2 (1 + r_ij^2) = (1 + |y_i|^2) phi_0 - 2 y_i . phi_y + phi_|y|^2,
  // where phi_q sums w^2 with charges q = 1, y (each coordinate) and |y|^2.
  arma::mat Q(D + 2, n);
  Q.row(0).ones();
  Q.rows(1, D) = Yc;
  Q.row(D + 1) = arma::sum(arma::square(Yc), 0);
  const arma::mat& phi = sums(
      Yc, Q,
      [](double r2) {
        const double w = 1.0 / (1.0 + r2);
        return w * w;
      },
      fft, threads, info);
  double Z = 0.0;
  for (arma::uword i = 0; i < n; ++i) {
    const double* f = phi.colptr(i);
    const double* y = Yc.colptr(i);
    double y2 = 0.0, dot = 0.0;
    for (int k = 0; k < D; ++k) {
      y2 += y[k] * y[k];
      dot += y[k] * f[1 + k];
    }
    Z += (1.0 + y2) * f[0] - 2.0 * dot + f[D + 1];
  }
  Z -= static_cast<double>(n);  // the j = i terms, w_ii = 1
  if (!(Z > 0)) throw MethodError("tsne: the interpolated normalisation Z is not positive");
  parallel_blocks(n, threads, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) {
      const double* f = phi.colptr(i);
      const double* y = Yc.colptr(i);
      double* g = grad4.colptr(i);
      for (int k = 0; k < D; ++k) g[k] -= (y[k] * f[0] - f[1 + k]) / Z;
    }
  });
  return want_kl ? plogp - cross + std::log(Z) : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

double tsne_bh_gradient(const arma::sp_mat& P, double plogp, const arma::mat& Y, double theta,
                        double exaggeration, bool want_kl, arma::mat& grad4, unsigned threads) {
  if (P.n_rows != Y.n_cols || P.n_cols != Y.n_cols)
    throw Error("internal: t-SNE P does not match Y");
  switch (Y.n_rows) {
    case 1:
      return bh_gradient<1>(P, plogp, Y, theta, exaggeration, want_kl, grad4, threads);
    case 2:
      return bh_gradient<2>(P, plogp, Y, theta, exaggeration, want_kl, grad4, threads);
    case 3:
      return bh_gradient<3>(P, plogp, Y, theta, exaggeration, want_kl, grad4, threads);
    default:
      throw MethodError("tsne: Barnes-Hut works in 1 to 3 dimensions, asked for " +
                        std::to_string(Y.n_rows) + " (fix: 'gradient: exact' or a lower dim)");
  }
}

double tsne_fft_gradient(const arma::sp_mat& P, double plogp, const arma::mat& Y,
                         const FftInterpolationOptions& fft, double exaggeration, bool want_kl,
                         arma::mat& grad4, unsigned threads, FftGridInfo* info,
                         FftKernelSums* sums) {
  if (P.n_rows != Y.n_cols || P.n_cols != Y.n_cols)
    throw Error("internal: t-SNE P does not match Y");
  FftKernelSums own;
  FftKernelSums& s = sums ? *sums : own;
  switch (Y.n_rows) {
    case 1:
      return fft_gradient<1>(P, plogp, Y, fft, exaggeration, want_kl, grad4, threads, info, s);
    case 2:
      return fft_gradient<2>(P, plogp, Y, fft, exaggeration, want_kl, grad4, threads, info, s);
    default:
      throw MethodError("tsne: the FFT gradient works in 1 or 2 dimensions, asked for " +
                        std::to_string(Y.n_rows) +
                        " (fix: 'gradient: barnes_hut' for 3, 'gradient: exact' above)");
  }
}

}  // namespace drbench
