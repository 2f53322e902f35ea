#include "methods/linear/ip/ip.hpp"

#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/geodesic.hpp"
#include "framework/linalg/pca.hpp"

namespace drbench {

void Ip::fit(const FitInput& in) {
  const PcaReduced pre = pca_reduce(in.X, pca_ratio_, in.dim, "ip");
  const arma::mat tau = isometric_kernel(in.X, graph_, "ip", in.trace);
  const arma::mat& Z = pre.Z;
  EigenPairs e = gen_sym_eigs(Z * tau * Z.t(), Z * Z.t(), in.dim, Spectrum::Largest, reg_, "reg",
                              "matrix X X^T (after the PCA pre-step)");
  fix_signs(e.vectors);
  values_ = e.values;
  set_projection(in.X, pre.basis.mean, pre.basis.W * e.vectors);
}

namespace {

MethodInfo ip_info() {
  MethodInfo m = describe_method(
      "ip", "linear", "isometric projection: X tau(D_G) X^T a = l X X^T a on kNN geodesics",
      "Cai, He & Han, Isometric Projection, AAAI 2007, section 3 (eq. 7)");
  const IntKey neighbours =
      keywords::neighbours(5, 1, 1000, "the kNN graph of the geodesics (papers: 2..20)");
  const RealKey pca_ratio = ParamSpec::real(
      "pca_ratio", 1.0, 0.0, 1.0, "variance kept by the PCA pre-step (1 = full rank)", true);
  const RealKey reg = keywords::ridge(1e-8, 0.0, 1e3, false, "on X X^T, relative to its trace/dim")
                          .with(keywords::formerly("reg"));
  const ChoiceKey disconnected = keywords::disconnected("connect");
  m.params = {neighbours, pca_ratio, reg, disconnected};
  m.cost = [neighbours](const DataShape& s, const ParamSet& p, arma::uword) {
    return double(s.n) * s.n * (s.d + std::log2(double(s.n) + 1.0) * double(neighbours(p)));
  };
  m.transform_reproduces_embedding = true;
  // The geodesic distances and the isometric kernel: two dense n x n (2.5 with the shortest-path
  // work arrays), then a linear map.
  m.memory = [](const DataShape& s, const ParamSet&, arma::uword dim) {
    return memory_linear(s, dim) + 8.0 * 2.5 * double(s.n) * double(s.n);
  };
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Ip>(
        GeodesicGraphSpec::knn_graph(arma::uword(neighbours(p)), disconnected(p) == "connect"),
        pca_ratio(p), reg(p));
  };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(ip_info)
}  // namespace drbench
