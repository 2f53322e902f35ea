#include "methods/manifold/sammon/sammon.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/mds_spectrum.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

namespace {

// 1/D with zeros where D = 0 (duplicate points: left out of the stress).
arma::vec safe_inverse(const arma::vec& D) {
  arma::vec R = D;
  R.transform([](double v) { return v > 0 ? 1.0 / v : 0.0; });
  return R;
}

// Squared latent distance of points i and j, Yt being n x q: the scalar tail of the loops below.
inline double row_sq_dist(const arma::mat& Yt, arma::uword i, arma::uword j) {
  double d2 = 0.0;
  for (arma::uword k = 0; k < Yt.n_cols; ++k) {
    const double t = Yt(i, k) - Yt(j, k);
    d2 += t * t;
  }
  return d2;
}

#if defined(__SSE2__)
// Squared latent distances of points i and i+1 to point j, Yt being n x q (one column per
// coordinate, so the two points are adjacent in memory).
inline __m128d pair_sq_dist(const arma::mat& Yt, arma::uword i, arma::uword j) {
  __m128d d2 = _mm_setzero_pd();
  for (arma::uword k = 0; k < Yt.n_cols; ++k) {
    const double* yk = Yt.colptr(k);
    const __m128d t = _mm_sub_pd(_mm_loadu_pd(yk + i), _mm_set1_pd(yk[j]));
    d2 = _mm_add_pd(d2, _mm_mul_pd(t, t));
  }
  return d2;
}

// The sum of the two lanes of v, low + high.
inline double lane_sum(__m128d v) {
  double lanes[2];
  _mm_storeu_pd(lanes, v);
  return lanes[0] + lanes[1];
}
#endif

// The stress alone, which the step halving evaluates several times per iteration (5-6 on USPS):
// the same sum as sammon_stress, two pairs at a time. SSE2 is the x86-64 baseline, so this needs
// no special build; other targets take the scalar loop, which is also every column's tail.
double stress_only(const arma::mat& D, const arma::mat& Y) {
  const arma::uword n = Y.n_cols;
  const arma::mat Yt = Y.t();  // n x q: pairs (i, i+1) are adjacent in every coordinate
  double E = 0.0, c = 0.0;
#if defined(__SSE2__)
  const __m128d zero = _mm_setzero_pd(), one = _mm_set1_pd(1.0);
  __m128d Ev = zero, cv = zero;
#endif
  for (arma::uword j = 1; j < n; ++j) {
    const double* Dj = D.colptr(j);
    arma::uword i = 0;
#if defined(__SSE2__)
    for (; i + 1 < j; i += 2) {
      const __m128d d2 = pair_sq_dist(Yt, i, j);
      const __m128d Dv = _mm_loadu_pd(Dj + i);
      const __m128d keep = _mm_cmpgt_pd(Dv, zero);  // pairs with D = 0 are left out
      const __m128d Dsafe = _mm_or_pd(_mm_and_pd(keep, Dv), _mm_andnot_pd(keep, one));
      const __m128d del = _mm_sub_pd(Dv, _mm_sqrt_pd(d2));
      Ev = _mm_add_pd(Ev, _mm_and_pd(keep, _mm_div_pd(_mm_mul_pd(del, del), Dsafe)));
      cv = _mm_add_pd(cv, _mm_and_pd(keep, Dv));
    }
#endif
    for (; i < j; ++i) {
      const double Dij = Dj[i];
      if (!(Dij > 0)) continue;
      const double d2 = row_sq_dist(Yt, i, j);
      const double del = Dij - std::sqrt(d2);
      E += del * del / Dij;
      c += Dij;
    }
  }
#if defined(__SSE2__)
  E += lane_sum(Ev);
  c += lane_sum(cv);
#endif
  return c > 0 ? E / c : 0.0;
}

// Stress of one new point v against the fixed training embedding (Yt: n x k, transposed so that
// training points j, j+1 are adjacent): sum_j Dinv_j (D_j - |v - y_j|)^2, Dinv_j = 0 leaving the
// pair out. The step halving of transform() calls this several times per iteration and point.
double point_stress_only(const arma::mat& Yt, const arma::vec& Dq, const arma::vec& Dinv,
                         const arma::vec& v) {
  const arma::uword n = Yt.n_rows, k = Yt.n_cols;
  double E = 0.0;
  arma::uword j = 0;
#if defined(__SSE2__)
  __m128d Ev = _mm_setzero_pd();
  for (; j + 1 < n; j += 2) {
    __m128d d2 = _mm_setzero_pd();
    for (arma::uword t = 0; t < k; ++t) {
      const __m128d u = _mm_sub_pd(_mm_set1_pd(v[t]), _mm_loadu_pd(Yt.colptr(t) + j));
      d2 = _mm_add_pd(d2, _mm_mul_pd(u, u));
    }
    const __m128d d = _mm_max_pd(_mm_sqrt_pd(d2), _mm_set1_pd(1e-300));
    const __m128d del = _mm_sub_pd(_mm_loadu_pd(Dq.memptr() + j), d);
    Ev = _mm_add_pd(Ev, _mm_mul_pd(_mm_mul_pd(del, del), _mm_loadu_pd(Dinv.memptr() + j)));
  }
  E = lane_sum(Ev);
#endif
  for (; j < n; ++j) {
    if (Dinv[j] == 0) continue;
    double d2 = 0.0;
    for (arma::uword t = 0; t < k; ++t) {
      const double u = v[t] - Yt(j, t);
      d2 += u * u;
    }
    const double del = Dq[j] - std::max(std::sqrt(d2), 1e-300);
    E += del * del * Dinv[j];
  }
  return E;
}

}  // namespace

double sammon_stress(const arma::mat& D, const arma::mat& Y, arma::mat* grad, arma::mat* hdiag) {
  const arma::uword n = Y.n_cols, q = Y.n_rows;
  if (D.n_rows != n || D.n_cols != n)
    throw Error("sammon_stress: distance matrix is " + std::to_string(D.n_rows) + " x " +
                std::to_string(D.n_cols) + " for " + std::to_string(n) + " points");
  if (!grad && !hdiag) return stress_only(D, Y);
  // One pass over the pairs i < j, O(n^2 q) and no n x n temporaries: a fit evaluates the stress
  // several times per iteration, and at n = 2,000 each n x n matrix is 32 MB of traffic.
  // Per pair, with u = y_i - y_j, d = |u|, A = (D - d) / (D d), Q = (1 + (D - d) / d) / (D d^2):
  //   grad_i = -2/c sum_j A u,   hdiag_i = -2/c sum_j (A - Q u^2)   (and the same for j, -u).
  // Pairs with D = 0 are left out; where d = 0 the stress has no gradient and the pair adds
  // nothing to it, as in Sammon's paper. Transposed layout (n x q): pairs (i, i+1) are adjacent.
  const arma::mat Yt = Y.t();
  arma::mat Gt(n, q, arma::fill::zeros), Ht(n, q, arma::fill::zeros);
  std::vector<double> gj(q), hj(q);
  double E = 0.0, c = 0.0;
#if defined(__SSE2__)
  const __m128d zero = _mm_setzero_pd(), one = _mm_set1_pd(1.0);
  __m128d Ev = zero, cv = zero;
  std::vector<double> gjv(2 * q), hjv(2 * q);  // two lanes per coordinate
  // 1/x where mask is set, 0 elsewhere (no division by zero).
  auto masked_inverse = [&](__m128d x, __m128d mask) {
    return _mm_and_pd(mask,
                      _mm_div_pd(one, _mm_or_pd(_mm_and_pd(mask, x), _mm_andnot_pd(mask, one))));
  };
#endif
  for (arma::uword j = 1; j < n; ++j) {
    const double* Dj = D.colptr(j);
    std::fill(gj.begin(), gj.end(), 0.0);
    std::fill(hj.begin(), hj.end(), 0.0);
    arma::uword i = 0;
#if defined(__SSE2__)
    std::fill(gjv.begin(), gjv.end(), 0.0);
    std::fill(hjv.begin(), hjv.end(), 0.0);
    for (; i + 1 < j; i += 2) {
      const __m128d d2 = pair_sq_dist(Yt, i, j);
      const __m128d Dv = _mm_loadu_pd(Dj + i);
      const __m128d Dinv = masked_inverse(Dv, _mm_cmpgt_pd(Dv, zero));
      const __m128d d = _mm_sqrt_pd(d2);
      const __m128d dinv = masked_inverse(d, _mm_cmpgt_pd(d, zero));
      const __m128d del = _mm_sub_pd(Dv, d);
      Ev = _mm_add_pd(Ev, _mm_mul_pd(_mm_mul_pd(del, del), Dinv));
      cv = _mm_add_pd(cv, _mm_and_pd(_mm_cmpgt_pd(Dv, zero), Dv));
      const __m128d A = _mm_mul_pd(_mm_mul_pd(del, Dinv), dinv);
      const __m128d Q = _mm_mul_pd(_mm_mul_pd(Dinv, _mm_mul_pd(dinv, dinv)),
                                   _mm_add_pd(one, _mm_mul_pd(del, dinv)));
      for (arma::uword k = 0; k < q; ++k) {
        const double* yk = Yt.colptr(k);
        const __m128d t = _mm_sub_pd(_mm_loadu_pd(yk + i), _mm_set1_pd(yk[j]));
        const __m128d au = _mm_mul_pd(A, t);
        const __m128d h = _mm_sub_pd(A, _mm_mul_pd(Q, _mm_mul_pd(t, t)));
        double* gk = Gt.colptr(k) + i;
        double* hk = Ht.colptr(k) + i;
        _mm_storeu_pd(gk, _mm_add_pd(_mm_loadu_pd(gk), au));
        _mm_storeu_pd(hk, _mm_add_pd(_mm_loadu_pd(hk), h));
        _mm_storeu_pd(&gjv[2 * k], _mm_sub_pd(_mm_loadu_pd(&gjv[2 * k]), au));
        _mm_storeu_pd(&hjv[2 * k], _mm_add_pd(_mm_loadu_pd(&hjv[2 * k]), h));
      }
    }
    for (arma::uword k = 0; k < q; ++k) {
      gj[k] += gjv[2 * k] + gjv[2 * k + 1];
      hj[k] += hjv[2 * k] + hjv[2 * k + 1];
    }
#endif
    for (; i < j; ++i) {
      const double Dij = Dj[i];
      if (!(Dij > 0)) continue;
      const double d2 = row_sq_dist(Yt, i, j);
      const double d = std::sqrt(d2), Dinv = 1.0 / Dij, del = Dij - d;
      c += Dij;
      E += del * del * Dinv;
      const double dinv = d > 0 ? 1.0 / d : 0.0;
      const double A = del * Dinv * dinv;
      const double Q = Dinv * dinv * dinv * (1.0 + del * dinv);
      for (arma::uword k = 0; k < q; ++k) {
        const double t = Yt(i, k) - Yt(j, k), h = A - Q * t * t;
        Gt(i, k) += A * t;
        gj[k] -= A * t;
        Ht(i, k) += h;
        hj[k] += h;
      }
    }
    for (arma::uword k = 0; k < q; ++k) {
      Gt(j, k) += gj[k];
      Ht(j, k) += hj[k];
    }
  }
#if defined(__SSE2__)
  E += lane_sum(Ev);
  c += lane_sum(cv);
#endif
  const double scale = c > 0 ? -2.0 / c : 0.0;
  if (grad) *grad = scale * Gt.t();
  if (hdiag) *hdiag = scale * Ht.t();
  return c > 0 ? E / c : 0.0;
}

void Sammon::fit(const FitInput& in) {
  X_ = in.X;
  const arma::mat D2 = sq_distances(in.X);
  const arma::mat D = arma::sqrt(D2);
  if (!(arma::accu(D) > 0)) throw MethodError("sammon: all training points coincide");
  MdsSpectrum init;
  init.fit(D2, in.dim, "sammon (classical MDS initialisation)");
  arma::mat Y = init.embedding();
  const int max_iter = s_.iterations;
  const double tol = s_.tol;
  const int max_halves = 20;
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  if (in.trace) in.trace->optimizer = "sammon-pseudo-newton";
  arma::mat g, h;
  double E = sammon_stress(D, Y, &g, &h);
  if (in.trace) in.trace->log(0, E, arma::norm(g, "fro"), seconds());
  int halvings_failed = 0;
  for (int it = 1; it <= max_iter; ++it) {
    const arma::mat step = g / arma::abs(h);
    double s = s_.step;
    arma::mat Ynew;
    double Enew = E;
    int j = 0;
    for (; j < max_halves; ++j) {
      Ynew = Y - s * step;
      Enew = sammon_stress(D, Ynew, nullptr, nullptr);
      if (Enew < E) break;
      s *= 0.5;
    }
    if (j == max_halves) {
      ++halvings_failed;
      break;  // no decrease along the step: converged to rounding level
    }
    const double rel = (E - Enew) / E;
    Y = Ynew;
    E = sammon_stress(D, Y, &g, &h);
    if (in.trace) in.trace->log(it, E, arma::norm(g, "fro"), seconds());
    check_task_deadline(it, E, max_iter);
    if (rel < tol) break;
  }
  if (in.trace && halvings_failed) in.trace->note("stopped", "step halving found no decrease");
  Y_ = Y;
  stress_ = E;
}

arma::mat Sammon::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != X_.n_rows)
    throw MethodError("sammon transform: new points have " + std::to_string(Xnew.n_rows) +
                      " features, the training data " + std::to_string(X_.n_rows));
  const arma::mat Dn = arma::sqrt(sq_distances(X_, Xnew));  // n x m
  const arma::uword k = Y_.n_rows;
  arma::mat Yn(k, Xnew.n_cols);
  const int max_iter = s_.iterations;
  const double step0 = s_.step, tol = s_.tol;
  const arma::mat Yt = Y_.t();
  for (arma::uword q = 0; q < Xnew.n_cols; ++q) {
    const arma::vec Dq = Dn.col(q);
    const arma::vec Dinv = safe_inverse(Dq);
    // Start from the training point nearest in input space, nudged off it when it is not a
    // duplicate (the stress is not differentiable where d_j = 0 and D_j > 0).
    const arma::uword near = Dq.index_min();
    arma::vec y = Y_.col(near);
    if (Dq(near) > 0) {
      arma::vec Dq2 = Dq;
      Dq2(near) = arma::datum::inf;
      y = 0.9 * y + 0.1 * Y_.col(Dq2.index_min());
    }
    std::vector<double> u(k);
    auto stress = [&](const arma::vec& v, arma::vec* g, arma::vec* h) {
      if (!g && !h) return point_stress_only(Yt, Dq, Dinv, v);
      double E = 0;
      if (g) g->zeros(k);
      if (h) h->zeros(k);
      for (arma::uword j = 0; j < Dq.n_elem; ++j) {
        if (Dinv(j) == 0) continue;
        const double* yj = Y_.colptr(j);
        double d2 = 0.0;
        for (arma::uword t = 0; t < k; ++t) {
          u[t] = v(t) - yj[t];
          d2 += u[t] * u[t];
        }
        const double dj = std::max(std::sqrt(d2), 1e-300), del = Dq(j) - dj;
        E += del * del * Dinv(j);
        if (g)
          for (arma::uword t = 0; t < k; ++t) (*g)(t) -= 2.0 * del * Dinv(j) / dj * u[t];
        if (h)
          for (arma::uword t = 0; t < k; ++t)
            (*h)(t) -= 2.0 * Dinv(j) / dj * (del - u[t] * u[t] / dj * (1.0 + del / dj));
      }
      return E;
    };
    arma::vec g, h;
    double E = stress(y, &g, &h);
    for (int it = 0; it < max_iter; ++it) {
      const arma::vec step = g / arma::abs(h);
      double s = step0, Enew = E;
      arma::vec ynew;
      int j = 0;
      for (; j < 20; ++j) {
        ynew = y - s * step;
        Enew = stress(ynew, nullptr, nullptr);
        if (Enew < E) break;
        s *= 0.5;
      }
      if (j == 20) break;
      const double rel = (E - Enew) / E;
      y = ynew;
      E = stress(y, &g, &h);
      check_task_deadline(it, E, max_iter);  // each new point's loop is a fit of its own
      if (rel < tol) break;
    }
    Yn.col(q) = y;
  }
  return Yn;
}

namespace {

// The parameters the contract and the budget both read.
struct SammonKeys {
  IntKey iterations = keywords::iterations(
      500, 100000, "pseudo-Newton steps of the fit and of every new point (TPSLVM: 1000)");
};

MethodInfo sammon_info() {
  MethodInfo m = describe_method(
      "sammon", "manifold",
      "Sammon mapping (pseudo-Newton on the Sammon stress); out-of-sample by per-point "
      "stress minimisation",
      "Sammon 1969, IEEE Trans. Computers C-18(5), eq. 1-6");
  const auto [iterations] = SammonKeys{};
  const RealKey tol =
      keywords::tolerance(1e-9, std::nullopt, "when the relative stress decrease falls below it")
          .with(keywords::formerly("tol"));
  const RealKey step = ParamSpec::real("step", 1.0, 0.0, 1.0,
                                       "initial step length ('magic factor'; Sammon used "
                                       "0.3-0.4), halved until the stress decreases",
                                       true);
  m.params = {iterations, tol, step};
  m.iterative = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return std::min<arma::uword>(s.n > 0 ? s.n - 1 : 0, s.d);
  };
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Sammon>(SammonSetting{int(iterations(p)), tol(p), step(p)});
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(sammon_info, make_budget([keys = SammonKeys{}](const TaskSize& z) {
                 return z.n * z.n * (z.d + 20.0 * double(keys.iterations(z.p)) * (z.q + 1));
               }))
}  // namespace drbench
