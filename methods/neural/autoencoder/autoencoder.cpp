#include "methods/neural/autoencoder/autoencoder.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/optim/optimizer.hpp"

namespace drbench {

Activation activation_from(const std::string& name) {
  if (name == "tanh") return Activation::Tanh;
  if (name == "linear") return Activation::Linear;
  return Activation::Sigmoid;
}

std::vector<arma::uword> autoencoder_widths(arma::uword d, arma::uword dim,
                                            arma::uword hidden_layers, arma::uword hidden_units) {
  std::vector<arma::uword> w{d};
  arma::uword units = hidden_units;
  for (arma::uword l = 0; l < hidden_layers; ++l, units /= 2) w.push_back(std::max(units, dim));
  w.push_back(dim);
  return w;
}

AutoencoderNet::AutoencoderNet(std::vector<arma::uword> encoder_widths, Activation act)
    : widths_(std::move(encoder_widths)), act_(act) {
  for (std::size_t l = widths_.size() - 1; l-- > 0;) widths_.push_back(widths_[l]);
  for (std::size_t l = 0; l + 1 < widths_.size(); ++l) {
    offset_.push_back(n_params_);
    n_params_ += widths_[l + 1] * (widths_[l] + 1);
  }
}

// The code layer (the middle one) and the output are linear; every other layer is hidden.
bool AutoencoderNet::hidden(std::size_t layer_out) const {
  return layer_out != widths_.size() / 2 && layer_out != widths_.size() - 1;
}

arma::vec AutoencoderNet::initial(Rng& rng) const {
  arma::vec theta(n_params_, arma::fill::zeros);
  for (std::size_t l = 0; l + 1 < widths_.size(); ++l) {
    const arma::uword out = widths_[l + 1], in = widths_[l];
    theta.subvec(offset_[l], offset_[l] + out * in - 1) =
        arma::vectorise(rng.randn(out, in)) / std::sqrt(double(in));
  }
  return theta;
}

std::vector<arma::mat> AutoencoderNet::forward(const arma::vec& theta, const arma::mat& X,
                                               std::size_t last) const {
  std::vector<arma::mat> A{X};
  for (std::size_t l = 0; l < last; ++l) {
    const arma::uword out = widths_[l + 1], in = widths_[l], at = offset_[l];
    const arma::mat W = arma::reshape(theta.subvec(at, at + out * in - 1), out, in);
    arma::mat Z = W * A.back();
    Z.each_col() += theta.subvec(at + out * in, at + out * (in + 1) - 1);
    if (hidden(l + 1)) {
      if (act_ == Activation::Sigmoid)
        Z = 1.0 / (1.0 + arma::exp(-Z));
      else if (act_ == Activation::Tanh)
        Z = arma::tanh(Z);
    }
    A.push_back(std::move(Z));
  }
  return A;
}

arma::mat AutoencoderNet::encode(const arma::vec& theta, const arma::mat& X) const {
  return forward(theta, X, widths_.size() / 2).back();
}

arma::mat AutoencoderNet::reconstruct(const arma::vec& theta, const arma::mat& X) const {
  return forward(theta, X, widths_.size() - 1).back();
}

double AutoencoderNet::loss(const arma::vec& theta, const arma::mat& X, arma::vec* grad) const {
  const std::size_t layers = widths_.size() - 1;
  const std::vector<arma::mat> A = forward(theta, X, layers);
  const double n = double(X.n_cols);
  arma::mat delta = A.back() - X;
  const double f = arma::accu(arma::square(delta)) / (2.0 * n);
  if (!grad) return f;
  grad->set_size(n_params_);
  delta /= n;  // dE/dZ of the linear output layer
  for (std::size_t l = layers; l-- > 0;) {
    const arma::uword out = widths_[l + 1], in = widths_[l], at = offset_[l];
    grad->subvec(at, at + out * in - 1) = arma::vectorise(delta * A[l].t());
    grad->subvec(at + out * in, at + out * (in + 1) - 1) = arma::sum(delta, 1);
    if (l == 0) break;
    const arma::mat W = arma::reshape(theta.subvec(at, at + out * in - 1), out, in);
    arma::mat back = W.t() * delta;
    if (hidden(l)) {
      if (act_ == Activation::Sigmoid)
        back %= A[l] % (1.0 - A[l]);
      else if (act_ == Activation::Tanh)
        back %= 1.0 - arma::square(A[l]);
    }
    delta = std::move(back);
  }
  return f;
}

arma::mat Autoencoder::scaled(const arma::mat& X) const {
  return (X.each_col() - mean_) / scale_;
}

void Autoencoder::fit(const FitInput& in) {
  const arma::uword d = in.X.n_rows;
  // One scale for all coordinates (their root mean square about the mean) keeps the hidden units
  // off their flat tails at the start without reweighting the input dimensions.
  mean_ = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean_;
  const double rms = std::sqrt(arma::accu(arma::square(Xc)) / double(Xc.n_elem));
  scale_ = rms > 0 ? rms : 1.0;
  const arma::mat Xs = Xc / scale_;
  net_ = std::make_unique<AutoencoderNet>(
      autoencoder_widths(d, in.dim, s_.hidden_layers, s_.hidden_units),
      activation_from(s_.activation));
  AutoencoderObjective obj(*net_, Xs);
  OptimOptions opt;
  opt.max_iterations = int(s_.iterations);
  opt.x_tol = 0;
  opt.f_tol = 0;
  opt.g_tol = 0;
  opt.rel_f_tol = s_.tolerance;
  opt.f_window = 10;
  opt.trace = in.trace;
  // cg has no objective-window test: it stops on the parameters' relative change over a step.
  if (s_.optimizer == "cg") opt.rel_x_tol = s_.tolerance;
  const OptimResult r = minimize(s_.optimizer, obj, net_->initial(in.rng), opt);
  theta_ = r.x;
  loss_ = r.f;
  Y_ = net_->encode(theta_, Xs);
}

arma::mat Autoencoder::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != mean_.n_elem)
    throw MethodError("autoencoder: new points have dimension " + std::to_string(Xnew.n_rows) +
                      ", the model was fitted on dimension " + std::to_string(mean_.n_elem));
  return net_->encode(theta_, scaled(Xnew));
}

arma::mat Autoencoder::reconstruct(const arma::mat& X) const {
  return (net_->reconstruct(theta_, scaled(X)) * scale_).eval().each_col() + mean_;
}

namespace {

// Parameters of the network: both halves' weights and biases.
double autoencoder_params(const std::vector<arma::uword>& w) {
  double p = 0;
  for (std::size_t l = 0; l + 1 < w.size(); ++l)
    p += double(w[l + 1]) * double(w[l] + 1) + double(w[l]) * double(w[l + 1] + 1);
  return p;
}

// The parameters the contract and the budget both read.
struct AutoencoderKeys {
  IntKey hidden_layers = ParamSpec::integer(
      "hidden_layers", 2, 0, 8,
      "hidden layers of the encoder (the decoder mirrors them); 0 = a single linear code layer");
  // `hidden` as the GP-LVM back-constraint's MLP spells it (docs/parameters.md).
  IntKey hidden_units = ParamSpec::integer(
      "hidden", 64, 1, 1e5,
      "units of the first hidden layer; each next one has half as many, never fewer than dims "
      "(Hinton & Salakhutdinov's 1000-500-250: hidden_layers 3, hidden 1000)");
  IntKey iterations = keywords::iterations(500, 1000000, "of the optimiser");
};

MethodInfo autoencoder_info() {
  MethodInfo m = describe_method(
      "autoencoder", "neural",
      "deep autoencoder: a symmetric MLP trained on the squared reconstruction error; the code "
      "layer is the embedding",
      "Hinton & Salakhutdinov, Science 313 (2006), without RBM pretraining; van der Maaten, "
      "Postma & van den Herik, TiCC TR 2009-005, section 3.2.5");
  const auto [hidden_layers, hidden_units, iterations] = AutoencoderKeys{};
  const ChoiceKey activation =
      ParamSpec::choice("activation", "sigmoid", {"sigmoid", "tanh", "linear"},
                        "nonlinearity of the hidden layers; the code and output layers are linear");
  const ChoiceKey optimizer = keywords::optimizer(
      "lbfgs", {"lbfgs", "cg", "scg"},
      "full-batch L-BFGS, Polak-Ribiere conjugate gradients (drtoolbox's choice), or scaled "
      "conjugate gradients");
  const RealKey tolerance = keywords::tolerance(
      1e-6, std::nullopt,
      "stop when the loss fell by at most this fraction over the last 10 iterations (cg: when "
      "one step changes the weights by at most this fraction of their norm)");
  m.params = {hidden_layers, hidden_units, activation, optimizer, iterations, tolerance};
  m.iterative = true;
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Autoencoder>(
        AutoencoderSetting{arma::uword(hidden_layers(p)), arma::uword(hidden_units(p)),
                           activation(p), optimizer(p), arma::uword(iterations(p)), tolerance(p)});
  };
  return m;
}

Budget autoencoder_budget() {
  const AutoencoderKeys keys;
  const auto widths = [keys](const TaskSize& z) {
    return autoencoder_widths(z.shape.d, z.dim, keys.hidden_layers(z.p), keys.hidden_units(z.p));
  };
  // Forward and backward passes: about 6 flops per parameter per point, 1.5 evaluations per
  // iteration.
  TaskEstimate cost = [=](const TaskSize& z) {
    return double(keys.iterations(z.p)) * 1.5 * 6.0 * z.n * autoencoder_params(widths(z));
  };
  // Every layer's activations over the training points (both halves) and two back-propagated
  // blocks; the parameters, their gradient and the optimiser's ten L-BFGS pairs.
  TaskEstimate memory = [=](const TaskSize& z) {
    const auto w = widths(z);
    double units = 0;
    for (const arma::uword u : w) units += 2.0 * double(u);
    const double widest = double(*std::max_element(w.begin(), w.end()));
    return 8.0 * (z.n * (units + 2.0 * widest + z.d) + z.n_test * (units / 2 + z.d) +
                  25.0 * autoencoder_params(w));
  };
  return make_budget(std::move(cost), std::move(memory));
}

}  // namespace
DRBENCH_METHOD(autoencoder_info, autoencoder_budget())
}  // namespace drbench
