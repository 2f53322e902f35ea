#pragma once
// Test functions for the optimiser and line-search tests.
#include <armadillo>

namespace drbench::testing {

// Extended Rosenbrock: sum_i 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2, minimum 0 at all ones.
inline double rosenbrock(const arma::vec& x, arma::vec* g) {
  double f = 0;
  if (g) g->zeros(x.n_elem);
  for (arma::uword i = 0; i + 1 < x.n_elem; ++i) {
    const double a = x(i + 1) - x(i) * x(i), b = 1 - x(i);
    f += 100 * a * a + b * b;
    if (g) {
      (*g)(i) += -400 * a * x(i) - 2 * b;
      (*g)(i + 1) += 200 * a;
    }
  }
  return f;
}

}  // namespace drbench::testing
