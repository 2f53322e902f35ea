#include "methods/linear/lpp/lpp.hpp"

#include <algorithm>

#include "framework/budget/budget.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/neighbours/graph_weights.hpp"
#include "methods/common/pca_pre_step.hpp"

namespace drbench {

void Lpp::fit(const FitInput& in) {
  const HeatGraph g = heat_knn_weights(in.X, k_, width_);
  t_used_ = g.t;
  if (in.trace) in.trace->note("heat_width_t", std::to_string(g.t));
  GraphProjection p = solve_lpp(in.X, g.W, in.dim, pca_ratio_, reg_, "lpp");
  if (unit_vectors_) p.A = arma::normalise(p.A);  // each column to unit length, as Cai's LGE.m
  set_eigen_projection(in.X, std::move(p.mean), std::move(p.A), std::move(p.values));
}

namespace {

// The heat width t of He & Niyogi is 2 sigma^2; relative 1 is t = the mean squared kNN distance.
const char* const kKnnReference = "the width whose t is the mean squared kNN distance";

// The parameters the contract and the budget both read.
struct LppKeys {
  IntKey neighbours = keywords::neighbours(5, 1, 1000, "the kNN graph (papers vary 2..20)");
};

MethodInfo lpp_info() {
  MethodInfo m = describe_method(
      "lpp", "linear",
      "locality preserving projections: heat-kernel kNN graph, X L X^T a = l X D X^T a",
      "He & Niyogi, Locality Preserving Projections, NIPS 2003, section 2-3");
  const auto [neighbours] = LppKeys{};
  const RealKey kernel_width = keywords::kernel_width(1.0, kKnnReference);
  const ChoiceKey width = keywords::width("relative", kKnnReference);
  const RealKey pca_ratio = pca_ratio_key();
  const RealKey reg = pre_step_ridge("X D X^T");
  const ChoiceKey projection_norm =
      keywords::projection_norm("the OIP paper's LPP row matches unit");
  m.params = {neighbours, kernel_width, width, pca_ratio, reg, projection_norm};
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Lpp>(arma::uword(neighbours(p)),
                                 keywords::KernelWidth{kernel_width(p), width(p) == "relative"},
                                 pca_ratio(p), reg(p), projection_norm(p) == "unit");
  };
  return m;
}

}  // namespace
// The PCA-reduced points and their products with the sparse kNN graph (four n x d arrays), the
// graph itself.
DRBENCH_METHOD(lpp_info,
               make_budget([](const TaskSize& z) { return z.n * z.n * z.d + z.d * z.d * z.d; },
                           [keys = LppKeys{}](const TaskSize& z) {
                             return memory_linear(z.shape, z.dim) + 8.0 * 4.0 * z.n * z.d +
                                    32.0 * z.n * double(keys.neighbours(z.p));
                           }))
}  // namespace drbench
