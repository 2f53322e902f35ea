#pragma once
// DSNE, discriminative stochastic neighbour embedding, as the DEE paper (papers/001 section 2.2)
// states it: a linear map A (dim x D) minimising the class-split KL divergence of eq. 7 with
// nonlinear conjugate gradients and a Wolfe line search. No public code exists; the objective and
// gradient are derived in dsne_objective.hpp and checked by finite differences. Out of sample: A x.
// In 2-D this objective does not separate classes (the paper's Figs. 7-10 show clusters): the two
// groups are normalised apart, so nothing in E rewards a gap between classes, and a nearly flat P
// over different-class pairs asks for even different-class distances. Layouts that separate the
// classes score a higher E than the mixed optimum; scripts/dsne_reference.py (an independent
// numpy DSNE) shows it, and agrees with this objective to 1e-11 (results/figures/README.md).
// Linear time (`gradient: barnes_hut`, or auto from 5,000 points in 1 to 3 dimensions): P on the
// same-class and different-class kNN graphs (`neighbours` each, `neighbour_graph`), both groups'
// Student-t sums by Barnes-Hut on Y = A X (`theta`): dsne_bh_objective.hpp. The sparse P is a
// different model from the dense one (its truncation). Same bits for any thread count.
#include <armadillo>
#include <string>
#include <utility>

#include "framework/core/keywords.hpp"
#include "framework/core/linear_method.hpp"

namespace drbench {

struct DsneSettings {
  // sigma of eq. 5; relative 1 (the default): 2 sigma^2 = the mean same-class squared distance
  keywords::KernelWidth kernel_width;
  int iterations = 1000;
  double tolerance = 1e-3;
  bool pca_start = false;  // A0 from the leading principal directions instead of Gaussian rows
  // exact | barnes_hut (the linear-time path) | auto (dsne_uses_barnes_hut)
  std::string gradient = "exact";
  double theta = 0.5;
  arma::uword neighbours = 30;
  std::string neighbour_graph = "auto";
};

// Whether a setting takes the linear-time path for n points in dim dimensions (`gradient`).
bool dsne_uses_barnes_hut(const std::string& gradient, arma::uword n, arma::uword dim);

class Dsne final : public LinearMethod {
 public:
  explicit Dsne(DsneSettings s) : LinearMethod("dsne"), s_(std::move(s)) {}
  void fit(const FitInput& in) override;
  double objective() const { return objective_; }

 private:
  DsneSettings s_;
  double objective_ = 0.0;
};

}  // namespace drbench
