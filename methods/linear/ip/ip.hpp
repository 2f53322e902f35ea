#pragma once
// Isometric Projection (Cai, He & Han, AAAI 2007): Isomap's objective |tau(D_G) - X^T A A^T X|
// with the linear constraint A^T X X^T A = I, solved as X tau(D_G) X^T a = lambda X X^T a
// (largest). D_G holds geodesic distances on the kNN graph and tau(D) = -H S H / 2 with
// S_ij = D_ij^2 and H = I - 11^T/n (Tenenbaum et al. 2000). As for LPP the data first go through
// PCA so that X X^T is not singular.
// tau(D_G) comes from the geodesic pipeline (framework/neighbours/geodesic.hpp), the PCA pre-step
// from framework/linalg/pca.hpp.
#include <armadillo>

#include "framework/neighbours/geodesic.hpp"
#include "methods/common/linear_method.hpp"

namespace drbench {

class Ip final : public EigenProjection {
 public:
  Ip(GeodesicGraphSpec graph, double pca_ratio, double reg)
      : EigenProjection("ip"), graph_(graph), pca_ratio_(pca_ratio), reg_(reg) {}
  void fit(const FitInput& in) override;

 private:
  GeodesicGraphSpec graph_;
  double pca_ratio_, reg_;
};

}  // namespace drbench
