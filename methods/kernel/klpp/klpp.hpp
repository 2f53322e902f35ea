#pragma once
// Kernel locality preserving projections (He & Niyogi 2003, section 4): directions v in feature
// space minimising  sum_ij W_ij (v'phi_i - v'phi_j)^2  subject to  sum_i D_ii (v'phi_i)^2 = 1,
// i.e.  Kc L Kc a = mu Kc D Kc a. Solved in KPCA coordinates (kernel_subspace.hpp) with a ridge
// `reg` on the right-hand side; W is the heat-kernel kNN graph of the input points.
#include "methods/kernel/kernel_subspace.hpp"

namespace drbench {

class KernelLPP final : public GraphKernelLpp {
 public:
  using GraphKernelLpp::GraphKernelLpp;

 protected:
  arma::sp_mat distance_graph(const FitInput& in) const override;
};

}  // namespace drbench
