#include "methods/gplvm/kernels/poly.hpp"

#include "framework/core/error.hpp"

namespace drbench {

// Parameter order: variance, weight, bias.
PolyKernel::PolyKernel(int degree, double variance, double weight, double bias)
    : KernelWithParams({"variance", "weight", "bias"}, arma::vec{variance, weight, bias}),
      degree_(degree) {
  if (degree < 1) throw Error("poly kernel: degree must be >= 1, got " + std::to_string(degree));
}

arma::mat PolyKernel::K(const arma::mat& X, const arma::mat& X2) const {
  const arma::mat A = value(1) * (X.t() * X2) + value(2);
  return value(0) * arma::pow(A, degree_);
}

arma::vec PolyKernel::diag(const arma::mat& X) const {
  const arma::vec a = value(1) * arma::sum(arma::square(X), 0).t() + value(2);
  return value(0) * arma::pow(a, degree_);
}

// A = w X^T X2 + b; dK/dA = variance * degree * A^(degree-1) =: P; H = G .* P.
void PolyKernel::cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                                 arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const {
  const arma::mat A = value(1) * (X.t() * X2) + value(2);
  const arma::mat Ad1 = arma::pow(A, degree_ - 1);
  const arma::mat H = G % Ad1 * (value(0) * degree_);
  g_params = {value(0) * arma::accu(G % (Ad1 % A)), arma::accu(H % (A - value(2))),
              value(2) * arma::accu(H)};
  // w folded into H before the products: the arithmetic of the symmetric gradient before the
  // default took it from here (fitted poly GP-LVMs reproduce bit for bit).
  const arma::mat Hw = G % Ad1 * (value(0) * degree_ * value(1));
  g_X = X2 * Hw.t();
  if (g_X2) *g_X2 = X * Hw;
}

}  // namespace drbench
