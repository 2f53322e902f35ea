#pragma once
// Discriminative common vectors (Cevikalp, Neamtu, Wilkes & Barkana, IEEE TPAMI 27(1), 2005,
// section 2.2, "the method based on the within-class scatter matrix"):
//   1. Q spans the range of S_w; projecting onto its orthogonal complement (the null space of
//      S_w) maps every training sample of class c to one common vector x_com^c (eq. 12-13);
//   2. the projection W is the set of eigenvectors of the scatter S_com of the common vectors
//      with nonzero eigenvalue (eq. 15-16): at most C-1 directions, orthonormal;
//   3. features are Omega = W^T x (eq. 17). The training features of a class all coincide (its
//      discriminative common vector), so 1-NN on the embedding is the paper's classifier: the
//      nearest discriminative common vector.
// The paper's Gram-Schmidt method (difference subspace of x_k^c - x_1^c) gives the same W;
// scripts/make_dcv_fixture.py computes it that way as the test reference.
// W is also the limit of regularised LDA, S_b w = l (S_w + r I) w, as r -> 0, so DCV inherits
// its weakness when n - C is close to d: the null space is then small, test samples vary inside
// it and accuracy drops (USPS in [0, 1], d = 256, 25 per class: null space of dimension 16,
// 1-NN error 66 % in 9-D over 10 splits, LDA with reg = 1e-6 64 %, LDA with reg = 1 14 %).
// The null space exists when d > n - C (the small-sample case the method is designed for). The
// range of S_w is where its eigenvalue exceeds `null_tol` times the largest one; raising
// null_tol counts low-variance within-class directions as null, which is the only way to run
// when n - C >= d. A null space that separates fewer classes than `dims` asks for is an error
// naming d, n - C and null_tol.
#include <armadillo>

#include "methods/common/linear_method.hpp"

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
