#include "methods/kernel/klpp/klpp.hpp"

#include <cmath>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/graph_weights.hpp"
#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench {

arma::sp_mat KernelLPP::distance_graph(const FitInput& in) const {
  return symmetric_adjacency(neighbour_graph(in.X, neighbours(), {GraphKind::exact}));
}

void KernelLPP::fit(const FitInput& in) {
  const arma::sp_mat G = distance_graph(in);
  if (graph_scale_) {
    const double ms = mean_sq_edge_length(G);
    if (!(ms > 0))
      throw MethodError(
          "kernel_scale: graph: the kNN graph's edges have zero length (duplicate points); use "
          "kernel_scale: median");
    set_kernel_width({width_.sigma * std::sqrt(ms), false});
  }
  fit_on_graph(in, G);
}

namespace {

MethodInfo klpp_info() {
  MethodInfo m = describe_method(
      "klpp", "kernel", "kernel locality preserving projections on a heat-kernel kNN graph",
      "He & Niyogi 2003 (NIPS 16), section 4 'Kernel LPP'");
  const IntKey neighbours = keywords::neighbours(5, 1, 100, "the kNN graph (papers vary 2..20)");
  describe_kernel_lpp(m, neighbours);
  const ChoiceKey kernel_scale =
      keywords::kernel_scale("graph at 0.43 gives the GPLRF paper's flat KLPP row");
  m.params.push_back(kernel_scale);
  m.check_setting = [kernel_scale](const ParamSet& p) -> std::string {
    const KernelSetting k = kernel_keys()(p);
    if (kernel_scale(p) == "graph" && (k.type != KernelSpec::Type::Rbf || !k.width.relative))
      return "kernel_scale: graph scales a relative RBF width (fix: kernel: rbf and width: "
             "relative, or kernel_scale: median)";
    return {};
  };
  m.make = [neighbours, kernel_scale](const ParamSet& p) {
    return std::make_unique<KernelLPP>(kernel_keys()(p), arma::uword(neighbours(p)), lpp_keys()(p),
                                       kernel_scale(p) == "graph");
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(klpp_info, kernel_lpp_budget())
}  // namespace drbench
