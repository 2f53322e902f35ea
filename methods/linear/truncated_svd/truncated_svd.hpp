#pragma once
// Truncated SVD (latent semantic analysis; Halko, Martinsson & Tropp 2011 for the randomized
// solver, scikit-learn's TruncatedSVD): the top left singular vectors U_k of the uncentred data
// X = U S V', so a point maps to U_k' x and the training embedding is S_k V_k'. Unlike PCA the
// data are not centred, which keeps sparse counts sparse and makes the first axis follow the mean.
#include "methods/common/linear_method.hpp"

namespace drbench {

class TruncatedSvd final : public LinearMethod {
 public:
  TruncatedSvd() : LinearMethod("truncated_svd") {}
  void fit(const FitInput& in) override;
  const arma::vec& singular_values() const { return s_; }

 private:
  arma::vec s_;
};

}  // namespace drbench
