#include "methods/linear/soip/soip.hpp"

#include <cmath>

#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/lars.hpp"
#include "framework/neighbours/geodesic.hpp"
#include "methods/linear/isometric_projection.hpp"

namespace drbench {

void Soip::fit(const FitInput& in) {
  require_dim(in.dim, in.X.n_rows, "an orthonormal projection has at most d directions");
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  const arma::mat tau = isometric_kernel(in.X, graph_, "soip", in.trace);
  EigenPairs e = sym_eigs(oip_matrix(Xc, tau), in.dim, Spectrum::Smallest);
  fix_signs(e.vectors);
  V_ = e.vectors;
  const arma::mat G = Xc * Xc.t();  // X X^T: the Gram matrix of the lasso design X^T
  arma::mat A(in.X.n_rows, in.dim);
  for (arma::uword p = 0; p < in.dim; ++p) {
    const arma::vec Xty = G * V_.col(p);  // X y_p with y_p = X^T v_p
    const double lam = lambda_ * arma::abs(Xty).max();
    const LassoSolution s = lasso_lars_gram(G, Xty, lam, nonzeros_);
    const double norm = arma::norm(s.beta);
    if (s.nonzeros == 0 || !(norm > 0))
      throw MethodError("soip: projection " + std::to_string(p + 1) +
                        " has no nonzero coefficient at lambda=" + std::to_string(lambda_) +
                        "; lower 'lambda' or raise 'nonzeros'");
    A.col(p) = s.beta / norm;
  }
  if (in.trace)
    in.trace->note("nonzeros_per_vector", std::to_string(arma::accu(A != 0.0) / in.dim));
  set_projection(in.X, mean, A);
}

namespace {

MethodInfo soip_info() {
  MethodInfo m = describe_method(
      "soip", "linear",
      "sparse OIP: lasso (LARS) regression of the OIP projections, unit-length vectors",
      "Zheng, Tang, Fang & Zhang, ICPR 2012, section 4; Efron et al. 2004 (LARS)");
  const IsometricGraphKeys geodesics = isometric_graph_keys();
  const IntKey nonzeros = ParamSpec::integer("nonzeros", 0, 0, 1e6,
                                             "largest number of nonzero entries per projection "
                                             "vector (0 = no limit, stop at 'lambda')");
  const RealKey lambda = keywords::lambda(
      0.01, 1.0, false, "the lasso penalty, relative to the one that zeroes every coefficient");
  m.params = {geodesics.neighbours, geodesics.disconnected, nonzeros, lambda};
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.d; };
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Soip>(geodesics.graph(p), arma::uword(nonzeros(p)), lambda(p));
  };
  return m;
}

}  // namespace
// The graph, then a d x d problem per direction.
DRBENCH_METHOD(soip_info, isometric_budget([](const TaskSize& z) { return z.q * z.d * z.d * z.d; }))
}  // namespace drbench
