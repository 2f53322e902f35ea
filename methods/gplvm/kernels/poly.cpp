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

// A = w X^T X + b; dK/dA = variance * degree * A^(degree-1) =: P.
arma::vec PolyKernel::grad_params(const arma::mat& X, const arma::mat& G) const {
  const arma::mat A = value(1) * (X.t() * X) + value(2);
  const arma::mat Ad1 = arma::pow(A, degree_ - 1);
  const arma::mat GP = G % Ad1 * (value(0) * degree_);
  return {value(0) * arma::accu(G % (Ad1 % A)), arma::accu(GP % (A - value(2))),
          value(2) * arma::accu(GP)};
}

arma::mat PolyKernel::grad_X(const arma::mat& X, const arma::mat& G) const {
  const arma::mat A = value(1) * (X.t() * X) + value(2);
  const arma::mat H = G % arma::pow(A, degree_ - 1) * (value(0) * degree_ * value(1));
  return X * H + X * H.t();
}

arma::mat PolyKernel::grad_X_cross(const arma::mat& X, const arma::mat& X2,
                                   const arma::mat& G) const {
  const arma::mat A = value(1) * (X.t() * X2) + value(2);
  const arma::mat H = G % arma::pow(A, degree_ - 1) * (value(0) * degree_ * value(1));
  return X2 * H.t();
}

arma::mat PolyKernel::grad_X_diag(const arma::mat& X, const arma::vec& g) const {
  const arma::vec a = value(1) * arma::sum(arma::square(X), 0).t() + value(2);
  const arma::vec h = g % arma::pow(a, degree_ - 1) * (2.0 * value(0) * degree_ * value(1));
  return X.each_row() % h.t();
}

}  // namespace drbench
