#include "methods/kernel/gda/gda.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"

namespace drbench {

void GDA::fit(const FitInput& in) {
  if (!in.labels) throw MethodError("gda is supervised: the task has no training labels");
  const arma::uvec& y = *in.labels;
  const std::size_t C = in.n_classes;
  if (C < 2) throw MethodError("gda needs at least 2 classes in the training data");
  if (in.dim > C - 1)
    throw MethodError("gda: dims=" + std::to_string(in.dim) + " exceeds C-1=" +
                      std::to_string(C - 1) + " (between-class scatter has rank C-1); lower dims");
  fit_basis(in.X);
  const arma::mat& Z = this->Z();  // centred: class sums are deviations from the global mean
  const arma::uword r = Z.n_rows;
  // Between-class scatter Bs = M M' with M(:, c) = (sum of class c) / sqrt(n_c): rank <= C - 1.
  arma::mat M(r, C, arma::fill::zeros);
  arma::vec counts(C, arma::fill::zeros);
  for (arma::uword i = 0; i < Z.n_cols; ++i) {
    M.col(y(i)) += Z.col(i);
    counts(y(i)) += 1;
  }
  for (std::size_t c = 0; c < C; ++c)
    if (counts(c) > 0) M.col(c) /= std::sqrt(counts(c));
  // Total scatter in Z coordinates is diag(lambda); the ridge is relative to its mean
  // (ridge_regularised's convention). The pencil (M M', S) with diagonal S = lambda + ridge
  // reduces to the C x C problem  (N'N) v = mu v,  N = S^-1/2 M:  w = S^-1/2 N v / sqrt(mu).
  // That is the same problem as a dense r x r generalized eigensolver would solve, without the
  // O(r^3) reduction (r is up to n - 1).
  const double reg = reg_;
  const double scale = arma::mean(lambda());
  const arma::vec s = lambda() + reg * (scale > 0 ? scale : 1.0);
  const arma::vec s_isqrt = 1.0 / arma::sqrt(s);
  const arma::mat N = M.each_col() % s_isqrt;
  const EigenPairs e = sym_eigs(arma::symmatu(N.t() * N), in.dim, Spectrum::Largest);
  if (!(e.values(in.dim - 1) > 1e-12 * std::max(e.values(0), 0.0)))
    throw MethodError("gda: the between-class scatter of the training data has rank below dims=" +
                      std::to_string(in.dim) +
                      " (classes missing from the training split?); lower dims");
  ratios_ = e.values;
  arma::mat W = N * e.vectors;
  W.each_col() %= s_isqrt;
  W.each_row() /= arma::sqrt(arma::sum(arma::square(W), 0));  // unit vectors in feature space
  set_directions(W);
}

namespace {

MethodInfo gda_info() {
  MethodInfo m = describe_method(
      "gda", "kernel",
      "generalized discriminant analysis (kernel Fisher discriminant), <= C-1 dims",
      "Baudat & Anouar 2000, Neural Computation 12(10), eq. 9-16 (ridge-regularised)");
  const RealKey reg = keywords::ridge(1e-3, 0.0, std::nullopt, true,
                                      "on the total scatter, relative to its mean eigenvalue "
                                      "(needed when n > C and the kernel is nearly singular)")
                          .with(keywords::formerly("reg"));
  m.params = kernel_keys().specs();
  m.params.push_back(reg);
  m.supervised = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return s.n_classes > 0 ? arma::uword(s.n_classes - 1) : arma::uword(0);
  };
  m.transform_reproduces_embedding = true;
  m.make = [reg](const ParamSet& p) { return std::make_unique<GDA>(kernel_keys()(p), reg(p)); };
  return m;
}

}  // namespace
// The full eigendecomposition of the Gram matrix (K, eigenvectors, LAPACK's workspace) and the
// kept n x r basis with its r x r scatter: five n x n at the peak, two kept for the test side.
DRBENCH_METHOD(gda_info, dense_budget(dense_eigen_cost(0.0, 5.0), 5.0, 2.0))
}  // namespace drbench
