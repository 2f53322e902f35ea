#include "methods/linear/ip/ip.hpp"

#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/shortest_paths.hpp"
#include "methods/linear/pca/pca.hpp"

namespace drbench {

arma::mat isometric_kernel(const arma::mat& X, arma::uword k, bool connect,
                           const std::string& method, Trace* trace, bool squared) {
  arma::sp_mat G = knn_graph(X, k);
  arma::uword parts = 0;
  if (connect) {
    G = connect_components(X, G, parts);
    if (parts > 1 && trace) trace->note("graph_components_joined", std::to_string(parts));
  } else {
    connected_components(G, parts);
    if (parts > 1)
      throw MethodError(method + ": the " + std::to_string(k) + "-nearest-neighbour graph has " +
                        std::to_string(parts) +
                        " connected components, so geodesic distances are infinite; raise 'k' "
                        "or set 'disconnected: connect'");
  }
  arma::mat S = geodesic_distances(G);
  if (squared) S = arma::square(S);
  // Double centring -H S H / 2 without forming H.
  const arma::vec r = arma::mean(S, 1);
  const double g = arma::mean(r);
  S.each_col() -= r;
  S.each_row() -= r.t();
  S += g;
  S *= -0.5;
  return S;
}

ParamSpec geodesic_k_spec() {
  return ParamSpec::integer("k", 5, 1, 1000, "neighbours of the kNN graph (papers vary 2..20)");
}

ParamSpec disconnected_spec() {
  return ParamSpec::choice("disconnected", "connect", {"connect", "error"},
                           "a disconnected kNN graph: join components at their closest pairs, or "
                           "fail the task");
}

void Ip::fit(const FitInput& in) {
  const PcaReduced pre = pca_reduce(in.X, pca_ratio_, in.dim, "ip");
  const arma::mat tau = isometric_kernel(in.X, k_, connect_, "ip", in.trace);
  const arma::mat& Z = pre.Z;
  EigenPairs e = gen_sym_eigs(Z * tau * Z.t(), Z * Z.t(), in.dim, Spectrum::Largest, reg_, "reg",
                              "matrix X X^T (after the PCA pre-step)");
  fix_signs(e.vectors);
  values_ = e.values;
  set_projection(in.X, pre.basis.mean, pre.basis.W * e.vectors);
}

namespace {

MethodInfo ip_info() {
  MethodInfo m;
  m.name = "ip";
  m.family = "linear";
  m.summary = "isometric projection: X tau(D_G) X^T a = l X X^T a on kNN geodesics";
  m.reference = "Cai, He & Han, Isometric Projection, AAAI 2007, section 3 (eq. 7)";
  m.params = {geodesic_k_spec(),
              ParamSpec::real("pca_ratio", 1.0, 0.0, 1.0,
                              "variance kept by the PCA pre-step (1 = full rank)", true),
              ParamSpec::real("reg", 1e-8, 0.0, 1e3, "ridge on X X^T, relative to its trace/dim"),
              disconnected_spec()};
  m.cost = [](const DataShape& s, const ParamSet& p, arma::uword) {
    return double(s.n) * s.n * (s.d + std::log2(double(s.n) + 1.0) * p.real("k"));
  };
  m.make = [](const ParamSet& p) {
    return std::make_unique<Ip>(static_cast<arma::uword>(p.integer("k")), p.real("pca_ratio"),
                                p.real("reg"), p.str("disconnected") == "connect");
  };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(ip_info)
}  // namespace drbench
