#include "methods/linear/ip_sr/ip_sr.hpp"

#include <cmath>

#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/dense_eigs.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/neighbours/geodesic.hpp"
#include "methods/linear/isometric_projection.hpp"

namespace drbench {

void IpSr::fit(const FitInput& in) {
  const arma::uword n = in.X.n_cols;
  require_dim(in.dim, n > 0 ? n - 1 : 0, "the graph embedding has at most n-1 directions");
  const arma::mat tau = isometric_kernel(in.X, graph_, "ip_sr", in.trace);
  // Lanczos on the dense n x n kernel: only dim << n eigenpairs are needed.
  arma::vec values;
  arma::mat Yr;
  extreme_eigs_sym(values, Yr, tau, in.dim, true);
  fix_signs(Yr);
  responses_ = Yr.t();
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  // alpha is relative to trace(X X^T)/d so one value suits data of any scale.
  arma::mat G = ridge_regularised(Xc * Xc.t(), alpha_);
  arma::mat A;
  if (!arma::solve(A, G, Xc * Yr, arma::solve_opts::likely_sympd))
    throw MethodError("ip_sr: the ridge system X X^T + alpha I is singular; raise 'alpha' (now " +
                      std::to_string(alpha_) + ")");
  set_projection(in.X, mean, A);
}

namespace {

MethodInfo ip_sr_info() {
  MethodInfo m = describe_method(
      "ip_sr", "linear",
      "isometric projection via spectral regression: tau(D_G) eigenvectors, then ridge",
      "Cai, He & Han, AAAI 2007, section 4; Zheng et al., ICPR 2012, eq. 4");
  const IsometricGraphKeys geodesics = isometric_graph_keys();
  const RealKey alpha =
      keywords::ridge(0.01, 0.0, 1e6, false, "of the regression, relative to trace(X X^T)/d")
          .with(keywords::formerly("alpha"));
  m.params = {geodesics.neighbours, alpha, geodesics.disconnected};
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) { return std::make_unique<IpSr>(geodesics.graph(p), alpha(p)); };
  return m;
}

}  // namespace
// The graph, then the sparse regression: about n^3 / 10.
DRBENCH_METHOD(ip_sr_info,
               isometric_budget([](const TaskSize& z) { return z.n * z.n * z.n / 10.0; }))
}  // namespace drbench
