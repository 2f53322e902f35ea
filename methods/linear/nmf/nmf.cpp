#include "methods/linear/nmf/nmf.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

namespace {

// scikit-learn's floor for a zero denominator of the multiplicative update (float32's epsilon).
constexpr double kEpsilon = 1.1920928955078125e-07;
// NNDSVD's entries below this become zero (scikit-learn's eps).
constexpr double kNndsvdZero = 1e-6;

double frobenius(const arma::mat& X, const arma::mat& W, const arma::mat& H) {
  return arma::norm(X - W * H, "fro");
}

// One multiplicative update of W (n x k) for fixed H (Lee & Seung 2001), scikit-learn's zero
// denominators floored at kEpsilon.
void mu_update_w(arma::mat& W, const arma::mat& XHt, const arma::mat& HHt) {
  arma::mat den = W * HHt;
  den.replace(0.0, kEpsilon);
  W %= XHt / den;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

double nmf_cd_sweep(arma::mat& W, const arma::mat& HHt, const arma::mat& XHt) {
  const arma::uword n = W.n_rows, k = W.n_cols;
  double violation = 0;
  for (arma::uword t = 0; t < k; ++t) {
    const double hess = HHt(t, t);
    for (arma::uword i = 0; i < n; ++i) {
      double grad = -XHt(i, t);
      for (arma::uword r = 0; r < k; ++r) grad += HHt(t, r) * W(i, r);
      // The projected gradient: a coordinate at its bound 0 only counts when it would grow.
      violation += std::abs(W(i, t) == 0 ? std::min(0.0, grad) : grad);
      if (hess != 0) W(i, t) = std::max(W(i, t) - grad / hess, 0.0);
    }
  }
  return violation;
}

void nndsvd(const arma::mat& X, arma::uword k, bool fill_mean, arma::mat& W, arma::mat& H) {
  arma::mat U, V;
  arma::vec S;
  if (!arma::svd_econ(U, S, V, X)) throw MethodError("nmf: SVD of the data failed");
  W.zeros(X.n_rows, k);
  H.zeros(k, X.n_cols);
  W.col(0) = std::sqrt(S(0)) * arma::abs(U.col(0));
  H.row(0) = std::sqrt(S(0)) * arma::abs(V.col(0)).t();
  for (arma::uword j = 1; j < k; ++j) {
    // The larger of the singular pair's positive and negative parts, which are non-negative.
    const arma::vec x = U.col(j), y = V.col(j);
    const arma::vec xp = arma::clamp(x, 0.0, arma::datum::inf),
                    yp = arma::clamp(y, 0.0, arma::datum::inf);
    const arma::vec xn = arma::abs(arma::clamp(x, -arma::datum::inf, 0.0)),
                    yn = arma::abs(arma::clamp(y, -arma::datum::inf, 0.0));
    const double xpn = arma::norm(xp), ypn = arma::norm(yp), xnn = arma::norm(xn),
                 ynn = arma::norm(yn);
    const double mp = xpn * ypn, mn = xnn * ynn;
    const bool positive = mp > mn;
    const double sigma = positive ? mp : mn;
    if (sigma == 0) continue;  // a pair without support on either side: left at zero
    const double lbd = std::sqrt(S(j) * sigma);
    W.col(j) = lbd * (positive ? arma::vec(xp / xpn) : arma::vec(xn / xnn));
    H.row(j) = lbd * (positive ? arma::vec(yp / ypn) : arma::vec(yn / ynn)).t();
  }
  W.elem(arma::find(W < kNndsvdZero)).zeros();
  H.elem(arma::find(H < kNndsvdZero)).zeros();
  if (fill_mean) {
    const double avg = arma::mean(arma::vectorise(X));
    W.replace(0.0, avg);
    H.replace(0.0, avg);
  }
}

arma::mat Nmf::prepare(const arma::mat& X, bool training) const {
  arma::mat Xs = X.t();
  if (s_.shift) {
    Xs.each_row() -= shift_.t();
    if (!training) Xs.clamp(0.0, arma::datum::inf);
  } else if (Xs.min() < 0) {
    throw MethodError(std::string("nmf: the ") + (training ? "training" : "new") +
                      " points have negative entries (" + std::to_string(Xs.min()) +
                      "); NMF needs non-negative data: drop the 'standardize' step or set "
                      "'negative: shift'");
  }
  return Xs;
}

void Nmf::fit(const FitInput& in) {
  const arma::uword k = in.dim;
  if (s_.shift) shift_ = arma::clamp(arma::min(in.X, 1), -arma::datum::inf, 0.0);
  const arma::mat X = prepare(in.X, true);
  if (s_.init == "random") {
    const double avg = std::sqrt(arma::mean(arma::vectorise(X)) / double(k));
    H_ = avg * arma::abs(in.rng.randn(k, X.n_cols));  // H first, as scikit-learn draws them
    W_ = avg * arma::abs(in.rng.randn(X.n_rows, k));
  } else {
    if (k > std::min(X.n_rows, X.n_cols))
      throw MethodError("nmf: init '" + s_.init +
                        "' needs dims <= min(points, features); lower "
                        "'dims' or set 'init: random'");
    nndsvd(X, k, s_.init == "nndsvda", W_, H_);
  }
  const auto t0 = std::chrono::steady_clock::now();
  const double err0 = frobenius(X, W_, H_);
  double previous = err0, violation0 = 0;
  bool converged = false;
  arma::uword it = 1;
  for (; it <= s_.iterations; ++it) {
    check_task_deadline(int(it), std::numeric_limits<double>::quiet_NaN(), int(s_.iterations));
    if (s_.solver == "cd") {
      arma::mat Ht = H_.t();
      double violation = nmf_cd_sweep(W_, H_ * H_.t(), X * Ht);
      violation += nmf_cd_sweep(Ht, W_.t() * W_, X.t() * W_);
      H_ = Ht.t();
      if (it == 1) violation0 = violation;
      if (in.trace) in.trace->log(int(it), frobenius(X, W_, H_), violation, seconds_since(t0));
      if (violation0 == 0 || violation / violation0 <= s_.tolerance) {
        converged = true;
        break;
      }
    } else {
      mu_update_w(W_, X * H_.t(), H_ * H_.t());
      arma::mat den = W_.t() * W_ * H_;
      den.replace(0.0, kEpsilon);
      H_ %= (W_.t() * X) / den;
      // scikit-learn measures the error every tenth iteration only.
      if ((s_.tolerance > 0 || in.trace) && it % 10 == 0) {
        const double err = frobenius(X, W_, H_);
        if (in.trace) in.trace->log(int(it), err, 0.0, seconds_since(t0));
        if (s_.tolerance > 0 && (previous - err) / err0 < s_.tolerance) {
          converged = true;
          break;
        }
        previous = err;
      }
    }
  }
  iterations_run_ = std::min(it, s_.iterations);
  error_ = frobenius(X, W_, H_);
  if (in.trace) {
    in.trace->note("iterations_run", std::to_string(iterations_run_));
    in.trace->note("reconstruction_error", std::to_string(error_));
    if (!converged) in.trace->note("stop_reason", "iterations");
  }
}

arma::mat Nmf::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != H_.n_cols)
    throw MethodError("nmf: new points have dimension " + std::to_string(Xnew.n_rows) +
                      ", the model was fitted on dimension " + std::to_string(H_.n_cols));
  const arma::mat X = prepare(Xnew, false);
  const arma::uword k = H_.n_rows;
  const arma::mat HHt = H_ * H_.t(), XHt = X * H_.t();
  arma::mat W;
  if (s_.solver == "cd") {
    // scikit-learn's transform: coordinate descent on W alone from zero.
    W.zeros(X.n_rows, k);
    double violation0 = 0;
    for (arma::uword it = 1; it <= s_.iterations; ++it) {
      check_task_deadline(int(it), std::numeric_limits<double>::quiet_NaN(), int(s_.iterations));
      const double violation = nmf_cd_sweep(W, HHt, XHt);
      if (it == 1) violation0 = violation;
      if (violation0 == 0 || violation / violation0 <= s_.tolerance) break;
    }
  } else {
    // The multiplicative update cannot leave zero, so it starts from the constant
    // sqrt(mean / dim), as scikit-learn's transform.
    W.set_size(X.n_rows, k);
    W.fill(std::sqrt(arma::mean(arma::vectorise(X)) / double(k)));
    const double err0 = frobenius(X, W, H_);
    double previous = err0;
    for (arma::uword it = 1; it <= s_.iterations; ++it) {
      check_task_deadline(int(it), std::numeric_limits<double>::quiet_NaN(), int(s_.iterations));
      mu_update_w(W, XHt, HHt);
      if (s_.tolerance > 0 && it % 10 == 0) {
        const double err = frobenius(X, W, H_);
        if ((previous - err) / err0 < s_.tolerance) break;
        previous = err;
      }
    }
  }
  return W.t();
}

namespace {

// The parameters the contract and the budget both read.
struct NmfKeys {
  IntKey iterations = keywords::iterations(200, 1000000, "(scikit-learn: 200)");
};

MethodInfo nmf_info() {
  MethodInfo m = describe_method(
      "nmf", "linear",
      "non-negative matrix factorisation X' ~ W H (Frobenius); new points by NNLS on fixed H",
      "Lee & Seung 2001 (mu); Cichocki & Phan 2009 (cd); Boutsidis & Gallopoulos 2008 "
      "(NNDSVD); scikit-learn's NMF");
  const ChoiceKey solver =
      ParamSpec::choice("solver", "cd", {"cd", "mu"},
                        "coordinate descent (scikit-learn's default) or multiplicative updates");
  const ChoiceKey init = keywords::init(
      "nndsvda", {"nndsvda", "nndsvd", "random"},
      "NNDSVD with zeros filled by the data's mean (scikit-learn's default), NNDSVD, or "
      "|N(0, mean/dims)|");
  const auto [iterations] = NmfKeys{};
  const RealKey tolerance = keywords::tolerance(
      1e-4, std::nullopt,
      "cd: projected-gradient violation relative to the first sweep's; mu: error decrease over "
      "ten iterations relative to the start's (scikit-learn: 1e-4)");
  const ChoiceKey negative = ParamSpec::choice(
      "negative", "refuse", {"refuse", "shift"},
      "negative input: refused, or each feature with a negative training minimum shifted to "
      "start at 0 (new points shifted the same, then clipped at 0)");
  m.params = {solver, init, iterations, tolerance, negative};
  m.iterative = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Nmf>(NmfSetting{solver(p), init(p), arma::uword(iterations(p)),
                                            tolerance(p), negative(p) == "shift"});
  };
  return m;
}

}  // namespace
// The SVD start, then the multiplicative updates. Memory: the transposed (and shifted) data, its
// SVD's factors, W, H and the product W H of the error.
DRBENCH_METHOD(nmf_info, make_budget(
                             [keys = NmfKeys{}](const TaskSize& z) {
                               const double n = z.n, d = z.d, k = z.q;
                               return std::min(n, d) * n * d +
                                      double(keys.iterations(z.p)) *
                                          (2.0 * n * d * k + (n + d) * k * k);
                             },
                             [](const TaskSize& z) {
                               const double n = z.n, d = z.d, r = std::min(n, d), q = z.q;
                               return memory_linear(z.shape, z.dim) +
                                      8.0 * (3.0 * n * d + r * (n + d) + 3.0 * q * (n + d)) +
                                      8.0 * z.n_test * (d + 2.0 * q);
                             }))
}  // namespace drbench
