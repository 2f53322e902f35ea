#include "methods/gplvm/kernels/stationary.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "framework/linalg/distances.hpp"
#include "framework/linalg/exp_block.hpp"
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
  return cross_K_plus(X, X2, 0.0);
}

arma::mat StationaryKernel::cross_K_plus(const arma::mat& X, const arma::mat& X2,
                                         double every_pair) const {
  const double a = value(1), var = value(0);
  auto write_k = [&](const double* f, double* k, arma::uword n) {
    if (every_pair != 0.0)
      for (arma::uword i = 0; i < n; ++i) k[i] = var * f[i] + every_pair;
    else
      for (arma::uword i = 0; i < n; ++i) k[i] = var * f[i];
  };
  arma::mat K;
  if (X.n_rows == 2) {
    // s column by column from the coordinates, as column_s forms it (sums of squared
    // differences: exact zeros, no cancellation), into one column of scratch: no n x m s is
    // stored, and the q = 2 gradient sweep forms s again in its lanes, which costs less than
    // reading it back (docs/benchmarks.md).
    const arma::uword n = X.n_cols, m = X2.n_cols;
    cross_S_.set_size(n, 1);
    cross_F_.set_size(n, m);
    K.set_size(n, m);
    const double* x = X.memptr();
    double* s = cross_S_.memptr();
    for (arma::uword j = 0; j < m; ++j) {
      const double z0 = X2(0, j), z1 = X2(1, j);
      for (arma::uword i = 0; i < n; ++i) {
        const double d0 = x[2 * i] - z0, d1 = x[2 * i + 1] - z1;
        s[i] = (d0 * d0 + d1 * d1) * a;
      }
      profile(s, cross_F_.colptr(j), n);
      write_k(cross_F_.colptr(j), K.colptr(j), n);
    }
  } else {
    // value(1) * sq_distances(X, X2) in the same order of operations, written into the kept
    // buffers: at n = 60,000 the page faults of fresh n x m temporaries cost more than this
    // arithmetic (docs/benchmarks.md). f(s) and K follow column by column, while s is in cache.
    const arma::rowvec a2 = arma::sum(arma::square(X), 0), b2 = arma::sum(arma::square(X2), 0);
    cross_S_ = X.t() * X2;
    const arma::uword n = cross_S_.n_rows;
    cross_F_.set_size(cross_S_.n_rows, cross_S_.n_cols);
    K.set_size(cross_S_.n_rows, cross_S_.n_cols);
    for (arma::uword j = 0; j < cross_S_.n_cols; ++j) {
      double* s = cross_S_.colptr(j);
      for (arma::uword i = 0; i < n; ++i) {
        const double v = (-2.0 * s[i] + a2[i]) + b2[j];
        s[i] = a * (v < 0.0 ? 0.0 : v);
      }
      profile(s, cross_F_.colptr(j), n);
      write_k(cross_F_.colptr(j), K.colptr(j), n);
    }
  }
  cross_X_ = X;
  cross_X2_ = X2;
  cross_params_ = params();
  return K;
}

namespace {

using v2d = double __attribute__((vector_size(16)));
using v4d = double __attribute__((vector_size(32)));

// StationaryKernel::cross_gradients for q = 2 in one sweep over the n x m matrices: the weights
// w_ij = v f'(s_ij) G_ij are not stored; what the gradients need of them is summed on the way:
// sum f G, sum w s, and per point and per inducing point sum w, sum w x2_j, sum w x_i (the two
// thin products X2 W^T and X W, which took two BLAS calls that packed W first). Running sums
// are over four lanes (element i in lane i mod 4), one 4-wide or two 2-wide vectors, combined as
// (l0 + l1) + (l2 + l3): the same bits on both paths.
struct CrossSweep {
  arma::uword n, m;
  const double *F, *G, *x0, *x1, *z;  // z: X2's memory, 2 x m
  double v, a;                        // variance, inv_width
  double* df;                         // one column of f'(s), n
  double *rows, *t0, *t1;             // per point: sum_j w, sum_j w z_j (zeroed), n each
  double *cols, *xw;                  // per inducing point: sum_i w (m), sum_i w x_i (2 x m)
  double gv, ga;
  double df_scale;  // f'(s) = df_scale f(s) where not 0, otherwise from derivative
  const std::function<void(arma::uword, const double*, const double*, double*)>* derivative;
};

template <class V>
[[gnu::always_inline]] inline void load(V& out, const double* p) {
  std::memcpy(&out, p, sizeof out);
}
template <class V>
[[gnu::always_inline]] inline void store(double* p, const V& x) {
  std::memcpy(p, &x, sizeof x);
}

// Four lanes as NV vectors of L.
template <class V, int L>
[[gnu::always_inline]] inline void cross_sweep(CrossSweep& c) {
  constexpr int NV = 4 / L;
  V gv[NV] = {}, ga[NV] = {};
  const double v = c.v;
  for (arma::uword j = 0; j < c.m; ++j) {
    const double *f = c.F + j * c.n, *g = c.G + j * c.n;
    const double z0 = c.z[2 * j], z1 = c.z[2 * j + 1];
    // s_ij = a ((x_i0 - z_j0)^2 + (x_i1 - z_j1)^2), as cross_K formed it for f.
    auto s_at = [&](arma::uword i) {
      const double d0 = c.x0[i] - z0, d1 = c.x1[i] - z1;
      return (d0 * d0 + d1 * d1) * c.a;
    };
    if (c.df_scale == 0.0) {  // f'(s) from the profile, given s: s into df's storage first
      for (arma::uword i = 0; i < c.n; ++i) c.df[i] = s_at(i);
      (*c.derivative)(c.n, c.df, f, c.df);
    }
    V cs[NV] = {}, xa[NV] = {}, xb[NV] = {};
    arma::uword i = 0;
    for (; i + 4 <= c.n; i += 4)
      for (int h = 0; h < NV; ++h) {
        const arma::uword at = i + h * L;
        V fv, sv, gvv, dv, x0v, x1v, r, a0, a1;
        load(fv, f + at);
        load(gvv, g + at);
        if (c.df_scale != 0.0)
          dv = fv * c.df_scale;
        else
          load(dv, c.df + at);
        load(x0v, c.x0 + at);
        load(x1v, c.x1 + at);
        load(r, c.rows + at);
        load(a0, c.t0 + at);
        load(a1, c.t1 + at);
        const V d0 = x0v - z0, d1 = x1v - z1;
        sv = (d0 * d0 + d1 * d1) * c.a;
        const V w = (dv * gvv) * v;
        gv[h] += fv * gvv;
        ga[h] += w * sv;
        cs[h] += w;
        xa[h] += w * x0v;
        xb[h] += w * x1v;
        store(c.rows + at, r + w);
        store(c.t0 + at, a0 + w * z0);
        store(c.t1 + at, a1 + w * z1);
      }
    double lc[4], la[4], lb[4];
    for (int h = 0; h < NV; ++h) {
      store(lc + h * L, cs[h]);
      store(la + h * L, xa[h]);
      store(lb + h * L, xb[h]);
    }
    for (; i < c.n; ++i) {  // the last n mod 4 points, in lane 0
      const double w = ((c.df_scale != 0.0 ? f[i] * c.df_scale : c.df[i]) * g[i]) * v;
      lc[0] += w;
      la[0] += w * c.x0[i];
      lb[0] += w * c.x1[i];
      c.rows[i] += w;
      c.t0[i] += w * z0;
      c.t1[i] += w * z1;
      c.gv += f[i] * g[i];
      c.ga += w * s_at(i);
    }
    c.cols[j] = (lc[0] + lc[1]) + (lc[2] + lc[3]);
    c.xw[2 * j] = (la[0] + la[1]) + (la[2] + la[3]);
    c.xw[2 * j + 1] = (lb[0] + lb[1]) + (lb[2] + lb[3]);
  }
  double lg[4], ls[4];
  for (int h = 0; h < NV; ++h) {
    store(lg + h * L, gv[h]);
    store(ls + h * L, ga[h]);
  }
  c.gv += (lg[0] + lg[1]) + (lg[2] + lg[3]);
  c.ga += (ls[0] + ls[1]) + (ls[2] + ls[3]);
}

void cross_sweep_sse2(CrossSweep& c) {
  cross_sweep<v2d, 2>(c);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) void cross_sweep_avx2(CrossSweep& c) {
  cross_sweep<v4d, 4>(c);
}
#else
void cross_sweep_avx2(CrossSweep& c) {
  cross_sweep_sse2(c);
}
#endif

}  // namespace

void StationaryKernel::cross_sweep_q2(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                                      arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const {
  const double a = value(1), v = value(0);
  const arma::mat& F = cross_F_;
  const arma::uword n = X.n_cols, m = X2.n_cols;
  // Kept n x 6 work columns: the coordinates x0, x1 apart, one column of f'(s), and the
  // per-point sums.
  arma::mat& work = cross_work_;
  work.set_size(n, 6);
  work.col(0) = X.row(0).t();
  work.col(1) = X.row(1).t();
  work.cols(3, 5).zeros();
  arma::vec per_inducing(3 * m);  // sum_i w (m), then sum_i w x_i (2 x m)
  const std::function<void(arma::uword, const double*, const double*, double*)> derivative =
      [this](arma::uword len, const double* s, const double* f, double* df) {
        profile_derivative(s, f, df, len);
      };
  CrossSweep c{n,
               m,
               F.memptr(),
               G.memptr(),
               work.colptr(0),
               work.colptr(1),
               X2.memptr(),
               v,
               a,
               work.colptr(2),
               work.colptr(3),
               work.colptr(4),
               work.colptr(5),
               per_inducing.memptr(),
               per_inducing.memptr() + m,
               0.0,
               0.0,
               0.0,
               &derivative};
  derivative_scales_profile(c.df_scale);
  if (four_lanes())  // AVX2 (exp_block's dispatch)
    cross_sweep_avx2(c);
  else
    cross_sweep_sse2(c);
  g_params = {v * c.gv, c.ga};
  // dL/dx_i = 2a sum_j w_ij (x_i - x2_j) = 2a (x_i sum_j w_ij - sum_j w_ij x2_j), and the same
  // with the roles swapped for x2_j.
  g_X.set_size(2, n);
  for (arma::uword i = 0; i < n; ++i) {
    g_X(0, i) = (2.0 * a) * (X(0, i) * work(i, 3) - work(i, 4));
    g_X(1, i) = (2.0 * a) * (X(1, i) * work(i, 3) - work(i, 5));
  }
  if (g_X2) {
    g_X2->set_size(2, m);
    const double *sums = per_inducing.memptr(), *xw = sums + m;
    for (arma::uword j = 0; j < m; ++j) {
      (*g_X2)(0, j) = (2.0 * a) * (X2(0, j) * sums[j] - xw[2 * j]);
      (*g_X2)(1, j) = (2.0 * a) * (X2(1, j) * sums[j] - xw[2 * j + 1]);
    }
  }
}

void StationaryKernel::cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                                       arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const {
  const double a = value(1), v = value(0);
  const bool hit =
      arma::size(cross_X_) == arma::size(X) && arma::size(cross_X2_) == arma::size(X2) &&
      cross_params_.n_elem == n_params() && arma::all(cross_params_ == params()) &&
      arma::all(arma::vectorise(cross_X_ == X)) && arma::all(arma::vectorise(cross_X2_ == X2));
  if (X.n_rows == 2) {
    // The sweep reads f(s) as cross_K left it: cross_K first where it did not run at these inputs
    // (its K is not needed).
    if (!hit) cross_K_plus(X, X2, 0.0);
    cross_sweep_q2(X, X2, G, g_params, g_X, g_X2);
    return;
  }
  arma::mat S_own, F_own;
  if (!hit) {
    S_own = a * sq_distances(X, X2);  // n x m
    F_own.set_size(S_own.n_rows, S_own.n_cols);
    profile(S_own.memptr(), F_own.memptr(), S_own.n_elem);
  }
  // What cross_K at these inputs computed is read in place, and W's buffer is kept too.
  const arma::mat& S = hit ? cross_S_ : S_own;
  const arma::mat& F = hit ? cross_F_ : F_own;
  const arma::uword n = S.n_rows, m = S.n_cols;
  // One pass, column by column, for the elementwise part: w_ij = v f'(s_ij) G_ij, kept for the
  // two thin products below, and its sums, each over four independent running sums (one alone
  // is a serial chain of additions, which is what made a fused pass slower than Armadillo's).
  arma::mat& W = cross_W_;
  W.set_size(n, m);
  cross_rows_.zeros(n);
  arma::rowvec cols(m);
  double gv0 = 0.0, gv1 = 0.0, gv2 = 0.0, gv3 = 0.0, ga0 = 0.0, ga1 = 0.0, ga2 = 0.0, ga3 = 0.0;
  double* rows = cross_rows_.memptr();
  for (arma::uword j = 0; j < m; ++j) {
    const double *f = F.colptr(j), *s = S.colptr(j), *g = G.colptr(j);
    double* w = W.colptr(j);
    profile_derivative(s, f, w, n);
    double c0 = 0.0, c1 = 0.0, c2 = 0.0, c3 = 0.0;
    arma::uword i = 0;
    for (; i + 4 <= n; i += 4) {
      const double w0 = (w[i] * g[i]) * v, w1 = (w[i + 1] * g[i + 1]) * v,
                   w2 = (w[i + 2] * g[i + 2]) * v, w3 = (w[i + 3] * g[i + 3]) * v;
      w[i] = w0;
      w[i + 1] = w1;
      w[i + 2] = w2;
      w[i + 3] = w3;
      gv0 += f[i] * g[i];
      gv1 += f[i + 1] * g[i + 1];
      gv2 += f[i + 2] * g[i + 2];
      gv3 += f[i + 3] * g[i + 3];
      ga0 += w0 * s[i];
      ga1 += w1 * s[i + 1];
      ga2 += w2 * s[i + 2];
      ga3 += w3 * s[i + 3];
      c0 += w0;
      c1 += w1;
      c2 += w2;
      c3 += w3;
      rows[i] += w0;
      rows[i + 1] += w1;
      rows[i + 2] += w2;
      rows[i + 3] += w3;
    }
    for (; i < n; ++i) {
      const double wi = (w[i] * g[i]) * v;
      w[i] = wi;
      gv0 += f[i] * g[i];
      ga0 += wi * s[i];
      c0 += wi;
      rows[i] += wi;
    }
    cols[j] = (c0 + c1) + (c2 + c3);
  }
  // dK/dlog v = K; dK/dlog a = v f'(s) s.
  g_params = {v * ((gv0 + gv1) + (gv2 + gv3)), (ga0 + ga1) + (ga2 + ga3)};
  // dL/dx_i = 2a sum_j W_ij (x_i - x2_j), and the same with the roles swapped for x2_j.
  g_X = (2.0 * a) * (X.each_row() % cross_rows_.t() - X2 * W.t());
  if (g_X2) *g_X2 = (2.0 * a) * (X2.each_row() % cols - X * W);
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
