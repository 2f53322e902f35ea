#pragma once
// Isometric Projection (Cai, He & Han, AAAI 2007): Isomap's objective |tau(D_G) - X^T A A^T X|
// with the linear constraint A^T X X^T A = I, solved as X tau(D_G) X^T a = lambda X X^T a
// (largest). D_G holds geodesic distances on the kNN graph and tau(D) = -H S H / 2 with
// S_ij = D_ij^2 and H = I - 11^T/n (Tenenbaum et al. 2000). As for LPP the data first go through
// PCA so that X X^T is not singular.
#include <armadillo>
#include <string>

#include "framework/core/params.hpp"
#include "framework/core/trace.hpp"
#include "methods/linear/linear_method.hpp"

namespace drbench {

// tau(D_G) (n x n) for the columns of X with a k-nearest-neighbour graph. A disconnected graph
// is joined at its closest pairs when `connect` is true (noted in the trace), otherwise it is a
// MethodError that asks for a larger 'k'. `squared` selects Isomap's tau (of squared geodesics);
// false applies the same double centring to the geodesic distances themselves (OIP's Algorithm 1
// read literally, W(i,j) = d_G(i,j)).
arma::mat isometric_kernel(const arma::mat& X, arma::uword k, bool connect,
                           const std::string& method, Trace* trace, bool squared = true);

// The two parameters of that kernel, shared by every method built on it (ip, ip_sr, oip, soip):
// 'k' and 'disconnected' ("connect" or "error").
ParamSpec geodesic_k_spec();
ParamSpec disconnected_spec();

class Ip final : public LinearMethod {
 public:
  Ip(arma::uword k, double pca_ratio, double reg, bool connect)
      : LinearMethod("ip"), k_(k), pca_ratio_(pca_ratio), reg_(reg), connect_(connect) {}
  void fit(const FitInput& in) override;
  const arma::vec& eigenvalues() const { return values_; }

 private:
  arma::uword k_;
  double pca_ratio_, reg_;
  bool connect_;
  arma::vec values_;
};

}  // namespace drbench
