// t-SNE's optimiser as an entry of the optimiser table: per coordinate, gain += gain_increase where
// sign(g) != sign(update), else gain *= gain_decrease, floored at min_gain; update = momentum *
// update - learning_rate * gain * g; x += update. Gains and update carry over from phase to phase.
#include <chrono>
#include <cmath>
#include <limits>

#include "framework/core/error.hpp"
#include "framework/optim/optimizer.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

OptimResult momentum_descent(Objective& obj, const arma::vec& x0, const OptimOptions& opt) {
  const MomentumOptions& m = opt.momentum;
  if (!(m.learning_rate > 0))
    throw Error("optimizer 'momentum' needs a positive learning rate, got " +
                std::to_string(m.learning_rate));
  const auto t0 = std::chrono::steady_clock::now();
  const int total = opt.max_iterations;
  arma::vec x = x0, g(x0.n_elem), update(x0.n_elem, arma::fill::zeros),
            gains(x0.n_elem, arma::fill::ones);
  OptimResult res;
  res.stop_reason = "max_iterations";
  res.f = std::numeric_limits<double>::quiet_NaN();
  if (opt.trace) opt.trace->optimizer = "momentum";
  std::size_t phase = 0;
  int phase_end = opt.phases.empty() || opt.phases.size() == 1 ? total : opt.phases[0].iterations;
  auto enter = [&](std::size_t p, int it) {
    if (opt.phases.empty()) return;
    if (opt.phases[p].enter) opt.phases[p].enter();
    if (opt.trace) opt.trace->note("phase", opt.phases[p].name + "@" + std::to_string(it));
  };
  enter(0, 0);
  for (int it = 0; it < total; ++it) {
    while (it >= phase_end && phase + 1 < opt.phases.size()) {
      ++phase;
      phase_end = phase + 1 < opt.phases.size() ? phase_end + opt.phases[phase].iterations : total;
      enter(phase, it);
    }
    const double momentum = opt.phases.empty() ? 0.0 : opt.phases[phase].momentum;
    const bool want = m.objective_every <= 1 || it % m.objective_every == 0 || it == total - 1;
    double f = std::numeric_limits<double>::quiet_NaN();
    if (want)
      f = obj.evaluate(x, &g);
    else
      obj.gradient(x, g);
    ++res.evaluations;
    const double* gp = g.memptr();
    double* u = update.memptr();
    double* a = gains.memptr();
    double* y = x.memptr();
    double step2 = 0.0;
    for (arma::uword i = 0; i < x.n_elem; ++i) {
      a[i] = (gp[i] > 0) != (u[i] > 0) ? a[i] + m.gain_increase : a[i] * m.gain_decrease;
      if (a[i] < m.min_gain) a[i] = m.min_gain;
      u[i] = momentum * u[i] - m.learning_rate * a[i] * gp[i];
      y[i] += u[i];
      step2 += u[i] * u[i];
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double gnorm = m.grad_norm_scale * arma::norm(g);
    const double step = std::sqrt(step2);
    // Row `it`: the objective and gradient at x after `it` updates, and the update taken there.
    if (opt.trace) opt.trace->log(it, f, gnorm, seconds, step);
    if (want) res.f = f;
    res.iterations = it + 1;
    if (!std::isfinite(step2) || (want && !std::isfinite(f))) {
      res.stop_reason = "not_finite";
      break;
    }
    if (opt.callback && !opt.callback({it, f, gnorm, step, seconds, x, g})) {
      res.stop_reason = "callback";
      break;
    }
    check_task_deadline(it, f, total);
  }
  if (opt.trace) opt.trace->note("stop_reason", res.stop_reason);
  res.x = std::move(x);
  return res;
}

}  // namespace drbench
