#include "methods/linear/fastica/fastica.hpp"

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

// g(u) elementwise into G, and the mean of g'(u) over each row (a sample average per component).
void contrast_derivatives(const std::string& contrast, const arma::mat& U, arma::mat& G,
                          arma::vec& mean_dg) {
  arma::mat dG;
  if (contrast == "logcosh") {
    G = arma::tanh(U);
    dG = 1.0 - arma::square(G);
  } else if (contrast == "exp") {
    const arma::mat e = arma::exp(-0.5 * arma::square(U));
    G = U % e;
    dG = (1.0 - arma::square(U)) % e;
  } else {
    G = arma::pow(U, 3);
    dG = 3.0 * arma::square(U);
  }
  mean_dg = arma::mean(dG, 1);
}

// Whitening: K (dim x d) with K Xc Xc' K' / n = I, from the top principal axes; eigenproblem of
// the d x d scatter when d <= n, thin SVD of the data otherwise.
arma::mat whitening(const arma::mat& Xc, arma::uword dim) {
  const arma::uword d = Xc.n_rows, n = Xc.n_cols;
  arma::mat U;
  arma::vec s;  // singular values of Xc
  if (d <= n) {
    arma::vec ev;
    if (!arma::eig_sym(ev, U, Xc * Xc.t())) throw MethodError("fastica: eigensolver failed");
    U = arma::fliplr(U).eval().head_cols(dim);
    s = arma::sqrt(arma::clamp(arma::vec(arma::reverse(ev)).head(dim), 0.0, arma::datum::inf));
  } else {
    arma::mat V;
    if (!arma::svd_econ(U, s, V, Xc, "left")) throw MethodError("fastica: SVD failed");
    U = U.head_cols(dim);
    s = s.head(dim);
  }
  if (s(dim - 1) <= 1e-10 * s(0))
    throw MethodError("fastica: the data have rank below dims=" + std::to_string(dim) +
                      "; lower 'dims'");
  return (U.each_row() / s.t()).t() * std::sqrt(double(n));
}

}  // namespace

arma::mat symmetric_decorrelation(const arma::mat& W) {
  arma::vec s;
  arma::mat V;
  if (!arma::eig_sym(s, V, W * W.t())) throw MethodError("fastica: eigensolver failed");
  s = arma::clamp(s, std::numeric_limits<double>::min(), arma::datum::inf);
  return V * arma::diagmat(1.0 / arma::sqrt(s)) * V.t() * W;
}

void FastIca::fit(const FitInput& in) {
  const arma::uword n = in.X.n_cols, k = in.dim;
  const arma::vec mu = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mu;
  const arma::mat K = whitening(Xc, k);
  const arma::mat Z = K * Xc;  // k x n, identity covariance
  const arma::mat W0 = in.rng.randn(k, k);
  arma::mat G;
  arma::vec mdg;
  arma::uword worst_iterations = 0;
  const auto t0 = std::chrono::steady_clock::now();
  bool converged = true;
  if (s_.algorithm == "parallel") {
    arma::mat W = symmetric_decorrelation(W0);
    arma::uword it = 0;
    double lim = arma::datum::inf;
    for (; it < s_.iterations && lim >= s_.tolerance; ++it) {
      contrast_derivatives(s_.contrast, W * Z, G, mdg);
      const arma::mat W1 = symmetric_decorrelation(G * Z.t() / double(n) - arma::diagmat(mdg) * W);
      lim = arma::abs(arma::abs(arma::sum(W1 % W, 1)) - 1.0).max();
      W = W1;
      check_task_deadline(int(it), lim, int(s_.iterations));
      if (in.trace)
        in.trace->log(int(it), lim, 0.0,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    worst_iterations = it;
    converged = lim < s_.tolerance;
    W_ = W;
  } else {
    W_.zeros(k, k);
    for (arma::uword j = 0; j < k; ++j) {
      arma::rowvec w = W0.row(j) / arma::norm(W0.row(j));
      arma::uword it = 0;
      double lim = arma::datum::inf;
      for (; it < s_.iterations && lim >= s_.tolerance; ++it) {
        contrast_derivatives(s_.contrast, w * Z, G, mdg);
        arma::rowvec w1 = arma::mean(Z.each_row() % G, 1).t() - mdg(0) * w;
        if (j > 0) w1 -= (w1 * W_.rows(0, j - 1).t()) * W_.rows(0, j - 1);
        w1 /= arma::norm(w1);
        lim = std::abs(std::abs(arma::dot(w1, w)) - 1.0);
        w = w1;
        check_task_deadline(int(it), lim, int(s_.iterations));
      }
      W_.row(j) = w;
      worst_iterations = std::max(worst_iterations, it);
      converged = converged && lim < s_.tolerance;
    }
  }
  if (in.trace) {
    in.trace->note("iterations_run", std::to_string(worst_iterations));
    if (!converged) in.trace->note("stop_reason", "iterations");
  }
  // Unit-variance sources: each row of W K scaled by the spread of its source on the training set.
  arma::mat B = W_ * K;
  const arma::vec sd = arma::stddev(B * Xc, 1, 1);
  B.each_col() /= sd;
  set_projection(in.X, mu, B.t());
}

namespace {

// The parameters the contract and the budget both read.
struct FastIcaKeys {
  IntKey iterations = keywords::iterations(200, 100000,
                                           "of the fixed point (per component "
                                           "with deflation; scikit-learn: 200)");
};

MethodInfo fastica_info() {
  MethodInfo m = describe_method(
      "fastica", "linear",
      "FastICA: whitening, then the fixed-point rotation to the most non-Gaussian directions",
      "Hyvarinen & Oja 2000, Neural Networks 13, eq. 20 and 44-45; scikit-learn's FastICA");
  const ChoiceKey algorithm = ParamSpec::choice(
      "algorithm", "parallel", {"parallel", "deflation"},
      "all components at once with symmetric decorrelation, or one at a time (Gram-Schmidt)");
  const ChoiceKey contrast =
      ParamSpec::choice("contrast", "logcosh", {"logcosh", "exp", "cube"},
                        "G of the negentropy approximation: log cosh u, -exp(-u^2/2), u^4/4");
  const auto [iterations] = FastIcaKeys{};
  const RealKey tolerance = keywords::tolerance(
      1e-4, std::nullopt, "stop when every row of W turns by less: max | |w_new . w| - 1 |");
  m.params = {algorithm, contrast, iterations, tolerance};
  m.iterative = true;
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<FastIca>(
        FastIcaSetting{algorithm(p), contrast(p), arma::uword(iterations(p)), tolerance(p)});
  };
  return m;
}

}  // namespace
// The whitening SVD, then the fixed-point steps; the whitened data and g(W Z), g'(W Z), each
// dim x n, beside memory_linear.
DRBENCH_METHOD(fastica_info, linear_budget(
                                 [keys = FastIcaKeys{}](const TaskSize& z) {
                                   return thin_svd_cost()(z) +
                                          double(keys.iterations(z.p)) * z.n * z.q * z.q;
                                 },
                                 [](const TaskSize& z) { return 8.0 * 4.0 * z.n * z.q; }))
}  // namespace drbench
