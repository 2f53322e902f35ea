#pragma once
// Principal component analysis: project centred points on the top eigenvectors of the sample
// covariance (framework/linalg/pca.hpp, which the other PCA users share).
#include <armadillo>

#include "framework/linalg/pca.hpp"
#include "methods/common/linear_method.hpp"

namespace drbench {

class Pca final : public LinearMethod {
 public:
  Pca() : LinearMethod("pca") {}
  void fit(const FitInput& in) override;
  const PcaBasis& basis() const { return basis_; }

 private:
  PcaBasis basis_;
};

}  // namespace drbench
