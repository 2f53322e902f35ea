#include "methods/linear/truncated_svd/truncated_svd.hpp"

#include <algorithm>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"
#include "methods/common/plain_projection.hpp"

namespace drbench {

void TruncatedSvd::fit(const FitInput& in) {
  const arma::uword d = in.X.n_rows, n = in.X.n_cols, k = in.dim;
  arma::mat U;
  arma::vec s;
  if (d <= n) {
    // The d x d Gram matrix X X' has U as eigenvectors and S^2 as eigenvalues: one pass over the
    // data instead of an SVD of it.
    arma::vec ev;
    if (!arma::eig_sym(ev, U, in.X * in.X.t()))
      throw MethodError("truncated_svd: eigensolver failed");
    U = arma::fliplr(U).eval().head_cols(k);
    s = arma::sqrt(arma::clamp(arma::vec(arma::reverse(ev)).head(k), 0.0, arma::datum::inf));
  } else {
    arma::mat V;
    if (!arma::svd_econ(U, s, V, in.X, "left")) throw MethodError("truncated_svd: SVD failed");
    U = U.head_cols(k);
    s = s.head(k);
  }
  fix_signs(U);
  s_ = s;
  set_projection(in.X, arma::zeros(d), U);
}

namespace {

MethodInfo truncated_svd_info() {
  MethodInfo m = describe_plain_projection<TruncatedSvd>(
      "truncated_svd", "truncated SVD (LSA): top left singular vectors of the uncentred data",
      "Deerwester et al. 1990, JASIS 41 (LSA); scikit-learn's TruncatedSVD");
  m.max_dim = [](const DataShape& s, const ParamSet&) { return std::min(s.n, s.d); };
  return m;
}

}  // namespace
DRBENCH_METHOD(truncated_svd_info, linear_budget(thin_svd_cost()))
}  // namespace drbench
