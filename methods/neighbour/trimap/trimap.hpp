#pragma once
// TriMap (Amid & Warmuth 2019, arXiv:1910.00204; the authors' trimap package 1.0): weighted
// triplets (i, j, k) that say "i is closer to j than to k", and the loss
//   sum_t w_t d_ij / (d_ij + d_ik),  d = 1 + |y_a - y_b|^2,
// minimised by delta-bar-delta (per-coordinate gains, momentum 0.5 then 0.8 from iteration 250).
// - data: min-max scaled to [0, 1] as a whole, centred, PCA to 100-D where it has more columns;
// - triplets: for each point its `inliers` nearest by the scaled similarity
//   p_ij = exp(-d_ij^2 / (sigma_i sigma_j)) (sigma_i: mean distance to the 4th-6th neighbours,
//   among the inliers + 50 nearest of the shared neighbour graph), each with `outliers` random
//   non-inliers k; plus `random_triplets` random (j, k) per point, ordered so p_ij >= p_ik, their
//   weights scaled by 0.1;
// - weights: log(p_ij / p_ik) (a difference of scaled squared distances; the ratio itself spans
//   twenty orders of magnitude and lets a few triplets dominate), shifted to a minimum of 0 and
//   passed through the tempered logarithm log_t(1 + w) = ((1 + w)^(1 - t) - 1) / (1 - t),
//   t = weight_temp (t = 1: the natural log).
// Start: PCA x 0.01, or Gaussian noise of std 1e-4.
//
// Transductive (out_of_sample = false): the paper has no out-of-sample rule. One thread, fixed
// order: the fit depends on the seed alone.
#include <armadillo>
#include <string>

#include "framework/core/params.hpp"
#include "methods/common/setting_method.hpp"

namespace drbench {

namespace trimap {

struct Triplets {
  arma::umat ijk;     // 3 x m
  arma::vec weights;  // m
};

// The loss over the triplets and its gradient with respect to Y (dim x n). `violated`: the number
// of triplets with d_ij > d_ik.
double loss(const arma::mat& Y, const Triplets& t, arma::mat* grad, double* violated = nullptr);

// ((1 + w)^(1 - t) - 1) / (1 - t), the natural log at t = 1.
double tempered_log(double x, double t);

}  // namespace trimap

// A setting of TriMap's parameters, read once in its `make`.
struct TrimapSetting {
  arma::uword neighbours = 12;           // inliers per point
  std::string neighbour_graph = "auto";  // parse_graph_kind's text
  arma::uword outliers = 4, random_triplets = 3;
  double weight_temp = 0.5;
  int iterations = 400;
  double learning_rate = 0.1;
  bool pca_init = true;
};

class Trimap final : public SettingMethod<TrimapSetting> {
 public:
  using SettingMethod::SettingMethod;
  void fit(const FitInput& in) override;
  const trimap::Triplets& triplets() const { return triplets_; }
  arma::uword knn_triplets() const { return n_knn_; }

 private:
  trimap::Triplets triplets_;
  arma::uword n_knn_ = 0;
};

}  // namespace drbench
