#include "framework/optim/grad_check.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "framework/core/error.hpp"

namespace drbench {

GradCheck check_gradient(Objective& obj, const arma::vec& x, double h) {
  GradCheck r;
  obj.evaluate(x, &r.analytic);
  if (r.analytic.n_elem != x.n_elem)
    throw Error("check_gradient: the objective returned a gradient of size " +
                std::to_string(r.analytic.n_elem) + " for " + std::to_string(x.n_elem) +
                " parameters");
  r.numeric.set_size(x.n_elem);
  arma::vec xp = x;
  for (arma::uword i = 0; i < x.n_elem; ++i) {
    const double step = h * std::max(1.0, std::abs(x(i)));
    auto f_at = [&](double t) {
      xp(i) = x(i) + t;
      return obj.evaluate(xp, nullptr);
    };
    const double d1 = f_at(step) - f_at(-step), d2 = f_at(2 * step) - f_at(-2 * step);
    xp(i) = x(i);
    r.numeric(i) = (8.0 * d1 - d2) / (12.0 * step);
  }
  const double floor =
      std::max(1e-12, 1e-3 * (r.analytic.n_elem ? arma::abs(r.analytic).max() : 0.0));
  for (arma::uword i = 0; i < x.n_elem; ++i) {
    const double a = r.analytic(i), n = r.numeric(i);
    const double e = std::abs(a - n) / std::max({std::abs(a), std::abs(n), floor});
    if (!(e <= r.max_rel_error)) {  // also catches NaN
      r.max_rel_error = std::isnan(e) ? INFINITY : e;
      r.worst = i;
    }
  }
  return r;
}

}  // namespace drbench
