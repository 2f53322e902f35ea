#pragma once
// t-SNE (van der Maaten & Hinton 2008) with the exact O(n^2) gradient or the Barnes-Hut
// approximation (van der Maaten 2014). Affinities from framework/affinity (all points for the
// exact gradient, the 3 x perplexity nearest neighbours for Barnes-Hut); the optimiser is the
// phased momentum/gains descent of framework/optim/momentum_gd with the openTSNE schedule:
// exaggeration 12 for 250 iterations at momentum 0.5, then exaggeration 1 at momentum 0.8;
// learning rate max(n / 12, 200) on the gradient / 4; start from PCA scaled to std 1e-4.
// Transductive: the embedding of the training points only.
#include <armadillo>

#include "framework/core/method.hpp"
#include "framework/core/params.hpp"

namespace drbench {

// First `dim` principal components of the columns of X (d x n), signs fixed so that each
// component's largest-magnitude score is positive, scaled so that the first has standard
// deviation `scale`.
arma::mat pca_start(const arma::mat& X, arma::uword dim, double scale);

class Tsne final : public Method {
 public:
  explicit Tsne(const ParamSet& p) : params_(p) {}
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return Y_; }
  double kl() const { return kl_; }

 private:
  ParamSet params_;
  arma::mat Y_;
  double kl_ = 0.0;
};

}  // namespace drbench
