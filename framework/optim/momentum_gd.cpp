#include "framework/optim/momentum_gd.hpp"

#include <chrono>
#include <cmath>
#include <limits>

#include "framework/core/error.hpp"
#include "framework/core/time_limit.hpp"

namespace drbench {

MomentumGdResult momentum_gd(arma::mat& Y, const GradientEstimator& grad,
                             const MomentumGdOptions& opt, const GdCallback& callback) {
  if (!(opt.learning_rate > 0)) throw Error("internal: momentum_gd needs a positive learning rate");
  const auto t0 = std::chrono::steady_clock::now();
  int total = 0;
  for (const auto& ph : opt.phases) total += ph.iterations;
  arma::mat G(arma::size(Y)), update(arma::size(Y), arma::fill::zeros),
      gains(arma::size(Y), arma::fill::ones);
  MomentumGdResult res;
  res.stop_reason = "iterations";
  const double nan = std::numeric_limits<double>::quiet_NaN();
  int it = 0;
  for (const auto& ph : opt.phases) {
    for (int k = 0; k < ph.iterations; ++k, ++it) {
      const bool want =
          opt.objective_every <= 1 || it % opt.objective_every == 0 || it == total - 1;
      const double f = grad.evaluate(Y, ph.exaggeration, want, G);
      const double* g = G.memptr();
      double* u = update.memptr();
      double* a = gains.memptr();
      double* y = Y.memptr();
      double step2 = 0.0;
      for (arma::uword i = 0; i < Y.n_elem; ++i) {
        a[i] = (g[i] > 0) != (u[i] > 0) ? a[i] + opt.gain_increase : a[i] * opt.gain_decrease;
        if (a[i] < opt.min_gain) a[i] = opt.min_gain;
        u[i] = ph.momentum * u[i] - opt.learning_rate * a[i] * g[i];
        y[i] += u[i];
        step2 += u[i] * u[i];
      }
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double gnorm = grad.grad_norm_scale * arma::norm(G, "fro");
      if (opt.trace) opt.trace->log(it, want ? f : nan, gnorm, seconds, std::sqrt(step2));
      if (want) res.objective = f;
      res.iterations = it + 1;
      if (!std::isfinite(step2) || (want && !std::isfinite(f))) {
        res.stop_reason = "not_finite";
        break;
      }
      if (callback && !callback(it, Y)) {
        res.stop_reason = "callback";
        break;
      }
      check_task_deadline(it);
    }
    if (res.stop_reason != "iterations") break;
  }
  if (opt.trace) opt.trace->note("stop_reason", res.stop_reason);
  return res;
}

}  // namespace drbench
