#pragma once
// Finite-difference gradient checker used by every gradient test in the project.
#include <armadillo>

#include "framework/optim/objective.hpp"

namespace drbench {

struct GradCheck {
  double max_rel_error = 0.0;  // largest per-component relative error (see check_gradient)
  arma::uword worst = 0;       // index of that component
  arma::vec analytic;
  arma::vec numeric;
};

// Fourth-order central differences, (8 (f(x+h) - f(x-h)) - (f(x+2h) - f(x-2h))) / 12h, with
// h scaled by max(1, |x_i|) per component: the O(h^4) truncation lets h be large enough that
// rounding in f (a GP-LVM objective is O(N d)) stays far below the 1e-6 tolerance the tests use.
// The relative error of component i is |a_i - n_i| / max(|a_i|, |n_i|, floor) with floor = 1e-3 *
// max_j |a_j| (and at least 1e-12): components three orders of magnitude below the largest are
// judged against that scale, because differences of a function of size |f| cannot resolve them
// relative to themselves.
GradCheck check_gradient(Objective& obj, const arma::vec& x, double h = 1e-3);

}  // namespace drbench
