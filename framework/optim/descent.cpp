// The line-search optimisers: one loop for gradient descent, nonlinear conjugate gradients and
// descent along an objective-supplied direction, so that they share stopping rules, phases,
// callbacks and the trace, and differ only in how the next search direction is chosen.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/optim/line_search.hpp"
#include "framework/optim/optimizer.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

namespace {

enum class Rule { Gradient, ConjugateGradient, Supplied };

const char* rule_name(Rule r) {
  switch (r) {
    case Rule::Gradient:
      return "gd";
    case Rule::ConjugateGradient:
      return "cg";
    case Rule::Supplied:
      return "descent";
  }
  return "";
}

// The search direction by the rule (conjugate gradients: Polak-Ribiere+ on the preconditioned
// gradient z, restarted every n iterations); one that is not downhill (or broken) falls back to
// steepest descent for this iteration.
void search_direction(Rule rule, const OptimOptions& opt, bool precondition, const arma::vec& x,
                      const arma::vec& g, const arma::vec& g_prev, const arma::vec& z_prev,
                      arma::vec& p, arma::vec& z, int& since_restart, int& fallbacks) {
  switch (rule) {
    case Rule::Gradient:
      p = -g;
      break;
    case Rule::Supplied:
      p = opt.direction(x, g);
      break;
    case Rule::ConjugateGradient: {
      z = precondition ? arma::vec(-opt.direction(x, g)) : g;
      double beta = 0.0;
      if (!z_prev.is_empty() && since_restart < int(x.n_elem))
        beta = std::max(0.0, arma::dot(z, g - g_prev) / arma::dot(z_prev, g_prev));
      if (!std::isfinite(beta)) beta = 0.0;
      p = beta > 0 ? arma::vec(beta * p - z) : arma::vec(-z);
      since_restart = beta > 0 ? since_restart + 1 : 0;
      if (!(arma::dot(g, p) < 0)) {
        p = -z;
        since_restart = 0;
      }
      break;
    }
  }
  if (p.n_elem != x.n_elem || !p.is_finite() || !(arma::dot(g, p) < 0)) {
    // Not downhill (or broken): fall back to steepest descent for this iteration.
    p = -g;
    ++fallbacks;
    since_restart = 0;
  }
}

double first_trial_step(Rule rule, bool precondition, double a_prev, double d_prev,
                        const LinePoint& p0, const arma::vec& p) {
  // First trial step: 1 for a supplied (Newton-like, naturally scaled) direction; otherwise the
  // previous step scaled by the ratio of slopes (N&W eq. 3.60), 1/||p|| at the start.
  double a1 = 1.0;
  if (rule != Rule::Supplied || precondition) {
    a1 = a_prev > 0 ? a_prev * d_prev / p0.d : 1.0 / arma::norm(p);
    if (!(a1 > 0) || !std::isfinite(a1)) a1 = 1.0 / arma::norm(p);
  }
  return a1;
}

// Why the loop stops after an accepted step s, or nullptr to go on.
const char* converged(const OptimOptions& opt, const arma::vec& g, const arma::vec& s,
                      double x_norm, double f, double f_prev) {
  if (arma::abs(g).max() == 0) return "gradient_zero";
  if (opt.g_tol > 0 && arma::abs(g).max() < opt.g_tol) return "gradient_tolerance";
  if (opt.rel_x_tol > 0 && arma::norm(s) <= opt.rel_x_tol * x_norm) return "relative_change";
  if (opt.x_tol > 0 && opt.f_tol > 0 && arma::abs(s).max() < opt.x_tol &&
      std::abs(f - f_prev) < opt.f_tol)
    return "x_and_f_tolerance";
  return nullptr;
}

OptimResult line_search_loop(Rule rule, Objective& obj, const arma::vec& x0,
                             const OptimOptions& opt) {
  if (rule == Rule::Supplied && !opt.direction)
    throw Error("optimizer 'descent' needs the objective's search direction (opt.direction)");
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  OptimResult res;
  std::size_t phase = 0;
  int phase_start = 0;  // iteration at which the current phase began
  if (!opt.phases.empty() && opt.phases[0].enter) opt.phases[0].enter();

  arma::vec x = x0, g;
  double f = obj.evaluate(x, &g);
  res.evaluations = 1;
  if (opt.trace) {
    opt.trace->optimizer = rule_name(rule);
    opt.trace->log(0, f, arma::norm(g), seconds());
    if (!opt.phases.empty()) opt.trace->note("phase", opt.phases[0].name + "@0");
  }
  int fallbacks = 0;  // iterations whose direction was not downhill and became -g
  auto finish = [&](const std::string& why) {
    if (opt.trace && fallbacks > 0)
      opt.trace->note("steepest_descent_fallbacks", std::to_string(fallbacks));
    return res.stop(x, f, why, opt.trace);
  };
  if (!std::isfinite(f) || !g.is_finite()) return finish("failed");
  if (arma::abs(g).max() == 0) return finish("gradient_zero");

  // Conjugate gradients lose conjugacy with loose line searches: N&W (ch. 5.2) use c2 = 0.1.
  WolfeOptions wolfe = opt.wolfe;
  if (rule == Rule::ConjugateGradient) wolfe.c2 = std::min(wolfe.c2, 0.1);
  const bool precondition = rule == Rule::ConjugateGradient && bool(opt.direction);
  arma::vec p, z, z_prev, g_prev;  // z: preconditioned gradient (= g without a preconditioner)
  double a_prev = 0.0, d_prev = 0.0;
  int since_restart = 0;
  for (int k = 1; k <= opt.max_iterations; ++k) {
    res.iterations = k;
    if (phase + 1 < opt.phases.size() && k - 1 - phase_start >= opt.phases[phase].iterations) {
      ++phase;
      phase_start = k - 1;
      if (opt.phases[phase].enter) opt.phases[phase].enter();
      f = obj.evaluate(x, &g);  // the objective changed: new value, gradient and no memory
      ++res.evaluations;
      if (!std::isfinite(f) || !g.is_finite()) return finish("failed");
      if (opt.trace) opt.trace->note("phase", opt.phases[phase].name + "@" + std::to_string(k - 1));
      a_prev = 0.0;
      since_restart = 0;
      z_prev.reset();
    }

    search_direction(rule, opt, precondition, x, g, g_prev, z_prev, p, z, since_restart, fallbacks);

    LineFunction phi(obj, x, p, res.evaluations);
    const LinePoint p0 = phi.origin(f, g);
    const double a1 = first_trial_step(rule, precondition, a_prev, d_prev, p0, p);
    LinePoint acc;
    bool ok;
    if (opt.line_search == LineSearchKind::Armijo) {
      ok = armijo_search(phi, p0, a_prev > 0 ? a_prev : a1, opt.armijo, acc);
    } else {
      ok = wolfe_search(phi, p0, a1, wolfe, acc);
    }
    if (!ok) {
      if (opt.trace) opt.trace->log(k, f, arma::norm(g), seconds(), 0.0);
      return finish("line_search_failed");
    }
    const arma::vec s = acc.a * p;
    const double f_prev = f, x_norm = arma::norm(x);
    g_prev = g;
    z_prev = z;
    a_prev = acc.a;
    d_prev = p0.d;
    x += s;
    f = acc.f;
    g = acc.g;
    const double gn = arma::norm(g), t = seconds();
    if (opt.trace) opt.trace->log(k, f, gn, t, acc.a);
    if (opt.callback && !opt.callback({k, f, gn, acc.a, t, x, g})) return finish("callback");
    check_task_deadline(k, f, opt.max_iterations);
    if (const char* why = converged(opt, g, s, x_norm, f, f_prev)) return finish(why);
  }
  return finish("max_iterations");
}

}  // namespace

OptimResult gradient_descent(Objective& obj, const arma::vec& x0, const OptimOptions& opt) {
  return line_search_loop(Rule::Gradient, obj, x0, opt);
}

OptimResult conjugate_gradients(Objective& obj, const arma::vec& x0, const OptimOptions& opt) {
  return line_search_loop(Rule::ConjugateGradient, obj, x0, opt);
}

OptimResult direction_descent(Objective& obj, const arma::vec& x0, const OptimOptions& opt) {
  return line_search_loop(Rule::Supplied, obj, x0, opt);
}

}  // namespace drbench
