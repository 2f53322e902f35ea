#include "framework/affinity/weights.hpp"

#include <cmath>
#include <string>

#include "framework/core/error.hpp"

namespace drbench {

arma::mat gaussian_weights(const arma::mat& D2, double kernel_width, bool zero_diagonal) {
  if (!(kernel_width > 0) || !std::isfinite(kernel_width))
    throw MethodError("Gaussian weights: 'kernel_width' must be > 0 and finite, got " +
                      std::to_string(kernel_width));
  arma::mat W = arma::exp(D2 * (-0.5 / (kernel_width * kernel_width)));
  if (zero_diagonal && W.is_square()) W.diag().zeros();
  return W;
}

arma::mat symmetrize_joint(const arma::mat& Pc) {
  if (!Pc.is_square()) throw Error("internal: symmetrize_joint needs a square matrix");
  return (Pc + Pc.t()) / (2.0 * static_cast<double>(Pc.n_rows));
}

arma::sp_mat symmetrize_joint(const arma::sp_mat& Pc) {
  if (!Pc.is_square()) throw Error("internal: symmetrize_joint needs a square matrix");
  arma::sp_mat P = Pc + Pc.t();
  P /= 2.0 * static_cast<double>(Pc.n_rows);
  return P;
}

arma::mat class_mask(const arma::uvec& labels, ClassPairs which) {
  const arma::uword n = labels.n_elem;
  arma::mat M(n, n);
  const bool same = which == ClassPairs::Same;
  for (arma::uword j = 0; j < n; ++j)
    for (arma::uword i = 0; i < n; ++i)
      M(i, j) = i != j && ((labels(i) == labels(j)) == same) ? 1.0 : 0.0;
  return M;
}

arma::mat mask_pairs(const arma::mat& W, const arma::uvec& labels, ClassPairs which) {
  if (W.n_rows != labels.n_elem || W.n_cols != labels.n_elem)
    throw Error("internal: mask_pairs got a " + std::to_string(W.n_rows) + " x " +
                std::to_string(W.n_cols) + " matrix for " + std::to_string(labels.n_elem) +
                " labels");
  return W % class_mask(labels, which);
}

}  // namespace drbench
