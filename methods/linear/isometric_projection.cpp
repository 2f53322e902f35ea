#include "methods/linear/isometric_projection.hpp"

namespace drbench {

arma::mat oip_matrix(const arma::mat& Xc, const arma::mat& tau) {
  const arma::mat G = Xc * Xc.t();
  arma::mat M = G * G - 2.0 * (Xc * tau) * Xc.t();
  return 0.5 * (M + M.t());  // symmetric to round-off, exactly symmetric for the eigensolver
}

}  // namespace drbench
