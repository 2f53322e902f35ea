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
//    exaggeration), after which the objective is re-evaluated and any memory is reset
//    ("momentum" keeps its gains and update across phases and takes each phase's momentum).
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
  double momentum = 0.0;  // "momentum" only: the update's momentum during this phase
};

// "momentum": gradient descent with momentum and per-coordinate gains (Jacobs 1988), t-SNE's
// optimiser (van der Maaten & Hinton 2008) in openTSNE's phased form. No line search: a fixed
// learning rate, and it runs every iteration of its phases (the tolerances do not apply).
struct MomentumOptions {
  double learning_rate = 200.0;
  double gain_increase = 0.2;  // added where the gradient and the last update disagree in sign
  double gain_decrease = 0.8;  // factor where they agree
  double min_gain = 0.01;
  // The objective's value is asked for every this many iterations and at the last one; the other
  // iterations call Objective::gradient and their trace rows carry NaN (t-SNE's KL over all
  // pairs costs more than its gradient).
  int objective_every = 1;
  // Multiplies |g| in the trace, for objectives whose gradient is a scaled one (t-SNE's / 4).
  double grad_norm_scale = 1.0;
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
  // Stop when the objective fell by at most rel_f_tol * max(|f|, 1) over the last f_window
  // iterations (0 disables). Netlab's one-step test above passes after a run of rejected SCG steps
  // or stalls on objectives that fall by a constant fraction per step (GPLRF: 2-3 % per thousand
  // iterations at 3,000); a window of iterations measures the rate of descent instead.
  // Honoured by scg and lbfgs (ObjectiveWindow).
  double rel_f_tol = 0.0;
  int f_window = 100;
  Trace* trace = nullptr;  // non-null: one row per iteration plus a "stop_reason" note

  std::function<arma::vec(const arma::vec& x, const arma::vec& g)> direction;
  std::function<bool(const IterationInfo&)> callback;  // false: stop ("callback")
  std::vector<Phase> phases;

  // Line search of gd, cg and descent (scg needs none; lbfgs always uses strong Wolfe defaults).
  // cg caps c2 at 0.1, the tighter search conjugacy needs.
  LineSearchKind line_search = LineSearchKind::Wolfe;
  WolfeOptions wolfe;
  ArmijoOptions armijo;
  MomentumOptions momentum;
};

struct OptimResult {
  arma::vec x;
  double f = 0.0;
  int iterations = 0;
  int evaluations = 0;      // objective calls (value or value+gradient)
  std::string stop_reason;  // "max_iterations", "x_and_f_tolerance", "gradient_zero", ...
  // Ends the run at (at, value) for `why`, noted in `trace` when there is one.
  OptimResult& stop(const arma::vec& at, double value, const std::string& why, Trace* trace) {
    x = at;
    f = value;
    stop_reason = why;
    if (trace) trace->note("stop_reason", why);
    return *this;
  }
  bool converged() const {
    return stop_reason != "max_iterations" && stop_reason != "failed" &&
           stop_reason != "line_search_failed";
  }
};

// The objective-window test of OptimOptions::rel_f_tol: fed the objective after every iteration
// (rejected steps too: a window of them is no progress either), it says when the decrease over
// the last `window` iterations is below tol * max(|f|, 1). Inactive (never true) for tol = 0.
class ObjectiveWindow {
 public:
  ObjectiveWindow(double tol, int window);
  bool converged(double f);

 private:
  double tol_;
  std::vector<double> ring_;  // the last `window` objectives
  std::size_t next_ = 0, filled_ = 0;
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

// Phased momentum descent with gains (momentum.cpp; MomentumOptions). One trace row per iteration
// (step = norm of the update); stops at max_iterations, on a callback or when the update or an
// asked-for objective is not finite ("not_finite").
OptimResult momentum_descent(Objective& obj, const arma::vec& x0, const OptimOptions& opt = {});

struct OptimizerInfo {
  std::string name;
  std::string summary;
  bool needs_direction = false;  // refuses to run without opt.direction
  bool supports_phases = false;
  std::function<OptimResult(Objective&, const arma::vec&, const OptimOptions&)> run;
};

// The table minimize() chooses from: scg, lbfgs, gd, cg, descent, momentum.
const std::vector<OptimizerInfo>& optimizers();
const OptimizerInfo* find_optimizer(const std::string& name);

// Runs the named optimiser; throws Error for an unknown name or options it cannot honour.
OptimResult minimize(const std::string& name, Objective& obj, const arma::vec& x0,
                     const OptimOptions& opt = {});

}  // namespace drbench
