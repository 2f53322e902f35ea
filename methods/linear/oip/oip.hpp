#pragma once
// Orthogonal Isometric Projection (Zheng, Tang, Fang & Zhang, ICPR 2012, Algorithm 1):
//   1. kNN graph, geodesic (Dijkstra) distances D_G;
//   2. tau(D_G) = -C S C / 2 with C = I - 11^T/N;
//   3. M = X (X^T X - 2 tau(D_G)^T) X^T; V = eigenvectors of M with the p smallest eigenvalues.
// V is orthonormal (a standard symmetric eigenproblem, eq. 6), unlike IP's X X^T-orthonormal
// projection. Two readings of the text, both stated here because they change numbers:
//  - tau acts on squared geodesic distances (S_ij = d_G(i,j)^2), the Isomap operator the paper
//    cites for "converting distances into inner products"; Algorithm 1 writes W(i,j) = d_G(i,j)
//    but feeds W to the same tau. `tau_of: distance` runs that literal reading: on USPS it gives
//    16-65 % 1-NN error against 5.7 % (results/oip_usps.md), and it is not scale-free (X^T X
//    scales as c^2, tau(D_G) as c), so the squared reading is the default.
//  - X is centred: tau(D_G) is the Gram matrix of a centred configuration, and the objective
//    |tau(D_G) - X^T V V^T X| compares it with the Gram matrix of the projected points, which is
//    only meaningful when those are centred too. Out-of-sample points are centred with the
//    training mean, which leaves distances between projections unchanged.
// tau(D_G) lives in framework/neighbours/geodesic.hpp; M (oip_matrix) in
// methods/linear/isometric_projection.hpp, shared with SOIP.
#include <armadillo>

#include "framework/neighbours/geodesic.hpp"
#include "methods/common/linear_method.hpp"

namespace drbench {

class Oip final : public EigenProjection {
 public:
  Oip(GeodesicGraphSpec graph, bool squared = true)
      : EigenProjection("oip"), graph_(graph), squared_(squared) {}
  void fit(const FitInput& in) override;
  const arma::mat& objective_matrix() const { return M_; }

 private:
  GeodesicGraphSpec graph_;
  bool squared_;
  arma::mat M_;
};

}  // namespace drbench
