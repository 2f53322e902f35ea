#include "methods/kernel/klpp/klpp.hpp"

#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

arma::sp_mat KernelLPP::distance_graph(const FitInput& in) const {
  return knn_graph(in.X, neighbours());
}

namespace {

MethodInfo klpp_info() {
  MethodInfo m = describe_method(
      "klpp", "kernel", "kernel locality preserving projections on a heat-kernel kNN graph",
      "He & Niyogi 2003 (NIPS 16), section 4 'Kernel LPP'");
  const IntKey neighbours = keywords::neighbours(5, 1, 100, "the kNN graph (papers vary 2..20)");
  describe_kernel_lpp(m, neighbours);
  m.make = [neighbours](const ParamSet& p) {
    return std::make_unique<KernelLPP>(kernel_keys()(p), arma::uword(neighbours(p)), lpp_keys()(p));
  };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(klpp_info)
}  // namespace drbench
