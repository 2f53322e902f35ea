#pragma once
// The locality-preserving eigenproblem for any affinity graph, shared by LPP, SLPP and the
// GP-LVM's SLPP start: the PCA pre-step (framework/linalg/pca.hpp), then
// X L X^T a = lambda (X D X^T + ridge) a on the reduced data.
#include <armadillo>
#include <string>

#include "framework/linalg/pca.hpp"

namespace drbench {

struct GraphProjection {
  arma::vec mean;
  arma::mat A;       // d x dim, composed with the PCA pre-step
  arma::vec values;  // generalized eigenvalues, ascending
};

// The LPP eigenproblem for any affinity graph W (shared with SLPP): PCA keeping `pca_ratio` of
// the variance, then X L X^T a = lambda (X D X^T + ridge) a, smallest `dim`. `method` names the
// caller in error messages.
GraphProjection solve_lpp(const arma::mat& X, const arma::sp_mat& W, arma::uword dim,
                          double pca_ratio, double reg, const std::string& method);

// The same eigenproblem from the reduced data's quadratics, Z L Z^T a = lambda (Z D Z^T + ridge)
// a, for a graph never stored (same_class_quadratics): pre is pca_reduce's result.
GraphProjection solve_lpp_quadratics(const PcaReduced& pre, const arma::mat& ZLZ,
                                     const arma::mat& ZDZ, arma::uword dim, double reg);

// A spectral embedding made linear (NPE's M = (I - W)'(I - W), LLTSA's alignment matrix):
// Z M Z' a = lambda Z Z' a on the reduced data Z = pre.Z, given Z M Z', smallest `dim`. The
// constraint's ridge, relative to trace(Z Z')/dim, only guards rounding: Z Z' is definite after
// the PCA pre-step.
GraphProjection solve_linearised(const PcaReduced& pre, const arma::mat& ZMZ, arma::uword dim);

}  // namespace drbench
