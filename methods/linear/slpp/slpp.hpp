#pragma once
// Supervised LPP (Zheng, Yang, Tan, Jia, Yang, "Gabor feature-based face recognition using
// supervised locality preserving projection", Signal Processing 87(10), 2007): the LPP
// eigenproblem with the graph built from labels, W_ij = exp(-|xi-xj|^2/t) (or 1) when x_i and x_j
// belong to the same class and 0 otherwise.
#include <armadillo>

#include "framework/neighbours/graph_weights.hpp"
#include "methods/common/linear_method.hpp"

namespace drbench {

class Slpp final : public EigenProjection {
 public:
  // Up to this many same-class pairs (sum n_c^2) the graph is stored as before (the committed
  // results' path); above it the quadratics are accumulated without it.
  static constexpr double kStoredPairsLimit = 2.5e7;
  Slpp(ClassWeight kind, keywords::KernelWidth width, double pca_ratio, double reg,
       double stored_pairs_limit = kStoredPairsLimit)
      : EigenProjection("slpp"),
        kind_(kind),
        width_(width),
        pca_ratio_(pca_ratio),
        reg_(reg),
        stored_pairs_limit_(stored_pairs_limit) {}
  void fit(const FitInput& in) override;

 private:
  ClassWeight kind_;
  keywords::KernelWidth width_;
  double pca_ratio_, reg_;
  double stored_pairs_limit_;
};

}  // namespace drbench
