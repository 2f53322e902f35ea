#include "methods/gplvm/kernels/mlp.hpp"

namespace drbench {

MlpKernel::Parts MlpKernel::parts(const arma::mat& X, const arma::mat& X2) const {
  const double w = value(1), b = value(2);
  Parts p;
  p.v1 = w * arma::sum(arma::square(X), 0).t() + b + 1.0;
  p.v2 = (&X == &X2) ? p.v1 : arma::vec(w * arma::sum(arma::square(X2), 0).t() + b + 1.0);
  p.D = arma::sqrt(p.v1 * p.v2.t());
  p.Z = (w * (X.t() * X2) + b) / p.D;
  return p;
}

arma::mat MlpKernel::K(const arma::mat& X, const arma::mat& X2) const {
  return value(0) * arma::asin(parts(X, X2).Z);
}

arma::vec MlpKernel::diag(const arma::mat& X) const {
  const arma::vec v = value(1) * arma::sum(arma::square(X), 0).t() + value(2) + 1.0;
  return value(0) * arma::asin((v - 1.0) / v);
}

// With H = G .* dK/dZ = G .* variance / sqrt(1 - Z^2), HZ = H .* Z, a = |x|^2 / v, c = 1 / v:
//   dZ_ij/dw = x_i'x_j / D_ij - Z_ij (a_i + a_j) / 2,   dZ_ij/db = 1 / D_ij - Z_ij (c_i + c_j) / 2,
//   dZ_ij/dx_i = w x_j / D_ij - Z_ij w x_i / v_i.
// Using w x_i'x_j = Z_ij D_ij - b keeps everything to elementwise passes and BLAS-3 products.
void MlpKernel::gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                          arma::mat& g_X) const {
  const double s = value(0), w = value(1), b = value(2);
  const Parts p = parts(X, X);
  const arma::mat H = G % (s / arma::sqrt(1.0 - arma::square(p.Z)));
  const arma::mat HZ = H % p.Z;
  const arma::mat HD = H / p.D;
  const arma::vec r = arma::sum(HZ, 1) + arma::sum(HZ, 0).t();  // both index roles
  const arma::vec c = 1.0 / p.v1;
  const arma::vec a = (p.v1 - b - 1.0) / (w * p.v1);
  const double sum_hd = arma::accu(HD);
  g_params.set_size(3);
  g_params(0) = arma::accu(G % arma::asin(p.Z)) * s;
  g_params(1) = w * ((arma::accu(HZ) - b * sum_hd) / w - 0.5 * arma::dot(a, r));
  g_params(2) = b * (sum_hd - 0.5 * arma::dot(c, r));
  g_X = w * (X * HD + X * HD.t());
  g_X -= w * (X.each_row() % (r / p.v1).t());
}

// The same with distinct points: r1, r2 the row and column sums of HZ, a and c per input.
void MlpKernel::cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                                arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const {
  const double s = value(0), w = value(1), b = value(2);
  const Parts p = parts(X, X2);
  const arma::mat H = G % (s / arma::sqrt(1.0 - arma::square(p.Z)));
  const arma::mat HZ = H % p.Z;
  const arma::mat HD = H / p.D;
  const arma::vec r1 = arma::sum(HZ, 1), r2 = arma::sum(HZ, 0).t();
  const arma::vec a1 = (p.v1 - b - 1.0) / (w * p.v1), a2 = (p.v2 - b - 1.0) / (w * p.v2);
  const double sum_hd = arma::accu(HD);
  g_params.set_size(3);
  g_params(0) = arma::accu(G % arma::asin(p.Z)) * s;
  g_params(1) =
      w * ((arma::accu(HZ) - b * sum_hd) / w - 0.5 * (arma::dot(a1, r1) + arma::dot(a2, r2)));
  g_params(2) = b * (sum_hd - 0.5 * (arma::dot(1.0 / p.v1, r1) + arma::dot(1.0 / p.v2, r2)));
  g_X = w * (X2 * HD.t());
  g_X -= w * (X.each_row() % (r1 / p.v1).t());
  if (g_X2) {
    *g_X2 = w * (X * HD);
    *g_X2 -= w * (X2.each_row() % (r2 / p.v2).t());
  }
}

// k_ii = variance * asin(z), z = 1 - 1/v, v = w |x|^2 + b + 1: dk/dz = variance / sqrt(1 - z^2),
// dz/dv = 1 / v^2, dv/dlog w = w |x|^2, dv/dlog b = b, dv/dx = 2 w x.
void MlpKernel::diag_gradients(const arma::mat& X, const arma::vec& g, arma::vec& g_params,
                               arma::mat& g_X) const {
  const double s = value(0), w = value(1), b = value(2);
  const arma::vec xx = arma::sum(arma::square(X), 0).t();
  const arma::vec v = w * xx + b + 1.0;
  const arma::vec z = (v - 1.0) / v;
  const arma::vec h = g % (s / arma::sqrt(1.0 - arma::square(z))) / arma::square(v);
  g_params = {s * arma::dot(g, arma::asin(z)), w * arma::dot(h, xx), b * arma::accu(h)};
  g_X = X.each_row() % (h * (2 * w)).t();
}

}  // namespace drbench
