#include "methods/linear/lpp/lpp.hpp"

#include <algorithm>

#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/graph_weights.hpp"
#include "methods/linear/pca/pca.hpp"

namespace drbench {

GraphProjection solve_lpp(const arma::mat& X, const arma::sp_mat& W, arma::uword dim,
                          double pca_ratio, double reg, const std::string& method) {
  const PcaReduced pre = pca_reduce(X, pca_ratio, dim, method);
  const arma::mat& Z = pre.Z;
  const arma::mat XLX = laplacian_quadratic(Z, W);
  const arma::mat XDX = degree_quadratic(Z, W);
  EigenPairs e = gen_sym_eigs(XLX, XDX, dim, Spectrum::Smallest, reg, "reg",
                              "matrix X D X^T (after the PCA pre-step)");
  fix_signs(e.vectors);
  GraphProjection g;
  g.mean = pre.basis.mean;
  g.A = pre.basis.W * e.vectors;
  g.values = e.values;
  return g;
}

void Lpp::fit(const FitInput& in) {
  const HeatGraph g = heat_knn_weights(in.X, k_, t_);
  t_used_ = g.t;
  if (in.trace) in.trace->note("heat_width_t", std::to_string(g.t));
  GraphProjection p = solve_lpp(in.X, g.W, in.dim, pca_ratio_, reg_, "lpp");
  values_ = p.values;
  set_projection(in.X, std::move(p.mean), std::move(p.A));
}

namespace {

MethodInfo lpp_info() {
  MethodInfo m;
  m.name = "lpp";
  m.family = "linear";
  m.summary = "locality preserving projections: heat-kernel kNN graph, X L X^T a = l X D X^T a";
  m.reference = "He & Niyogi, Locality Preserving Projections, NIPS 2003, section 2-3";
  m.params = {
      ParamSpec::integer("k", 5, 1, 1000, "neighbours of the kNN graph (papers vary 2..20)"),
      ParamSpec::real("t", 0.0, 0.0, 1e12,
                      "heat-kernel width in exp(-|xi-xj|^2/t); 0 = mean squared kNN distance"),
      ParamSpec::real("pca_ratio", 1.0, 0.0, 1.0,
                      "variance kept by the PCA pre-step (1 = full rank)", true),
      ParamSpec::real("reg", 1e-8, 0.0, 1e3, "ridge on X D X^T, relative to its trace/dim")};
  m.cost = [](const DataShape& s, const ParamSet&, arma::uword) {
    return double(s.n) * s.n * s.d + double(s.d) * s.d * s.d;
  };
  m.make = [](const ParamSet& p) {
    return std::make_unique<Lpp>(static_cast<arma::uword>(p.integer("k")), p.real("t"),
                                 p.real("pca_ratio"), p.real("reg"));
  };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(lpp_info)
}  // namespace drbench
