#pragma once
// Locality preserving projections (He & Niyogi, NIPS 2003): a linear approximation of Laplacian
// eigenmaps. With a heat-kernel kNN graph W, L = D - W, the projection vectors are the smallest
// generalized eigenvectors of X L X^T a = lambda X D X^T a (their eq. 1). As in the paper, the
// data first go through PCA so that X D X^T is not singular (section 4, "PCA projection").
#include <armadillo>
#include <string>

#include "framework/core/keywords.hpp"
#include "methods/common/graph_projection.hpp"
#include "methods/common/linear_method.hpp"

namespace drbench {

class Lpp final : public EigenProjection {
 public:
  Lpp(arma::uword k, keywords::KernelWidth width, double pca_ratio, double reg,
      bool unit_vectors = false)
      : EigenProjection("lpp"),
        k_(k),
        width_(width),
        pca_ratio_(pca_ratio),
        reg_(reg),
        unit_vectors_(unit_vectors) {}
  void fit(const FitInput& in) override;
  double heat_width() const { return t_used_; }

 private:
  arma::uword k_;
  keywords::KernelWidth width_;
  double pca_ratio_, reg_;
  bool unit_vectors_;  // projection_norm: unit
  double t_used_ = 0.0;
};

}  // namespace drbench
