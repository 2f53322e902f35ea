#pragma once
// Sparse Orthogonal Isometric Projection (Zheng, Tang, Fang & Zhang, ICPR 2012, section 4): each
// OIP projection vector v_p defines responses y_p = X^T v_p; the sparse vector is the lasso fit
//   v_p^sparse = argmin_v sum_i (v^T x_i - y_p^i)^2 + alpha |v|_1,
// solved with LARS (in the manner of Zou, Hastie & Tibshirani's sparse PCA) and scaled to unit
// length as sparse PCA does. The paper gives no value for alpha; both ways of choosing the
// sparsity are parameters: `nonzeros` (cardinality per vector) and `lambda` (alpha/2, relative
// to the largest correlation |X y_p|_inf, at which every coefficient is zero).
#include <armadillo>

#include "framework/neighbours/geodesic.hpp"
#include "methods/common/linear_method.hpp"

namespace drbench {

class Soip final : public LinearMethod {
 public:
  Soip(GeodesicGraphSpec graph, arma::uword nonzeros, double lambda)
      : LinearMethod("soip"), graph_(graph), nonzeros_(nonzeros), lambda_(lambda) {}
  void fit(const FitInput& in) override;
  const arma::mat& dense_projection() const { return V_; }  // the OIP vectors it sparsifies

 private:
  GeodesicGraphSpec graph_;
  arma::uword nonzeros_;
  double lambda_;
  arma::mat V_;
};

}  // namespace drbench
