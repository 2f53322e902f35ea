#pragma once
// Phased gradient descent with momentum and per-coordinate gains (Jacobs 1988), the optimiser of
// t-SNE (van der Maaten & Hinton 2008) as openTSNE organises it: the gradient estimator (exact,
// Barnes-Hut, ...) is passed in, and the optimiser runs a list of phases, each with its own
// momentum and exaggeration, over one set of gains and one update vector.
#include <armadillo>
#include <functional>
#include <string>
#include <vector>

#include "framework/core/trace.hpp"

namespace drbench {

struct GdPhase {
  int iterations = 0;
  double momentum = 0.0;
  double exaggeration = 1.0;  // handed to the gradient estimator (t-SNE's early exaggeration)
};

struct MomentumGdOptions {
  std::vector<GdPhase> phases;
  double learning_rate = 200.0;
  double gain_increase = 0.2;  // added where the gradient and the last update disagree in sign
  double gain_decrease = 0.8;  // factor where they agree
  double min_gain = 0.01;
  // The estimator is asked for the objective every this many iterations and at the last one;
  // trace rows in between carry NaN (an objective can cost more than its gradient).
  int objective_every = 1;
  Trace* trace = nullptr;  // one row per iteration; step = Frobenius norm of the update
};

// Fills grad (same shape as Y) with the gradient the update uses at exaggeration e; returns the
// objective when want_objective, anything (NaN) otherwise. grad_norm_scale multiplies |grad| in
// the trace, for estimators whose returned gradient is a scaled one (t-SNE's KL gradient / 4).
struct GradientEstimator {
  std::function<double(const arma::mat& Y, double exaggeration, bool want_objective,
                       arma::mat& grad)>
      evaluate;
  double grad_norm_scale = 1.0;
};

// Called after every iteration with the 0-based global iteration and the current Y; returning
// false stops the optimisation ("callback").
using GdCallback = std::function<bool(int iteration, const arma::mat& Y)>;

struct MomentumGdResult {
  int iterations = 0;
  double objective = 0.0;   // at the last iteration (always evaluated)
  std::string stop_reason;  // "iterations", "callback", "not_finite"
};

// Minimises in place. Per coordinate: gain += 0.2 where sign(grad) != sign(update), else gain *=
// 0.8, floored at min_gain; update = momentum * update - learning_rate * gain * grad; Y += update.
MomentumGdResult momentum_gd(arma::mat& Y, const GradientEstimator& grad,
                             const MomentumGdOptions& opt, const GdCallback& callback = {});

}  // namespace drbench
