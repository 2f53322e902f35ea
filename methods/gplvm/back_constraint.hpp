#pragma once
// Back-constraints (Lawrence & Quinonero-Candela 2006): the latent points are a smooth function
// of the observations, X = g(Y; params), and the optimiser works on the map's parameters through
// the chain rule. New points are then mapped by g directly. Implementations (RBF kernel
// regression as in GPLRF's out-of-sample section, MLP, linear) live next to this header.
#include <armadillo>
#include <memory>
#include <string>
#include <utility>

namespace drbench {

class BackConstraint {
 public:
  virtual ~BackConstraint() = default;
  virtual std::string name() const = 0;
  // Called once before optimisation with the (centred) training data Y (d x n) and the initial
  // latent points X0 (q x n, e.g. PPCA): fixes anything that depends on Y (kernel matrix, ...)
  // and sets the parameters so that g(Y) reproduces X0 as closely as possible (least squares).
  virtual void setup(const arma::mat& Y, const arma::mat& X0) = 0;
  virtual arma::vec params() const = 0;
  virtual void set_params(const arma::vec& p) = 0;
  // q x n latent points of the training data under the current parameters.
  virtual arma::mat latent() const = 0;
  // dL/dparams from dL/dX (q x n) at the current parameters (chain rule through g).
  virtual arma::vec chain(const arma::mat& gX) const = 0;
  // q x m latent points for new (centred) observations, m columns of Ynew.
  virtual arma::mat map(const arma::mat& Ynew) const = 0;
};

// A back-constraint that is an affine map X = W F + b 1^T of features F of the observations
// (linear: F = Y; RBF: F = K): its parameters are [vec(W); b], and dL/dW = (dL/dX) F^T,
// dL/db = (dL/dX) 1. A subclass states its features and sets W and b in setup().
class AffineBackConstraint : public BackConstraint {
 public:
  arma::vec params() const override;
  void set_params(const arma::vec& p) override;

 protected:
  // `who` names the back-constraint in the parameter-count check.
  explicit AffineBackConstraint(std::string who) : who_(std::move(who)) {}
  // W F + b 1^T.
  arma::mat affine(const arma::mat& F) const;
  // The parameters' gradient given dL/dX and dL/dW = (dL/dX) F^T.
  static arma::vec chain_affine(const arma::mat& gX, const arma::mat& gW);

  arma::mat W_;
  arma::vec b_;

 private:
  std::string who_;
};

}  // namespace drbench
