#pragma once
// Isometric Projection with spectral regression (Cai, He & Han, AAAI 2007, section 4; as IP+SR
// in Zheng et al., ICPR 2012, eq. 4): embed the graph first (top eigenvectors y_p of
// tau(D_G)), then fit each projection by ridge regression a_p = argmin sum_i (a^T x_i - y_p^i)^2
// + alpha |a|^2, i.e. a_p = (X X^T + alpha I)^-1 X y_p with centred X. No d x d generalized
// eigenproblem, so it works directly in the small-sample case.
#include <armadillo>

#include "framework/neighbours/geodesic.hpp"
#include "methods/common/linear_method.hpp"

namespace drbench {

class IpSr final : public LinearMethod {
 public:
  IpSr(GeodesicGraphSpec graph, double alpha)
      : LinearMethod("ip_sr"), graph_(graph), alpha_(alpha) {}
  void fit(const FitInput& in) override;
  // The graph embedding the regression targets (dim x n, rows are eigenvectors of tau).
  const arma::mat& responses() const { return responses_; }

 private:
  GeodesicGraphSpec graph_;
  double alpha_;
  arma::mat responses_;
};

}  // namespace drbench
