#include "methods/linear/factor_analysis/factor_analysis.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

namespace {

// Floor of the noise variances, and the offset on sqrt(Psi), as scikit-learn (SMALL = 1e-12).
constexpr double kSmall = 1e-12;

// The top `k` squared singular values and left singular vectors of B = Psi^-1/2 Xc / sqrt(n)
// (d x n), and the sum of the other squared singular values. With d <= n they come from the
// eigenproblem of B B' = Psi^-1/2 C Psi^-1/2 (C the d x d covariance, formed once), otherwise
// from the thin SVD of B.
struct TopSpectrum {
  arma::vec s2;  // k, descending
  arma::mat U;   // d x k
  double rest = 0;
};

TopSpectrum top_spectrum(const arma::mat& Xc, const arma::mat& C, const arma::vec& scale,
                         arma::uword k) {
  TopSpectrum t;
  if (!C.is_empty()) {
    const arma::mat S = C % (scale * scale.t());
    arma::vec ev;
    arma::mat V;
    if (!arma::eig_sym(ev, V, S)) throw MethodError("factor_analysis: eigensolver failed");
    ev = arma::reverse(arma::clamp(ev, 0.0, arma::datum::inf));
    V = arma::fliplr(V);
    t.s2 = ev.head(k);
    t.U = V.head_cols(k);
    t.rest = arma::accu(ev) - arma::accu(t.s2);
  } else {
    const arma::mat B = (Xc.each_col() % scale) / std::sqrt(double(Xc.n_cols));
    arma::mat U, V;
    arma::vec s;
    if (!arma::svd_econ(U, s, V, B, "left")) throw MethodError("factor_analysis: SVD failed");
    const arma::vec all = arma::square(s);
    t.s2 = all.head(k);
    t.U = U.head_cols(k);
    t.rest = arma::accu(all) - arma::accu(t.s2);
  }
  return t;
}

}  // namespace

void FactorAnalysis::fit(const FitInput& in) {
  const arma::uword d = in.X.n_rows, n = in.X.n_cols, k = in.dim;
  const arma::vec mu = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mu;
  const arma::vec var = arma::sum(arma::square(Xc), 1) / double(n);
  const arma::mat C = d <= n ? arma::mat(Xc * Xc.t() / double(n)) : arma::mat();
  const double llconst = double(d) * std::log(2.0 * arma::datum::pi) + double(k);
  arma::vec psi(d, arma::fill::ones);
  double old_ll = -std::numeric_limits<double>::infinity();
  bool converged = false;
  const auto t0 = std::chrono::steady_clock::now();
  arma::uword it = 0;
  for (; it < s_.iterations; ++it) {
    const arma::vec sqrt_psi = arma::sqrt(psi) + kSmall;
    const TopSpectrum t = top_spectrum(Xc, C, 1.0 / sqrt_psi, k);
    W_ = arma::diagmat(arma::sqrt(arma::clamp(t.s2 - 1.0, 0.0, arma::datum::inf))) * t.U.t();
    W_.each_row() %= sqrt_psi.t();
    ll_ = -0.5 * double(n) *
          (llconst + arma::accu(arma::log(t.s2)) + t.rest + arma::accu(arma::log(psi)));
    if (in.trace)
      in.trace->log(int(it), -ll_, 0.0,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    check_task_deadline(int(it), -ll_, int(s_.iterations));
    if (ll_ - old_ll < s_.tolerance) {
      converged = true;
      break;
    }
    old_ll = ll_;
    psi = arma::clamp(var - arma::sum(arma::square(W_), 0).t(), kSmall, arma::datum::inf);
  }
  if (in.trace) {
    in.trace->note("iterations_run", std::to_string(std::min(it + 1, s_.iterations)));
    if (!converged) in.trace->note("stop_reason", "iterations");
  }
  psi_ = psi;
  const arma::mat Wpsi = W_.each_row() / psi_.t();  // W Psi^-1, dim x d
  const arma::mat cov_z = arma::inv_sympd(arma::eye(k, k) + Wpsi * W_.t());
  set_projection(in.X, mu, Wpsi.t() * cov_z);
}

namespace {

// The parameters the contract and the budget both read.
struct FactorAnalysisKeys {
  IntKey iterations =
      keywords::iterations(1000, 1000000, "of the SVD iteration (scikit-learn: 1000)");
};

MethodInfo factor_analysis_info() {
  MethodInfo m = describe_method(
      "factor_analysis", "linear",
      "factor analysis: ML loadings with diagonal noise; points map to their posterior mean",
      "Bishop, PRML (2006) 12.2.4; Barber, BRML (2012) algorithm 21.1 (scikit-learn's "
      "FactorAnalysis)");
  const auto [iterations] = FactorAnalysisKeys{};
  const RealKey tolerance = keywords::tolerance(
      1e-2, std::nullopt, "stop when the log-likelihood gains less than this (scikit-learn: 1e-2)");
  m.params = {iterations, tolerance};
  m.iterative = true;
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<FactorAnalysis>(
        FactorAnalysisSetting{arma::uword(iterations(p)), tolerance(p)});
  };
  return m;
}

}  // namespace
// d <= n: the covariance once (n d^2), then a d x d eigenproblem an iteration; d > n: a thin
// SVD of the scaled data an iteration, which holds the scaled copy and its singular vectors.
DRBENCH_METHOD(factor_analysis_info,
               linear_budget(
                   [keys = FactorAnalysisKeys{}](const TaskSize& z) {
                     const double it = double(keys.iterations(z.p));
                     return z.d <= z.n ? z.n * z.d * z.d + it * z.d * z.d * z.d
                                       : it * z.n * z.n * z.d;
                   },
                   [](const TaskSize& z) { return z.d > z.n ? 16.0 * z.n * z.d : 0.0; }))
}  // namespace drbench
