#include "methods/common/graph_projection.hpp"

#include "framework/linalg/eigen.hpp"
#include "framework/linalg/pca.hpp"
#include "framework/neighbours/graph_weights.hpp"

namespace drbench {

GraphProjection solve_lpp(const arma::mat& X, const arma::sp_mat& W, arma::uword dim,
                          double pca_ratio, double reg, const std::string& method) {
  const PcaReduced pre = pca_reduce(X, pca_ratio, dim, method);
  return solve_lpp_quadratics(pre, laplacian_quadratic(pre.Z, W), degree_quadratic(pre.Z, W), dim,
                              reg);
}

GraphProjection solve_lpp_quadratics(const PcaReduced& pre, const arma::mat& ZLZ,
                                     const arma::mat& ZDZ, arma::uword dim, double reg) {
  EigenPairs e = gen_sym_eigs(ZLZ, ZDZ, dim, Spectrum::Smallest, reg, "reg",
                              "matrix X D X^T (after the PCA pre-step)");
  fix_signs(e.vectors);
  GraphProjection g;
  g.mean = pre.basis.mean;
  g.A = pre.basis.W * e.vectors;
  g.values = e.values;
  return g;
}

GraphProjection solve_linearised(const PcaReduced& pre, const arma::mat& ZMZ, arma::uword dim) {
  constexpr double kConstraintRidge = 1e-10;
  return solve_lpp_quadratics(pre, ZMZ, pre.Z * pre.Z.t(), dim, kConstraintRidge);
}

}  // namespace drbench
