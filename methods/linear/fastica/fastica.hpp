#pragma once
// FastICA (Hyvarinen & Oja 2000, Neural Networks 13; Hyvarinen 1999, IEEE TNN 10): whiten the
// centred data onto its top `dim` principal axes (unit variance), then find the rotation W whose
// rows maximise the non-Gaussianity of w'z by the fixed-point iteration
//   w <- E[z g(w'z)] - E[g'(w'z)] w,
// one row at a time with Gram-Schmidt against the rows already found (`deflation`), or all rows
// at once followed by the symmetric decorrelation W <- (W W')^-1/2 W (`parallel`); stop when
// every row turns by less than `tolerance` (| |w_new . w| - 1 |). g is the derivative of the
// contrast: logcosh (tanh), exp (x exp(-x^2/2)) or cube (x^3). The start is a Gaussian matrix
// from the task's seed; the sources are scaled to unit variance (scikit-learn's FastICA with
// whiten='unit-variance'), and new points map through the same unmixing matrix.
#include <string>

#include "methods/common/linear_method.hpp"

namespace drbench {

struct FastIcaSetting {
  std::string algorithm = "parallel";  // or "deflation"
  std::string contrast = "logcosh";    // or "exp", "cube"
  arma::uword iterations = 200;
  double tolerance = 1e-4;
};

class FastIca final : public LinearMethod {
 public:
  explicit FastIca(const FastIcaSetting& s) : LinearMethod("fastica"), s_(s) {}
  void fit(const FitInput& in) override;
  const arma::mat& unmixing() const { return W_; }  // dim x dim, rotation of the whitened data

 private:
  FastIcaSetting s_;
  arma::mat W_;
};

// (W W')^-1/2 W: the orthogonal matrix nearest W (rows decorrelated symmetrically).
arma::mat symmetric_decorrelation(const arma::mat& W);

}  // namespace drbench
