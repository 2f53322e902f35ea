#pragma once
// MLP back-constraint (Lawrence & Quinonero-Candela 2006): one tanh hidden layer,
//   X = W2 tanh(W1 Y + b1 1^T) + b2 1^T,   W1: h x d, W2: q x h.
// Backpropagation: with H = tanh(A), dL/dW2 = G H^T, dL/db2 = G 1, dL/dA = (W2^T G) % (1 - H^2),
// dL/dW1 = (dL/dA) Y^T, dL/db1 = (dL/dA) 1, where G = dL/dX.
#include <armadillo>
#include <cstdint>

#include "methods/gplvm/back_constraint.hpp"

namespace drbench {

class MlpBackConstraint final : public BackConstraint {
 public:
  // The hidden layer starts random from `seed` (draw it from the task's Rng); setup() then fits
  // the output layer to X0 by least squares.
  MlpBackConstraint(arma::uword hidden, std::uint64_t seed);
  std::string name() const override { return "mlp"; }
  void setup(const arma::mat& Y, const arma::mat& X0) override;
  arma::vec params() const override;
  void set_params(const arma::vec& p) override;
  arma::mat latent() const override;
  arma::vec chain(const arma::mat& gX) const override;
  arma::mat map(const arma::mat& Ynew) const override;

 private:
  arma::mat hidden_units(const arma::mat& Y) const;

  arma::uword h_;
  std::uint64_t seed_;
  arma::mat Y_;
  arma::mat W1_, W2_;
  arma::vec b1_, b2_;
};

}  // namespace drbench
