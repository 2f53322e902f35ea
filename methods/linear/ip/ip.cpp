#include "methods/linear/ip/ip.hpp"

#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/pca.hpp"
#include "framework/neighbours/geodesic.hpp"
#include "methods/common/pca_pre_step.hpp"
#include "methods/linear/isometric_projection.hpp"

namespace drbench {

void Ip::fit(const FitInput& in) {
  const PcaReduced pre = pca_reduce(in.X, pca_ratio_, in.dim, "ip");
  const arma::mat tau = isometric_kernel(in.X, graph_, "ip", in.trace);
  const arma::mat& Z = pre.Z;
  EigenPairs e = gen_sym_eigs(Z * tau * Z.t(), Z * Z.t(), in.dim, Spectrum::Largest, reg_, "reg",
                              "matrix X X^T (after the PCA pre-step)");
  fix_signs(e.vectors);
  set_eigen_projection(in.X, pre.basis.mean, pre.basis.W * e.vectors, e.values);
}

namespace {

MethodInfo ip_info() {
  MethodInfo m = describe_method(
      "ip", "linear", "isometric projection: X tau(D_G) X^T a = l X X^T a on kNN geodesics",
      "Cai, He & Han, Isometric Projection, AAAI 2007, section 3 (eq. 7)");
  const IsometricGraphKeys geodesics = isometric_graph_keys();
  const RealKey pca_ratio = pca_ratio_key();
  const RealKey reg = pre_step_ridge("X X^T");
  m.params = {geodesics.neighbours, pca_ratio, reg, geodesics.disconnected};
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Ip>(geodesics.graph(p), pca_ratio(p), reg(p));
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(ip_info, isometric_budget())
}  // namespace drbench
