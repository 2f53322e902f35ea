#include "methods/linear/oip/oip.hpp"

#include <cmath>

#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"
#include "methods/linear/ip/ip.hpp"

namespace drbench {

arma::mat oip_matrix(const arma::mat& Xc, const arma::mat& tau) {
  const arma::mat G = Xc * Xc.t();
  arma::mat M = G * G - 2.0 * (Xc * tau) * Xc.t();
  return 0.5 * (M + M.t());
}

void Oip::fit(const FitInput& in) {
  require_dim(in.dim, in.X.n_rows, "an orthonormal projection has at most d directions");
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  const arma::mat tau = isometric_kernel(in.X, k_, connect_, "oip", in.trace, squared_);
  M_ = oip_matrix(Xc, tau);
  EigenPairs e = sym_eigs(M_, in.dim, Spectrum::Smallest);
  fix_signs(e.vectors);
  values_ = e.values;
  set_projection(in.X, mean, e.vectors);
}

namespace {

MethodInfo oip_info() {
  MethodInfo m;
  m.name = "oip";
  m.family = "linear";
  m.summary = "orthogonal isometric projection: smallest eigenvectors of X(X^T X - 2 tau)X^T";
  m.reference = "Zheng, Tang, Fang & Zhang, Orthogonal Isometric Projection, ICPR 2012, Alg. 1";
  m.params = {
      geodesic_k_spec(), disconnected_spec(),
      ParamSpec::choice("tau_of", "squared", {"squared", "distance"},
                        "what tau double-centres: squared geodesics (Isomap's operator) or the "
                        "geodesic distances themselves (Algorithm 1's W(i,j) = d_G(i,j))")};
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.d; };
  m.cost = [](const DataShape& s, const ParamSet& p, arma::uword) {
    return double(s.n) * s.n * (s.d + std::log2(double(s.n) + 1.0) * p.real("k"));
  };
  m.make = [](const ParamSet& p) {
    return std::make_unique<Oip>(static_cast<arma::uword>(p.integer("k")),
                                 p.str("disconnected") == "connect", p.str("tau_of") == "squared");
  };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(oip_info)
}  // namespace drbench
