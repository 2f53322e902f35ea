#include "methods/gplvm/kernels/stationary.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "framework/linalg/distances.hpp"
#include "methods/gplvm/symmetric.hpp"

namespace drbench {

void scaled_sq_distances_upper(const arma::mat& X, double scale, arma::mat& S,
                               const std::function<void(arma::uword)>& column) {
  const arma::uword n = X.n_cols;
  // X^T X on the upper triangle: the BLAS call Armadillo makes for X.t() * X, without its
  // copy to the lower triangle (a strided N^2 pass).
  symmetric::ensure_size(S, n);
  symmetric::syrk('T', 1.0, X, 0.0, S);
  const arma::rowvec sq = arma::sum(arma::square(X), 0);
  for (arma::uword j = 0; j < n; ++j) {
    double* s = S.colptr(j);
    for (arma::uword i = 0; i < j; ++i) {
      // |x_i|^2 + |x_j|^2 - 2 x_i'x_j in sq_distances' order, clamped at 0 against rounding.
      const double v = (-2.0 * s[i] + sq[i]) + sq[j];
      s[i] = scale * (v > 0.0 ? v : 0.0);
    }
    s[j] = 0.0;
    if (column) column(j);
  }
}

void StationaryKernel::column_s(arma::uword j, arma::uword i0, arma::uword i1, double* s) const {
  const arma::uword q = cache_X_.n_rows;
  const double *x = cache_X_.memptr(), *xj = x + j * q;
  const double a = value(1);
  // Sums of squared coordinate differences, not |x_i|^2 + |x_j|^2 - 2 x_i'x_j: exact zeros for
  // equal points and no cancellation. One point at a time (its coordinates are contiguous), each
  // sum in k order from 0.
  if (q == 2) {
    const double c0 = xj[0], c1 = xj[1];
    for (arma::uword i = i0; i < i1; ++i) {
      const double d0 = x[2 * i] - c0, d1 = x[2 * i + 1] - c1;
      s[i - i0] = (d0 * d0 + d1 * d1) * a;
    }
    return;
  }
  // Four points at a time: four independent chains instead of one latency-bound sum.
  arma::uword i = i0;
  for (; i + 3 < i1; i += 4) {
    const double *xa = x + i * q, *xb = xa + q, *xc = xb + q, *xd = xc + q;
    double sa = 0.0, sb = 0.0, sc = 0.0, sd = 0.0;
    for (arma::uword k = 0; k < q; ++k) {
      const double c = xj[k], da = xa[k] - c, db = xb[k] - c, dc = xc[k] - c, dd = xd[k] - c;
      sa += da * da;
      sb += db * db;
      sc += dc * dc;
      sd += dd * dd;
    }
    s[i - i0] = sa * a;
    s[i + 1 - i0] = sb * a;
    s[i + 2 - i0] = sc * a;
    s[i + 3 - i0] = sd * a;
  }
  for (; i < i1; ++i) {
    const double* xi = x + i * q;
    double acc = 0.0;
    for (arma::uword k = 0; k < q; ++k) {
      const double d = xi[k] - xj[k];
      acc += d * d;
    }
    s[i - i0] = acc * a;
  }
}

void StationaryKernel::refresh(const arma::mat& X,
                               const std::function<void(arma::uword)>& column) const {
  const bool hit = cache_X_.n_rows == X.n_rows && cache_X_.n_cols == X.n_cols &&
                   cache_params_.n_elem == n_params() && arma::all(cache_params_ == params()) &&
                   arma::all(arma::vectorise(cache_X_ == X));
  const arma::uword n = X.n_cols;
  if (!hit) {
    cache_X_ = X;
    cache_params_ = params();
    symmetric::ensure_size(cache_F_, n);
  }
  if (hit && !column) return;
  std::vector<double> sj(hit ? 0 : n);
  for (arma::uword j = 0; j < n; ++j) {
    if (!hit) {
      column_s(j, 0, j, sj.data());
      sj[j] = 0.0;
      profile(sj.data(), cache_F_.colptr(j), j + 1);
    }
    if (column) column(j);
  }
}

void StationaryKernel::upper_K(const arma::mat& X, const UpperFill& fill, arma::mat& K) const {
  const double var = value(0), c = fill.every_pair, w = fill.same_point;
  const bool overwrite = fill.overwrite;
  refresh(X, [&](arma::uword j) {
    const double* f = cache_F_.colptr(j);
    double* k = K.colptr(j);
    if (overwrite)
      for (arma::uword i = 0; i <= j; ++i) k[i] = var * f[i] + c;
    else
      for (arma::uword i = 0; i <= j; ++i) k[i] = k[i] + var * f[i] + c;
    k[j] += w;
  });
}

arma::mat StationaryKernel::K(const arma::mat& X) const {
  refresh(X);
  arma::mat K(X.n_cols, X.n_cols, arma::fill::zeros);
  symmetric::add_upper(cache_F_, value(0), K);
  return K;
}

arma::mat StationaryKernel::K(const arma::mat& X, const arma::mat& X2) const {
  arma::mat F = value(1) * sq_distances(X, X2);
  profile(F.memptr(), F.memptr(), F.n_elem);
  return value(0) * F;
}

double StationaryKernel::at_zero() const {
  const double zero = 0.0;
  double f0 = 0.0;
  profile(&zero, &f0, 1);
  return value(0) * f0;
}

arma::vec StationaryKernel::diag(const arma::mat& X) const {
  return arma::vec(X.n_cols, arma::fill::value(at_zero()));
}

namespace {

// The pair pass of StationaryKernel::gradients: [X W; 1^T W] accumulated pair by pair into
// XeW ((q + 1) x n) for the pairs (i, j), i in [i0, i1), no W stored.
void accumulate_pairs(const double* x, arma::uword q, arma::uword i0, arma::uword i1, arma::uword j,
                      const double* w, double* xew) {
  const arma::uword e = q + 1;
  const double* xj = x + j * q;
  double accj[16] = {};
  for (arma::uword i = i0; i < i1; ++i) {
    const double wi = w[i - i0];
    const double* xi = x + i * q;
    double* yi = xew + i * e;
    for (arma::uword k = 0; k < q; ++k) {
      yi[k] += wi * xj[k];
      accj[k] += wi * xi[k];
    }
    yi[q] += wi;
    accj[q] += wi;
  }
  double* yj = xew + j * e;
  for (arma::uword k = 0; k <= q; ++k) yj[k] += accj[k];
}

// The same for q = 2, the common case, with the sums for column j in registers and two
// independent chains each (one chain through memory is latency-bound).
void accumulate_pairs_q2(const double* x, arma::uword i0, arma::uword i1, arma::uword j,
                         const double* w, double* xew) {
  const double xj0 = x[2 * j], xj1 = x[2 * j + 1];
  double a0 = 0.0, a1 = 0.0, a2 = 0.0, b0 = 0.0, b1 = 0.0, b2 = 0.0;
  arma::uword i = i0;
  for (; i + 1 < i1; i += 2) {
    const double wa = w[i - i0], wb = w[i + 1 - i0];
    const double *xa = x + 2 * i, *xb = xa + 2;
    double *ya = xew + 3 * i, *yb = ya + 3;
    ya[0] += wa * xj0;
    ya[1] += wa * xj1;
    ya[2] += wa;
    yb[0] += wb * xj0;
    yb[1] += wb * xj1;
    yb[2] += wb;
    a0 += wa * xa[0];
    a1 += wa * xa[1];
    a2 += wa;
    b0 += wb * xb[0];
    b1 += wb * xb[1];
    b2 += wb;
  }
  if (i < i1) {
    const double wa = w[i - i0];
    double* ya = xew + 3 * i;
    ya[0] += wa * xj0;
    ya[1] += wa * xj1;
    ya[2] += wa;
    a0 += wa * x[2 * i];
    a1 += wa * x[2 * i + 1];
    a2 += wa;
  }
  double* yj = xew + 3 * j;
  yj[0] += a0 + b0;
  yj[1] += a1 + b1;
  yj[2] += a2 + b2;
}

}  // namespace

// With w_ij = variance * (G_ij + G_ji) f'(s_ij) over pairs i < j (s = a r^2, a = inv_width):
//   dL/dlog variance = sum(G .* K),
//   dL/dlog a = sum_{i<j} w_ij s_ij,
//   dL/dx_i = 2a sum_j w_ij (x_i - x_j) = 2a (x_i (W 1)_i - (X W)_i),
// all from one pass over the upper triangles; for q <= 2 the thin products X W and W 1 are
// accumulated in the same pass, otherwise W goes through a reused buffer and one symmetric
// product (from q = 3 on, (q + 1) running sums per pair cost more than that). Returns sum_{i<j}
// (G_ij + G_ji), which a folded bias needs.
template <class Pairs>
double StationaryKernel::gradient_pass(const arma::mat& X, Pairs&& pairs, const arma::mat& G,
                                       arma::vec& g_params, arma::mat& g_X) const {
  const arma::uword n = X.n_cols, q = X.n_rows;
  const double var = value(0), a = value(1);
  const bool inline_products = q <= 2;
  if (!inline_products) symmetric::ensure_size(cache_W_, n);
  arma::mat XeW(q + 1, n, arma::fill::zeros);
  arma::vec df(n), wseg(n), sseg(n);
  double g_var = 0.0, g_a = 0.0, g_sum = 0.0;
  pairs([&](arma::uword j, arma::uword i0, arma::uword i1, auto&& gsum) {
    const double* f = cache_F_.colptr(j) + i0;                              // f[i - i0]
    double* w = inline_products ? wseg.memptr() : cache_W_.colptr(j) + i0;  // w[i - i0]
    const double* s = sseg.memptr();                                        // s[i - i0]
    column_s(j, i0, i1, sseg.memptr());
    profile_derivative(s, f, df.memptr(), i1 - i0);
    // Two chains for each sum: one alone is latency-bound.
    double gv0 = 0.0, gv1 = 0.0, ga0 = 0.0, ga1 = 0.0, gs0 = 0.0, gs1 = 0.0;
    const arma::uword m = i1 - i0;
    arma::uword k = 0;
    for (; k + 1 < m; k += 2) {
      const double ga = gsum(i0 + k), gb = gsum(i0 + k + 1);
      gs0 += ga;
      gs1 += gb;
      gv0 += ga * f[k];
      gv1 += gb * f[k + 1];
      const double wa = var * ga * df[k], wb = var * gb * df[k + 1];
      w[k] = wa;
      w[k + 1] = wb;
      ga0 += wa * s[k];
      ga1 += wb * s[k + 1];
    }
    if (k < m) {
      const double ga = gsum(i0 + k);
      gs0 += ga;
      gv0 += ga * f[k];
      w[k] = var * ga * df[k];
      ga0 += w[k] * s[k];
    }
    g_var += gv0 + gv1;
    g_a += ga0 + ga1;
    g_sum += gs0 + gs1;
    if (!inline_products) return;
    if (q == 2)
      accumulate_pairs_q2(X.memptr(), i0, i1, j, wseg.memptr(), XeW.memptr());
    else
      accumulate_pairs(X.memptr(), q, i0, i1, j, wseg.memptr(), XeW.memptr());
  });
  for (arma::uword j = 0; j < n; ++j) g_var += G.at(j, j) * cache_F_.at(j, j);
  if (!inline_products) {
    cache_W_.diag().zeros();
    const arma::mat Xe = arma::join_cols(X, arma::ones<arma::rowvec>(n));
    symmetric::symm('R', cache_W_, Xe, XeW);
  }
  g_params = {var * g_var, g_a};
  g_X = (2.0 * a) * (X.each_row() % XeW.row(q) - XeW.head_rows(q));
  return g_sum;
}

// G need not be symmetric: both triangles are read, 64 x 64 tile by tile.
void StationaryKernel::gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                                 arma::mat& g_X) const {
  refresh(X);
  const arma::uword n = X.n_cols;
  const double* g = G.memptr();
  auto tiles = [&](auto&& visit) {
    symmetric::for_upper_segments(n, [&](arma::uword j, arma::uword i0, arma::uword i1) {
      visit(j, i0, i1, [&](arma::uword i) { return g[i + j * n] + g[j + i * n]; });
    });
  };
  gradient_pass(X, tiles, G, g_params, g_X);
}

// G symmetric, upper triangle only: whole columns, contiguous, and G's sums on the way.
void StationaryKernel::upper_gradients(const arma::mat& X, arma::mat& G, arma::vec& g_params,
                                       arma::mat& g_X, UpperSums* sums) const {
  refresh(X);
  const arma::uword n = X.n_cols;
  auto columns = [&](auto&& visit) {
    for (arma::uword j = 1; j < n; ++j) {
      const double* g = G.colptr(j);
      visit(j, 0, j, [g](arma::uword i) { return g[i] + g[i]; });
    }
  };
  const double twice_strict = gradient_pass(X, columns, G, g_params, g_X);
  if (sums && !sums->filled) {
    double diagonal = 0.0;
    for (arma::uword j = 0; j < n; ++j) diagonal += G.at(j, j);
    *sums = UpperSums{true, 0.5 * twice_strict, diagonal};  // halving is exact
  }
}

arma::mat StationaryKernel::cross_K(const arma::mat& X, const arma::mat& X2) const {
  // value(1) * sq_distances(X, X2) in the same order of operations, written into the kept
  // buffers: at n = 60,000 the page faults of fresh n x m temporaries cost more than this
  // arithmetic (docs/benchmarks.md).
  const arma::rowvec a2 = arma::sum(arma::square(X), 0), b2 = arma::sum(arma::square(X2), 0);
  cross_S_ = X.t() * X2;
  const double a = value(1);
  const arma::uword n = cross_S_.n_rows;
  for (arma::uword j = 0; j < cross_S_.n_cols; ++j) {
    double* s = cross_S_.colptr(j);
    for (arma::uword i = 0; i < n; ++i) {
      const double v = (-2.0 * s[i] + a2[i]) + b2[j];
      s[i] = a * (v < 0.0 ? 0.0 : v);
    }
  }
  cross_F_.set_size(cross_S_.n_rows, cross_S_.n_cols);
  profile(cross_S_.memptr(), cross_F_.memptr(), cross_S_.n_elem);
  cross_X_ = X;
  cross_X2_ = X2;
  cross_params_ = params();
  return value(0) * cross_F_;
}

void StationaryKernel::cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                                       arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const {
  const double a = value(1), v = value(0);
  const bool hit =
      arma::size(cross_X_) == arma::size(X) && arma::size(cross_X2_) == arma::size(X2) &&
      cross_params_.n_elem == n_params() && arma::all(cross_params_ == params()) &&
      arma::all(arma::vectorise(cross_X_ == X)) && arma::all(arma::vectorise(cross_X2_ == X2));
  arma::mat S_own, F_own;
  if (!hit) {
    S_own = a * sq_distances(X, X2);  // n x m
    F_own.set_size(S_own.n_rows, S_own.n_cols);
    profile(S_own.memptr(), F_own.memptr(), S_own.n_elem);
  }
  // What cross_K at these inputs computed is read in place, and W's buffer is kept too.
  const arma::mat& S = hit ? cross_S_ : S_own;
  const arma::mat& F = hit ? cross_F_ : F_own;
  arma::mat& W = cross_W_;
  W.set_size(S.n_rows, S.n_cols);
  profile_derivative(S.memptr(), F.memptr(), W.memptr(), S.n_elem);
  W %= G;
  W *= v;
  // dK/dlog v = K; dK/dlog a = v f'(s) s.
  g_params = {v * arma::accu(F % G), arma::accu(W % S)};
  // dL/dx_i = 2a sum_j W_ij (x_i - x2_j), and the same with the roles swapped for x2_j.
  g_X = (2.0 * a) * (X.each_row() % arma::sum(W, 1).t() - X2 * W.t());
  if (g_X2) *g_X2 = (2.0 * a) * (X2.each_row() % arma::sum(W, 0) - X * W);
}

// k(x, x) = variance f(0) does not move with x.
void StationaryKernel::diag_gradients(const arma::mat& X, const arma::vec& g, arma::vec& g_params,
                                      arma::mat& g_X) const {
  g_params = {at_zero() * arma::accu(g), 0.0};
  g_X.zeros(X.n_rows, X.n_cols);
}

void Matern32Kernel::profile(const double* s, double* f, arma::uword n) const {
  for (arma::uword i = 0; i < n; ++i) {
    const double u = std::sqrt(3.0 * s[i]);
    f[i] = (1.0 + u) * std::exp(-u);
  }
}

void Matern32Kernel::profile_derivative(const double* s, const double*, double* df,
                                        arma::uword n) const {
  // df/du = -u exp(-u), du/ds = 3 / (2u): df/ds = -3/2 exp(-u), finite at s = 0.
  for (arma::uword i = 0; i < n; ++i) df[i] = -1.5 * std::exp(-std::sqrt(3.0 * s[i]));
}

void Matern52Kernel::profile(const double* s, double* f, arma::uword n) const {
  for (arma::uword i = 0; i < n; ++i) {
    const double u = std::sqrt(5.0 * s[i]);
    f[i] = (1.0 + u + u * u / 3.0) * std::exp(-u);
  }
}

void Matern52Kernel::profile_derivative(const double* s, const double*, double* df,
                                        arma::uword n) const {
  // df/du = -u (1 + u) exp(-u) / 3, du/ds = 5 / (2u): df/ds = -5/6 (1 + u) exp(-u).
  for (arma::uword i = 0; i < n; ++i) {
    const double u = std::sqrt(5.0 * s[i]);
    df[i] = -(5.0 / 6.0) * (1.0 + u) * std::exp(-u);
  }
}

}  // namespace drbench
