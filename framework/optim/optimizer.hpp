#pragma once
// Shared options and result of the gradient-based optimisers, and the table they are chosen from.
// Every optimiser logs one Trace row per iteration (objective, gradient norm, seconds since start,
// accepted step length) and says why it stopped.
//
// The seam an objective can plug into (all optional, in OptimOptions):
//  - `direction`: its own search direction p(x, g), e.g. a spectral/Laplacian direction -M^-1 g
//    or a fixed-point step; "descent" follows it, "cg" uses it as a preconditioner;
//  - `callback`: sees every accepted iteration and can stop the run;
//  - `phases`: consecutive iteration budgets with a hook run on entry (t-SNE's early
//    exaggeration), after which the objective is re-evaluated and any memory is reset.
#include <armadillo>
#include <functional>
#include <string>
#include <vector>

#include "framework/core/trace.hpp"
#include "framework/optim/line_search.hpp"
#include "framework/optim/objective.hpp"

namespace drbench {

struct IterationInfo {
  int iteration = 0;
  double f = 0.0;
  double grad_norm = 0.0;
  double step = 0.0;  // accepted step length along the search direction
  double seconds = 0.0;
  const arma::vec& x;
  const arma::vec& g;
};

struct Phase {
  std::string name;    // noted in the trace when the phase starts
  int iterations = 0;  // budget of this phase; the last phase runs until max_iterations
  std::function<void()> enter;
};

enum class LineSearchKind { Wolfe, Armijo };

struct OptimOptions {
  int max_iterations = 1000;
  // Netlab's foptions defaults: stop when the largest change in any parameter is below x_tol AND
  // the change in the objective is below f_tol (both on the same successful step). 0 disables.
  double x_tol = 1e-4;
  double f_tol = 1e-4;
  // Stop when the gradient's infinity norm falls below this (0 disables the test).
  double g_tol = 0.0;
  // Stop when ||x_new - x|| <= rel_x_tol ||x|| (the elastic-embedding/DEE criterion; 0 disables).
  // Honoured by gd, cg and descent.
  double rel_x_tol = 0.0;
  Trace* trace = nullptr;  // non-null: one row per iteration plus a "stop_reason" note

  std::function<arma::vec(const arma::vec& x, const arma::vec& g)> direction;
  std::function<bool(const IterationInfo&)> callback;  // false: stop ("callback")
  std::vector<Phase> phases;

  // Line search of gd, cg and descent (scg needs none; lbfgs always uses strong Wolfe defaults).
  // cg caps c2 at 0.1, the tighter search conjugacy needs.
  LineSearchKind line_search = LineSearchKind::Wolfe;
  WolfeOptions wolfe;
  ArmijoOptions armijo;
};

struct OptimResult {
  arma::vec x;
  double f = 0.0;
  int iterations = 0;
  int evaluations = 0;      // objective calls (value or value+gradient)
  std::string stop_reason;  // "max_iterations", "x_and_f_tolerance", "gradient_zero", ...
  bool converged() const {
    return stop_reason != "max_iterations" && stop_reason != "failed" &&
           stop_reason != "line_search_failed";
  }
};

// Scaled conjugate gradients (Moller 1993), following Netlab's scg.m step by step.
OptimResult scg(Objective& obj, const arma::vec& x0, const OptimOptions& opt = {});

// Limited-memory BFGS (Nocedal & Wright Alg. 7.4/7.5) with a strong-Wolfe line search
// (Alg. 3.5/3.6, cubic interpolation in zoom). `memory` is the number of stored pairs.
OptimResult lbfgs(Objective& obj, const arma::vec& x0, const OptimOptions& opt = {},
                  int memory = 10);

// Line-search methods (descent.cpp): gradient descent, nonlinear conjugate gradients
// (Polak-Ribiere+, restarted every n iterations and whenever the direction is not downhill), and
// descent along the objective's own direction (opt.direction, required).
OptimResult gradient_descent(Objective& obj, const arma::vec& x0, const OptimOptions& opt = {});
OptimResult conjugate_gradients(Objective& obj, const arma::vec& x0, const OptimOptions& opt = {});
OptimResult direction_descent(Objective& obj, const arma::vec& x0, const OptimOptions& opt = {});

struct OptimizerInfo {
  std::string name;
  std::string summary;
  bool needs_direction = false;  // refuses to run without opt.direction
  bool supports_phases = false;
  std::function<OptimResult(Objective&, const arma::vec&, const OptimOptions&)> run;
};

// The table minimize() chooses from: scg, lbfgs, gd, cg, descent.
const std::vector<OptimizerInfo>& optimizers();
const OptimizerInfo* find_optimizer(const std::string& name);

// Runs the named optimiser; throws Error for an unknown name or options it cannot honour.
OptimResult minimize(const std::string& name, Objective& obj, const arma::vec& x0,
                     const OptimOptions& opt = {});

}  // namespace drbench
