// L-BFGS with a strong-Wolfe line search, after Nocedal & Wright (2006), Algorithms 3.5, 3.6, 7.4
// and 7.5. Used where the GP-LVM papers' SCG is slow to converge and as an independent check that
// SCG reaches the same optimum.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>

#include "framework/optim/line_search.hpp"
#include "framework/optim/optimizer.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

OptimResult lbfgs(Objective& obj, const arma::vec& x0, const OptimOptions& opt, int memory) {
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  OptimResult res;
  arma::vec x = x0, g;
  double f = obj.evaluate(x, &g);
  res.evaluations = 1;
  if (opt.trace) {
    opt.trace->optimizer = "lbfgs";
    opt.trace->log(0, f, arma::norm(g), seconds());
  }
  auto finish = [&](const std::string& why) { return res.stop(x, f, why, opt.trace); };
  if (!std::isfinite(f) || !g.is_finite()) return finish("failed");
  if (arma::abs(g).max() == 0) return finish("gradient_zero");
  ObjectiveWindow window(opt.rel_f_tol, opt.f_window);
  window.converged(f);

  std::deque<arma::vec> S, Y;
  std::deque<double> rho;
  for (int k = 1; k <= opt.max_iterations; ++k) {
    res.iterations = k;
    // Two-loop recursion: p = -H g.
    arma::vec q = g;
    std::vector<double> alpha(S.size());
    for (int i = int(S.size()) - 1; i >= 0; --i) {
      alpha[i] = rho[i] * arma::dot(S[i], q);
      q -= alpha[i] * Y[i];
    }
    if (!S.empty()) q *= arma::dot(S.back(), Y.back()) / arma::dot(Y.back(), Y.back());
    for (std::size_t i = 0; i < S.size(); ++i) {
      const double b = rho[i] * arma::dot(Y[i], q);
      q += (alpha[i] - b) * S[i];
    }
    arma::vec p = -q;
    LinePoint p0;
    p0.f = f;
    p0.d = arma::dot(g, p);
    if (!(p0.d < 0)) {  // not a descent direction (numerical trouble): restart from -g
      S.clear();
      Y.clear();
      rho.clear();
      p = -g;
      p0.d = -arma::dot(g, g);
    }
    const double a1 = S.empty() ? std::min(1.0, 1.0 / arma::norm(g)) : 1.0;
    LineFunction phi(obj, x, p, res.evaluations);
    LinePoint acc;
    if (!wolfe_search(phi, p0, a1, WolfeOptions{}, acc)) {
      if (opt.trace) opt.trace->log(k, f, arma::norm(g), seconds(), 0.0);
      return finish("line_search_failed");
    }
    const arma::vec s = acc.a * p;
    const arma::vec y = acc.g - g;
    const double f_prev = f;
    x += s;
    f = acc.f;
    g = acc.g;
    if (opt.trace) opt.trace->log(k, f, arma::norm(g), seconds(), acc.a);
    if (opt.callback && !opt.callback({k, f, arma::norm(g), acc.a, seconds(), x, g}))
      return finish("callback");
    check_task_deadline(k, f, opt.max_iterations);

    const double sy = arma::dot(s, y);
    if (sy > 1e-10 * arma::norm(s) * arma::norm(y)) {  // keep H positive definite
      S.push_back(s);
      Y.push_back(y);
      rho.push_back(1.0 / sy);
      if (int(S.size()) > memory) {
        S.pop_front();
        Y.pop_front();
        rho.pop_front();
      }
    }
    if (arma::abs(g).max() == 0) return finish("gradient_zero");
    if (opt.g_tol > 0 && arma::abs(g).max() < opt.g_tol) return finish("gradient_tolerance");
    if (arma::abs(s).max() < opt.x_tol && std::abs(f - f_prev) < opt.f_tol)
      return finish("x_and_f_tolerance");
    if (window.converged(f)) return finish("objective_tolerance");
  }
  return finish("max_iterations");
}

}  // namespace drbench
