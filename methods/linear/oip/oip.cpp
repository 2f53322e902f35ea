#include "methods/linear/oip/oip.hpp"

#include <cmath>

#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/neighbours/geodesic.hpp"
#include "methods/linear/isometric_projection.hpp"

namespace drbench {

void Oip::fit(const FitInput& in) {
  require_dim(in.dim, in.X.n_rows, "an orthonormal projection has at most d directions");
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  const arma::mat tau = isometric_kernel(in.X, graph_, "oip", in.trace, squared_);
  M_ = oip_matrix(Xc, tau);
  EigenPairs e = sym_eigs(M_, in.dim, Spectrum::Smallest);
  fix_signs(e.vectors);
  set_eigen_projection(in.X, mean, e.vectors, e.values);
}

namespace {

MethodInfo oip_info() {
  MethodInfo m = describe_method(
      "oip", "linear",
      "orthogonal isometric projection: smallest eigenvectors of X(X^T X - 2 tau)X^T",
      "Zheng, Tang, Fang & Zhang, Orthogonal Isometric Projection, ICPR 2012, Alg. 1");
  const IsometricGraphKeys geodesics = isometric_graph_keys();
  const ChoiceKey tau_of =
      ParamSpec::choice("tau_of", "squared", {"squared", "distance"},
                        "what tau double-centres: squared geodesics (Isomap's operator) or the "
                        "geodesic distances themselves (Algorithm 1's W(i,j) = d_G(i,j))");
  m.params = {geodesics.neighbours, geodesics.disconnected, tau_of};
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.d; };
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Oip>(geodesics.graph(p), tau_of(p) == "squared");
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(oip_info, isometric_budget())
}  // namespace drbench
