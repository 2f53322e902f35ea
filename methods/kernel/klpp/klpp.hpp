#pragma once
// Kernel locality preserving projections (He & Niyogi 2003, section 4): directions v in feature
// space minimising  sum_ij W_ij (v'phi_i - v'phi_j)^2  subject to  sum_i D_ii (v'phi_i)^2 = 1,
// i.e.  Kc L Kc a = mu Kc D Kc a. Solved in KPCA coordinates (kernel_subspace.hpp) with a ridge
// `reg` on the right-hand side; W is the heat-kernel kNN graph of the input points. With
// kernel_scale: graph a relative kernel_width multiplies the graph's root mean squared edge length
// instead of the median distance, so the kernel narrows as the training set grows (the reading
// that gives the GPLRF paper's flat KLPP row, results/gplrf_usps_linear.md "KLPP's curve").
#include "methods/kernel/kernel_subspace.hpp"

namespace drbench {

class KernelLPP final : public GraphKernelLpp {
 public:
  KernelLPP(const KernelSetting& k, arma::uword neighbours, const LppSetting& graph,
            bool graph_scale = false)
      : GraphKernelLpp(k, neighbours, graph), graph_scale_(graph_scale), width_(k.width) {}
  void fit(const FitInput& in) override;

 protected:
  arma::sp_mat distance_graph(const FitInput& in) const override;

 private:
  bool graph_scale_;
  keywords::KernelWidth width_;  // as the setting gave it
};

}  // namespace drbench
