#pragma once
// PaCMAP (Wang, Huang, Rudin & Shaposhnik, JMLR 22(201), 2021, sec. 5 and Algorithm 1; the
// authors' pacmap package): three kinds of pairs, chosen once, and a three-phase weighting of
// their losses, minimised with Adam.
// - neighbour pairs: each point's `neighbours` nearest by the scaled distance
//   d_ij^2 / (sigma_i sigma_j) among its neighbours + 50 nearest (sigma_i: the mean distance to
//   its 4th to 6th neighbours), from the shared neighbour graph;
// - mid-near pairs: mn_ratio x neighbours per point, each the second nearest of 6 random points;
// - further pairs: fp_ratio x neighbours random non-neighbours per point.
// With d = 1 + |y_i - y_j|^2 the losses are w_NB d / (10 + d), w_MN d / (10000 + d) and
// w_FP / (1 + d); the weights move from (2, 1000 -> 3, 1) over the first 100 iterations to
// (3, 3, 1) for the next 100 and (1, 0, 1) for the rest. Start: PCA scaled so the first component
// has standard deviation 0.01, or Gaussian noise of std 1e-4.
//
// Transductive (out_of_sample = false): the paper gives no out-of-sample rule. The whole fit runs
// on one thread in a fixed order, so it depends on the seed alone (the neighbour graph uses
// `threads` and is the same for any count).
#include <armadillo>
#include <string>

#include "framework/core/params.hpp"
#include "methods/common/setting_method.hpp"

namespace drbench {

namespace pacmap {

struct Pairs {
  arma::umat nb, mn, fp;  // 2 x m each: (i, j)
};

struct Weights {
  double nb = 1.0, mn = 0.0, fp = 1.0;
};
// The weights of iteration `itr` (0-based) of the three-phase schedule.
Weights weights_at(int itr);

// The loss of the embedding Y (dim x n) over the pairs with weights w, and its gradient.
double loss(const arma::mat& Y, const Pairs& p, const Weights& w, arma::mat* grad);

// Neighbour pairs from a graph of each point's candidates (k x n indices and distances, nearest
// first, at least 6 rows): the `n_nb` smallest scaled distances d^2 / (sigma_i sigma_j).
arma::umat neighbour_pairs(const arma::umat& index, const arma::mat& dist, arma::uword n_nb);
// Mid-near pairs: per point, `n_mn` times the second nearest of 6 distinct random other points.
arma::umat mid_near_pairs(const arma::mat& X, arma::uword n_mn, Rng& rng);
// Further pairs: per point, `n_fp` distinct random points that are neither the point nor among its
// neighbour pairs.
arma::umat further_pairs(arma::uword n, const arma::umat& nb, arma::uword n_nb, arma::uword n_fp,
                         Rng& rng);

}  // namespace pacmap

// A setting of PaCMAP's parameters, read once in its `make`.
struct PacmapSetting {
  arma::uword neighbours = 10;
  std::string neighbour_graph = "auto";  // parse_graph_kind's text
  double mn_ratio = 0.5, fp_ratio = 2.0;
  int iterations = 450;
  double learning_rate = 1.0;
  bool pca_init = true;
};

class Pacmap final : public SettingMethod<PacmapSetting> {
 public:
  using SettingMethod::SettingMethod;
  void fit(const FitInput& in) override;
  const pacmap::Pairs& pairs() const { return pairs_; }

 private:
  pacmap::Pairs pairs_;
};

}  // namespace drbench
