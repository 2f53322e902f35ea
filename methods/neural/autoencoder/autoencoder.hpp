#pragma once
// A deep autoencoder (Hinton & Salakhutdinov, Science 2006; the autoencoder of van der Maaten,
// Postma & van den Herik's 2009 review and of drtoolbox): a symmetric multilayer perceptron
// d -> h1 -> ... -> hk -> dim -> hk -> ... -> h1 -> d with sigmoid (or tanh) hidden units, a
// linear code layer and a linear output, trained on the squared reconstruction error by a
// full-batch quasi-Newton or conjugate-gradient optimiser from a seeded random start. The paper
// and the review pretrain the layers as stacked RBMs before this fine-tuning; drbench does not
// (docs/methods.md). The encoder half maps a point, training or new, to its code.
#include <armadillo>
#include <memory>
#include <string>
#include <vector>

#include "framework/core/rng.hpp"
#include "framework/optim/objective.hpp"
#include "methods/common/setting_method.hpp"

namespace drbench {

enum class Activation { Sigmoid, Tanh, Linear };
Activation activation_from(const std::string& name);

// The encoder's widths d, h1, ..., hk, dim: `hidden_layers` hidden layers, the first of
// `hidden_units` units and each next one half the last, never fewer than dim.
std::vector<arma::uword> autoencoder_widths(arma::uword d, arma::uword dim,
                                            arma::uword hidden_layers, arma::uword hidden_units);

// The symmetric network on one parameter vector: per layer (encoder first, then the mirrored
// decoder) its weights W (out x in, column-major) and then its biases.
class AutoencoderNet {
 public:
  AutoencoderNet(std::vector<arma::uword> encoder_widths, Activation act);
  arma::uword n_params() const { return n_params_; }
  // N(0, 1/fan-in) weights and zero biases.
  arma::vec initial(Rng& rng) const;
  arma::mat encode(const arma::vec& theta, const arma::mat& X) const;  // dim x n
  arma::mat reconstruct(const arma::vec& theta, const arma::mat& X) const;
  // sum_i |reconstruct(x_i) - x_i|^2 / (2 n), and its gradient by back-propagation.
  double loss(const arma::vec& theta, const arma::mat& X, arma::vec* grad) const;

 private:
  // Activations of layers 0..last (A[0] = X); layer l's output goes through the nonlinearity
  // when it is a hidden layer.
  std::vector<arma::mat> forward(const arma::vec& theta, const arma::mat& X,
                                 std::size_t last) const;
  bool hidden(std::size_t layer_out) const;
  std::vector<arma::uword> widths_;  // d, h1..hk, dim, hk..h1, d
  std::vector<arma::uword> offset_;  // where layer l's weights start in theta
  arma::uword n_params_ = 0;
  Activation act_;
};

class AutoencoderObjective final : public Objective {
 public:
  AutoencoderObjective(const AutoencoderNet& net, const arma::mat& X) : net_(net), X_(X) {}
  double evaluate(const arma::vec& x, arma::vec* grad) override { return net_.loss(x, X_, grad); }

 private:
  const AutoencoderNet& net_;
  const arma::mat& X_;
};

struct AutoencoderSetting {
  arma::uword hidden_layers = 2;
  arma::uword hidden_units = 64;
  std::string activation = "sigmoid";
  std::string optimizer = "lbfgs";  // lbfgs | cg | scg
  arma::uword iterations = 500;
  double tolerance = 1e-6;
};

class Autoencoder final : public SettingMethod<AutoencoderSetting> {
 public:
  using SettingMethod::SettingMethod;
  void fit(const FitInput& in) override;
  arma::mat transform(const arma::mat& Xnew) const override;
  // The network's reconstruction of the columns of X, in input units.
  arma::mat reconstruct(const arma::mat& X) const;
  double loss() const { return loss_; }  // the training loss at the end, in scaled units

 private:
  arma::mat scaled(const arma::mat& X) const;  // (X - mean) / scale
  std::unique_ptr<AutoencoderNet> net_;
  arma::vec theta_, mean_;
  double scale_ = 1.0;
  double loss_ = 0.0;
};

}  // namespace drbench
