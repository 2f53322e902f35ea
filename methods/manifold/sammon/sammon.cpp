#include "methods/manifold/sammon/sammon.hpp"

#include <chrono>
#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "methods/manifold/mds/mds.hpp"

namespace drbench {

namespace {

// 1/D with zeros where D = 0 (the diagonal and duplicate points).
arma::mat safe_inverse(const arma::mat& D) {
  arma::mat R = D;
  R.transform([](double v) { return v > 0 ? 1.0 / v : 0.0; });
  return R;
}

}  // namespace

double sammon_stress(const arma::mat& D, const arma::mat& Y, arma::mat* grad, arma::mat* hdiag) {
  const arma::mat Dinv = safe_inverse(D);
  const double c = 0.5 * arma::accu(D);
  arma::mat d = arma::sqrt(sq_distances(Y));
  // Pairs left out (D = 0, including i = j) must not contribute: zero their mask.
  const arma::mat mask = arma::conv_to<arma::mat>::from(Dinv > 0);
  const arma::mat delta = (D - d) % mask;
  const double E = 0.5 * arma::accu(arma::square(delta) % Dinv) / c;
  if (grad || hdiag) {
    const arma::mat dinv = safe_inverse(d) % mask;
    const arma::mat A = delta % Dinv % dinv;  // (D - d) / (D d)
    const arma::rowvec a = arma::sum(A, 0);
    if (grad) *grad = (-2.0 / c) * (Y.each_row() % a - Y * A);
    if (hdiag) {
      const arma::mat Q = Dinv % arma::square(dinv) % (1.0 + delta % dinv);
      const arma::rowvec q = arma::sum(Q, 0);
      // sum_j Q_ij (y_i - y_j)^2 = y_i^2 q_i - 2 y_i (Y Q)_i + (Y^2 Q)_i
      const arma::mat sq =
          arma::mat(arma::square(Y)).each_row() % q - 2.0 * Y % (Y * Q) + arma::square(Y) * Q;
      *hdiag = (-2.0 / c) * (arma::repmat(a, Y.n_rows, 1) - sq);
    }
  }
  return E;
}

void Sammon::fit(const FitInput& in) {
  X_ = in.X;
  const arma::mat D2 = sq_distances(in.X);
  const arma::mat D = arma::sqrt(D2);
  if (!(arma::accu(D) > 0)) throw MethodError("sammon: all training points coincide");
  MdsSpectrum init;
  init.fit(D2, in.dim, "sammon (classical MDS initialisation)");
  arma::mat Y = init.embedding();
  const int max_iter = static_cast<int>(params_.integer("max_iter"));
  const double tol = params_.real("tol");
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
    double s = params_.real("step");
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
  const int max_iter = static_cast<int>(params_.integer("max_iter"));
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
    auto stress = [&](const arma::vec& v, arma::vec* g, arma::vec* h) {
      arma::rowvec d = arma::sqrt(arma::sum(arma::square(Y_.each_col() - v), 0));
      double E = 0;
      if (g) g->zeros(k);
      if (h) h->zeros(k);
      for (arma::uword j = 0; j < Dq.n_elem; ++j) {
        if (Dinv(j) == 0) continue;
        const double dj = std::max(d(j), 1e-300), del = Dq(j) - dj;
        E += del * del * Dinv(j);
        if (g) *g -= 2.0 * del * Dinv(j) / dj * (v - Y_.col(j));
        if (h) {
          const arma::vec diff = v - Y_.col(j);
          *h -= 2.0 * Dinv(j) / dj * (del - arma::square(diff) / dj * (1.0 + del / dj));
        }
      }
      return E;
    };
    arma::vec g, h;
    double E = stress(y, &g, &h);
    for (int it = 0; it < max_iter; ++it) {
      const arma::vec step = g / arma::abs(h);
      double s = params_.real("step"), Enew = E;
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
      if (rel < params_.real("tol")) break;
    }
    Yn.col(q) = y;
  }
  return Yn;
}

namespace {

MethodInfo sammon_info() {
  MethodInfo m;
  m.name = "sammon";
  m.family = "manifold";
  m.summary =
      "Sammon mapping (pseudo-Newton on the Sammon stress); out-of-sample by per-point "
      "stress minimisation";
  m.reference = "Sammon 1969, IEEE Trans. Computers C-18(5), eq. 1-6";
  m.params = {
      ParamSpec::integer("max_iter", 500, 1, 100000,
                         "iterations of the pseudo-Newton step (TPSLVM runs 1000)"),
      ParamSpec::real("tol", 1e-9, 0.0, std::nullopt,
                      "stop when the relative stress decrease falls below this"),
      ParamSpec::real("step", 1.0, 0.0, 1.0,
                      "initial step length ('magic factor'; Sammon used 0.3-0.4), halved until "
                      "the stress decreases",
                      true),
  };
  m.iterative = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return std::min<arma::uword>(s.n > 0 ? s.n - 1 : 0, s.d);
  };
  m.cost = [](const DataShape& s, const ParamSet& p, arma::uword dim) {
    return double(s.n) * s.n * (s.d + 20.0 * double(p.integer("max_iter")) * (dim + 1));
  };
  m.make = [](const ParamSet& p) { return std::make_unique<Sammon>(p); };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(sammon_info)
}  // namespace drbench
