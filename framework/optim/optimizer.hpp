#pragma once
// Shared options and result of the gradient-based optimisers (SCG, L-BFGS). Both log one Trace row
// per iteration (objective, gradient norm, seconds since start) and say why they stopped.
#include <armadillo>
#include <string>

#include "framework/core/trace.hpp"
#include "framework/optim/objective.hpp"

namespace drbench {

struct OptimOptions {
  int max_iterations = 1000;
  // Netlab's foptions defaults: stop when the largest change in any parameter is below x_tol AND
  // the change in the objective is below f_tol (both on the same successful step).
  double x_tol = 1e-4;
  double f_tol = 1e-4;
  // Stop when the gradient's infinity norm falls below this (0 disables the test).
  double g_tol = 0.0;
  Trace* trace = nullptr;  // non-null: one row per iteration plus a "stop_reason" note
};

struct OptimResult {
  arma::vec x;
  double f = 0.0;
  int iterations = 0;
  int evaluations = 0;      // objective calls (value or value+gradient)
  std::string stop_reason;  // "max_iterations", "x_and_f_tolerance", "gradient_zero", ...
  bool converged() const { return stop_reason != "max_iterations" && stop_reason != "failed"; }
};

// Scaled conjugate gradients (Moller 1993), following Netlab's scg.m step by step.
OptimResult scg(Objective& obj, const arma::vec& x0, const OptimOptions& opt = {});

// Limited-memory BFGS (Nocedal & Wright Alg. 7.4/7.5) with a strong-Wolfe line search
// (Alg. 3.5/3.6, cubic interpolation in zoom). `memory` is the number of stored pairs.
OptimResult lbfgs(Objective& obj, const arma::vec& x0, const OptimOptions& opt = {},
                  int memory = 10);

// Dispatch on a name ("scg" or "lbfgs"); throws Error for anything else.
OptimResult minimize(const std::string& name, Objective& obj, const arma::vec& x0,
                     const OptimOptions& opt = {});

}  // namespace drbench
