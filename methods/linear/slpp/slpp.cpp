#include "methods/linear/slpp/slpp.hpp"

#include <algorithm>
#include <cmath>

#include "framework/budget/budget.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "methods/common/graph_projection.hpp"
#include "methods/common/pca_pre_step.hpp"

namespace drbench {

void Slpp::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  double pairs = 0.0;
  const arma::uvec classes = arma::unique(y);
  for (arma::uword c : classes) pairs += std::pow(double(arma::accu(y == c)), 2);
  GraphProjection p;
  if (pairs <= stored_pairs_limit_) {
    const HeatGraph g = same_class_weights(in.X, y, kind_, width_);
    if (in.trace && kind_ == ClassWeight::Heat) in.trace->note("heat_width_t", std::to_string(g.t));
    p = solve_lpp(in.X, g.W, in.dim, pca_ratio_, reg_, "slpp");
  } else {
    // Many points a class: the class-block graph (sum n_c^2 edges, 360 M for 60,000 points in 10
    // classes) is folded into the r x r quadratics block by block instead of stored.
    const PcaReduced pre = pca_reduce(in.X, pca_ratio_, in.dim, "slpp");
    const ClassQuadratics q = same_class_quadratics(in.X, pre.Z, y, kind_, width_);
    if (in.trace && kind_ == ClassWeight::Heat) in.trace->note("heat_width_t", std::to_string(q.t));
    if (in.trace) in.trace->note("class_graph", "streamed");
    p = solve_lpp_quadratics(pre, q.ZLZ, q.ZDZ, in.dim, reg_);
  }
  set_eigen_projection(in.X, std::move(p.mean), std::move(p.A), std::move(p.values));
}

namespace {

const char* const kReference = "the width whose t is the mean squared same-class distance";

MethodInfo slpp_info() {
  MethodInfo m = describe_method(
      "slpp", "linear",
      "supervised LPP: same-class graph (heat kernel or 1), X L X^T a = l X D X^T a",
      "Zheng et al., Signal Processing 87(10) 2007, section 3 (SLPP)");
  const ChoiceKey weights = keywords::weights("on same-class pairs");
  const RealKey kernel_width = keywords::kernel_width(1.0, kReference);
  const ChoiceKey width = keywords::width("relative", kReference);
  const RealKey pca_ratio = pca_ratio_key();
  const RealKey reg = pre_step_ridge("X D X^T");
  m.params = {weights, kernel_width, width, pca_ratio, reg};
  m.supervised = true;
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Slpp>(weights(p) == "heat" ? ClassWeight::Heat : ClassWeight::Binary,
                                  keywords::KernelWidth{kernel_width(p), width(p) == "relative"},
                                  pca_ratio(p), reg(p));
  };
  return m;
}

}  // namespace
// The same-class graph (pairs within each class), a PCA pre-step and d x d problems. Memory: the
// stored graph (edge list, weights, sparse matrix: about 80 bytes a pair while it is assembled,
// measured with benchmarks/memory_peaks.py) up to the limit, one class's n_c x 256 weight block
// and its members' copies above it; the data, the PCA pre-step and the d x d problems.
DRBENCH_METHOD(slpp_info, make_budget(
                              [](const TaskSize& z) {
                                const double per = z.classes ? z.n / z.classes : z.n;
                                return z.n * per * z.d + z.d * z.d * z.d + z.n * z.d * z.d;
                              },
                              [](const TaskSize& z) {
                                const double n = z.n, d = z.d;
                                const double per = z.classes ? n / z.classes : n;
                                const double pairs = (z.classes ? z.classes : 1.0) * per * per;
                                const double graph = pairs <= Slpp::kStoredPairsLimit
                                                         ? 80.0 * pairs
                                                         : 8.0 * per * (256.0 + 2.0 * d);
                                return 8.0 * 1048576.0 + 4.0 * 8.0 * n * d + graph +
                                       6.0 * 8.0 * d * d + 8.0 * n * z.q;
                              }))
}  // namespace drbench
