#pragma once
// Line searches shared by every optimiser in framework/optim/: along a direction p from x, find a
// step a > 0 for phi(a) = f(x + a p). Each search counts its objective calls in `evals` and returns
// the accepted point with its full gradient, so the optimiser never evaluates it twice.
#include <armadillo>

#include "framework/optim/objective.hpp"

namespace drbench {

struct LinePoint {
  double a = 0.0;  // step length
  double f = 0.0;  // phi(a)
  double d = 0.0;  // phi'(a) = g(x + a p) . p
  arma::vec g;     // full gradient at x + a p
};

struct WolfeOptions {
  double c1 = 1e-4;  // sufficient decrease: phi(a) <= phi(0) + c1 a phi'(0)
  double c2 = 0.9;   // curvature: |phi'(a)| <= -c2 phi'(0) (strong) or phi'(a) >= c2 phi'(0)
  bool strong = true;
  int max_bracket = 25;  // trial steps while bracketing (each doubles the last)
  int max_zoom = 30;     // interpolation steps inside the bracket
  double a_max = 1e10;
};

struct ArmijoOptions {
  double c = 1e-4;   // sufficient decrease constant
  double rho = 0.5;  // each rejected step is multiplied by rho
  int max_steps = 60;
};

// Evaluates phi and phi' along p (keeps references: x and p must outlive it).
class LineFunction {
 public:
  LineFunction(Objective& obj, const arma::vec& x, const arma::vec& p, int& evals)
      : obj_(obj), x_(x), p_(p), evals_(evals) {}
  LinePoint operator()(double a);
  // phi(0) and phi'(0) from a known value and gradient at x.
  LinePoint origin(double f, const arma::vec& g) const;

 private:
  Objective& obj_;
  const arma::vec& x_;
  const arma::vec& p_;
  int& evals_;
};

// Wolfe search, Nocedal & Wright (2006) Alg. 3.5 (bracketing by doubling from a1) and 3.6 (zoom
// with safeguarded cubic interpolation, eq. 3.59). Returns true with `out` at a step that meets
// the conditions; when the bracket collapses first, true with the best point that at least
// decreased phi (sufficient decrease holds there), false when no step decreased it.
bool wolfe_search(LineFunction& phi, const LinePoint& p0, double a1, const WolfeOptions& opt,
                  LinePoint& out);

// Backtracking: a = a0, a0 rho, a0 rho^2, ... until phi(a) <= phi(0) + c a phi'(0). Starting a0
// at the previous iteration's accepted step (the elastic-embedding recipe) usually accepts the
// first trial. Returns false (and the last trial in `out`) when max_steps trials all failed.
bool armijo_search(LineFunction& phi, const LinePoint& p0, double a0, const ArmijoOptions& opt,
                   LinePoint& out);

// The conditions themselves, for callers and tests that want to check an accepted step.
bool satisfies_armijo(const LinePoint& p0, const LinePoint& pt, double c);
bool satisfies_wolfe(const LinePoint& p0, const LinePoint& pt, const WolfeOptions& opt);

}  // namespace drbench
