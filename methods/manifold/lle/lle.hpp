#pragma once
// Locally linear embedding (Roweis & Saul 2000): reconstruction weights of every point from its k
// neighbours (sum to one, ridge reg * trace(C) on the local Gram matrix C as in Saul & Roweis 2003
// when k > d), then the bottom eigenvectors of M = (I - W)'(I - W) after the constant one, scaled
// so that Y Y'/n = I and Y 1 = 0. A new point gets its own reconstruction weights from its k
// nearest training points, applied to their embeddings (Saul & Roweis 2003, section 6.1); a new
// point that coincides with a training point takes that point's embedding.
#include <armadillo>

#include "framework/core/method.hpp"
#include "framework/core/params.hpp"

namespace drbench {

class LLE final : public Method {
 public:
  explicit LLE(const ParamSet& p) : params_(p) {}
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return Y_; }
  arma::mat transform(const arma::mat& Xnew) const override;

 private:
  ParamSet params_;
  arma::mat X_, Y_;
};

// Weights (k) reconstructing x from the columns of N (d x k): min |x - N w|^2, sum w = 1, with
// reg * trace(C) added to the diagonal of the local Gram matrix C.
arma::vec reconstruction_weights(const arma::vec& x, const arma::mat& N, double reg);

}  // namespace drbench
