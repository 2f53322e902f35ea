#pragma once
// Kernel PCA (Schoelkopf, Smola & Mueller 1998): the leading eigenvectors of the centred Gram
// matrix; a training point's coordinates are sqrt(lambda_j) u_j, a new point's are the projections
// of its centred kernel vector onto u_j / sqrt(lambda_j).
#include "methods/kernel/kernel_subspace.hpp"

namespace drbench {

class KernelPCA final : public KernelSubspace {
 public:
  using KernelSubspace::KernelSubspace;
  void fit(const FitInput& in) override;
};

}  // namespace drbench
