#pragma once
// Discriminative common vectors (Cevikalp, Neamtu, Wilkes & Barkana, IEEE TPAMI 27(1), 2005,
// section 2.2, "the method based on the within-class scatter matrix"):
//   1. Q spans the range of S_w; projecting onto its orthogonal complement (the null space of
//      S_w) maps every training sample of class c to one common vector x_com^c (eq. 12-13);
//   2. the projection W is the set of eigenvectors of the scatter S_com of the common vectors
//      with nonzero eigenvalue (eq. 15-16): at most C-1 directions, orthonormal;
//   3. features are Omega = W^T x (eq. 17).
// The null space exists when d > n - C (the small-sample case the method is designed for). With
// more samples, directions of S_w whose eigenvalue is below `null_tol` times the largest are
// treated as null, so one code path covers both; a null space too small for `dims` is an error
// that names `null_tol`.
#include <armadillo>

#include "methods/linear/linear_method.hpp"

namespace drbench {

class Dcv final : public LinearMethod {
 public:
  explicit Dcv(double null_tol) : LinearMethod("dcv"), null_tol_(null_tol) {}
  void fit(const FitInput& in) override;
  arma::uword null_dim() const { return null_dim_; }

 private:
  double null_tol_;
  arma::uword null_dim_ = 0;
};

}  // namespace drbench
