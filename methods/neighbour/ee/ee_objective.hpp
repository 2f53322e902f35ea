#pragma once
// The elastic embedding objective (Carreira-Perpinan 2010, eq. 1 and 2; DEE paper eq. 1-4) over
// the embedding Y (d x N), with d2_nm = |y_n - y_m|^2 and sums over all ordered pairs:
//   E(Y) = sum w+_nm d2_nm + lambda sum w-_nm exp(-d2_nm),
//   G(Y) = 4 Y (L+ - lambda L~),  L~ the Laplacian of w~_nm = w-_nm exp(-d2_nm).
// Search directions, each a preconditioned -G:
//   spectral (Vladymyrov & Carreira-Perpinan 2012): -G (4 L+ + mu I)^-1, the Cholesky factor of
//     4 L+ + mu I computed once, two triangular solves per iteration;
//   fixed point (Carreira-Perpinan 2010, eq. 4): Y (D+ - L+ + lambda L~) D+^-1 - Y = -G (4 D+)^-1.
// The parameter vector is vectorise(Y).
#include <armadillo>

#include "framework/optim/objective.hpp"

namespace drbench {

// The fixed-point direction -G (4 D+)^-1 for the gradient g = vectorise(G) (dim x N) and the
// degrees Dp of w+: the same for the exact and the linear-time objective.
arma::vec ee_fixed_point_direction(const arma::vec& g, const arma::vec& Dp, arma::uword dim);

class EeObjective final : public Objective {
 public:
  // Wp, Wm: symmetric N x N weights with zero diagonals.
  EeObjective(arma::mat Wp, arma::mat Wm, double lambda, arma::uword dim);
  double evaluate(const arma::vec& y, arma::vec* grad) override;

  // Factorises 4 L+ + mu I with mu = ridge * trace(4 L+) / N (L+ is singular along the constant
  // vector, and along each component's indicator when the w+ graph is disconnected); returns mu.
  double factor_spectral(double ridge);
  // -G (4 L+ + mu I)^-1 as a vector, centred (E is translation invariant, and the ridge would
  // otherwise amplify rounding along the constant vector).
  arma::vec spectral_direction(const arma::vec& g) const;
  // -G (4 D+)^-1.
  arma::vec fixed_point_direction(const arma::vec& g) const;

 private:
  arma::mat Wp_, Wm_;
  arma::vec Dp_;  // degrees of w+
  double lambda_;
  arma::uword dim_;
  arma::mat R_, Rt_;       // upper Cholesky factor of 4 L+ + mu I and its transpose
  arma::mat D2_, Wt_, W_;  // work space of evaluate(), kept between calls
};

}  // namespace drbench
