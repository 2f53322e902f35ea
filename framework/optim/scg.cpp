// Scaled conjugate gradients, Moller (1993) "A scaled conjugate gradient algorithm for fast
// supervised learning", in the form of Netlab's scg.m (the optimiser the GP-LVM papers used), so
// that iteration counts and stopping behaviour are comparable with theirs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "framework/core/error.hpp"
#include "framework/optim/optimizer.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Levenberg-Marquardt style scaling keeps the local quadratic model positive definite: the
// curvature along d plus beta times its squared length, beta raised where that is not positive.
double scaled_curvature(double theta, double kappa, double& beta) {
  double delta = theta + beta * kappa;
  if (delta <= 0) {
    delta = beta * kappa;
    beta = beta - theta / kappa;
  }
  return delta;
}
}  // namespace

OptimResult scg(Objective& obj, const arma::vec& x0, const OptimOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  const double sigma0 = 1e-4, beta_min = 1e-15, beta_max = 1e100;
  const double eps = std::numeric_limits<double>::epsilon();
  const arma::uword n = x0.n_elem;

  OptimResult res;
  arma::vec x = x0, grad_new, grad_old, grad_plus, grad_x_new;
  double f_old = obj.evaluate(x, &grad_new);
  res.evaluations = 1;
  if (opt.trace) {
    opt.trace->optimizer = "scg";
    opt.trace->log(0, f_old, arma::norm(grad_new), seconds_since(t0));
  }
  auto finish = [&](const std::string& why, double f) { return res.stop(x, f, why, opt.trace); };
  if (!std::isfinite(f_old) || !grad_new.is_finite()) return finish("failed", f_old);
  ObjectiveWindow window(opt.rel_f_tol, opt.f_window);
  window.converged(f_old);

  double f_now = f_old;
  grad_old = grad_new;
  arma::vec d = -grad_new;
  bool success = true;
  arma::uword n_success = 0;
  double beta = 1.0, mu = 0.0, kappa = 0.0, theta = 0.0;

  for (int j = 1; j <= opt.max_iterations; ++j) {
    res.iterations = j;
    if (success) {
      // Second-order information along d from a finite difference of gradients.
      mu = arma::dot(d, grad_new);
      if (mu >= 0) {
        d = -grad_new;
        mu = arma::dot(d, grad_new);
      }
      kappa = arma::dot(d, d);
      if (kappa < eps) {
        res.iterations = j - 1;
        return finish("gradient_zero", f_now);
      }
      const double sigma = sigma0 / std::sqrt(kappa);
      obj.evaluate(x + sigma * d, &grad_plus);
      ++res.evaluations;
      theta = arma::dot(d, grad_plus - grad_new) / sigma;
    }
    const double delta = scaled_curvature(theta, kappa, beta);
    const double alpha = -mu / delta;
    const arma::vec x_new = x + alpha * d;
    // Netlab evaluates f and the gradient separately; one combined call is cheaper for the
    // GP-LVM (one Cholesky), and the gradient is only kept when the step succeeds.
    const double f_new = obj.evaluate(x_new, &grad_x_new);
    ++res.evaluations;
    const double Delta = 2.0 * (f_new - f_old) / (alpha * mu);  // NaN/inf f_new: a failed step
    if (Delta >= 0 && std::isfinite(f_new) && grad_x_new.is_finite()) {
      success = true;
      ++n_success;
      x = x_new;
      f_now = f_new;
    } else {
      success = false;
      f_now = f_old;
    }
    if (opt.trace)
      opt.trace->log(j, f_now, arma::norm(success ? grad_x_new : grad_new), seconds_since(t0),
                     success ? alpha : 0.0);
    if (success && opt.callback &&
        !opt.callback({j, f_now, arma::norm(grad_x_new), alpha, seconds_since(t0), x, grad_x_new}))
      return finish("callback", f_now);
    check_task_deadline(j, f_now, opt.max_iterations);

    if (success) {
      if (arma::abs(alpha * d).max() < opt.x_tol && std::abs(f_new - f_old) < opt.f_tol)
        return finish("x_and_f_tolerance", f_now);
      f_old = f_new;
      grad_old = grad_new;
      grad_new = grad_x_new;
      if (arma::dot(grad_new, grad_new) == 0) return finish("gradient_zero", f_now);
      if (opt.g_tol > 0 && arma::abs(grad_new).max() < opt.g_tol)
        return finish("gradient_tolerance", f_now);
    }
    if (window.converged(f_now)) return finish("objective_tolerance", f_now);
    if (Delta < 0.25 || !std::isfinite(Delta)) {
      if (beta >= beta_max && !success) return finish("no_progress", f_now);
      beta = std::min(4.0 * beta, beta_max);
    }
    if (Delta > 0.75) beta = std::max(0.5 * beta, beta_min);

    if (n_success == n) {  // restart with steepest descent every n successes
      d = -grad_new;
      n_success = 0;
    } else if (success) {
      const double gamma = arma::dot(grad_old - grad_new, grad_new) / mu;
      d = gamma * d - grad_new;
    }
  }
  return finish("max_iterations", f_now);
}

}  // namespace drbench
