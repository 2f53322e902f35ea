#include "framework/linalg/sparse_pca.hpp"

#include <algorithm>
#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/sparse_eigs.hpp"

namespace drbench {

namespace {

// y = X' x and y = X z over the stored entries of the CSC matrix, without Armadillo's sparse
// transpose (a copy of X per product).
arma::vec sparse_tmul(const arma::sp_mat& X, const arma::vec& x) {
  arma::vec y(X.n_cols);
  for (arma::uword j = 0; j < X.n_cols; ++j) {
    double s = 0;
    for (arma::uword p = X.col_ptrs[j]; p < X.col_ptrs[j + 1]; ++p)
      s += X.values[p] * x(X.row_indices[p]);
    y(j) = s;
  }
  return y;
}

void sparse_mul_add(const arma::sp_mat& X, const arma::vec& z, arma::vec& y) {
  for (arma::uword j = 0; j < X.n_cols; ++j)
    for (arma::uword p = X.col_ptrs[j]; p < X.col_ptrs[j + 1]; ++p)
      y(X.row_indices[p]) += X.values[p] * z(j);
}

bool covariance_route(arma::uword d, arma::uword n, arma::uword cov_max_dim) {
  return d <= n && d <= cov_max_dim;
}

}  // namespace

double pca_of_sparse_bytes(arma::uword d, arma::uword n, arma::uword k, arma::uword cov_max_dim) {
  if (covariance_route(d, n, cov_max_dim)) return 8.0 * 3 * double(d) * double(d);  // C, X X', W
  const double basis = double(std::max<arma::uword>(2 * (k ? k : 64) + 10, 30));
  return 8.0 * (double(d) * (basis + 2 * (k ? k : 64)) + 2 * double(n));
}

SparsePca pca_of_sparse(const arma::sp_mat& X, arma::uword k, double variance,
                        arma::uword cov_max_dim) {
  const arma::uword d = X.n_rows, n = X.n_cols;
  if (n < 2) throw MethodError("PCA needs at least 2 training points, got " + std::to_string(n));
  const double denom = double(n - 1);
  SparsePca out;
  PcaBasis& b = out.basis;
  b.mean = arma::vec(arma::sum(X, 1)) / double(n);
  if (covariance_route(d, n, cov_max_dim)) {
    arma::mat C(X * X.t());
    C -= double(n) * b.mean * b.mean.t();
    C /= denom;
    b.total_variance = arma::trace(C);
    EigenPairs e = sym_eigs(C, d, Spectrum::Largest);
    b.W = std::move(e.vectors);
    b.variances = arma::clamp(e.values, 0.0, arma::datum::inf);
    out.all = true;
    return out;
  }
  double sq = 0;
  for (arma::uword p = 0; p < X.n_nonzero; ++p) sq += X.values[p] * X.values[p];
  b.total_variance = std::max(0.0, (sq - double(n) * arma::dot(b.mean, b.mean)) / denom);
  const arma::uword kmax = std::min(d, n) - 1;  // Lanczos needs k < d; the data span n - 1
  if (kmax == 0) throw MethodError("PCA of sparse data: one feature or two points only");
  const SymOperator op = [&](const arma::vec& v, arma::vec& y) {
    const arma::vec z = sparse_tmul(X, v) - arma::dot(b.mean, v);
    y.zeros(d);
    sparse_mul_add(X, z, y);
    y -= arma::accu(z) * b.mean;
    y /= denom;
  };
  LanczosOptions opt;
  opt.tol = 1e-12;
  arma::uword want = k ? k : std::min<arma::uword>(64, kmax);
  if (want > kmax)
    throw MethodError("PCA of sparse data: " + std::to_string(want) +
                      " directions asked, at most " + std::to_string(kmax) + " computed");
  for (;;) {
    const LanczosResult r = lanczos_largest(op, d, want, arma::mat(d, 0), opt);
    if (!r.converged)
      throw MethodError("PCA of sparse data: Lanczos did not converge (residual " +
                        std::to_string(r.max_residual) + ")");
    b.W = r.vectors;
    b.variances = arma::clamp(r.values, 0.0, arma::datum::inf);
    if (k || want == kmax || arma::accu(b.variances) >= variance * b.total_variance * (1 - 1e-12))
      break;
    want = std::min(2 * want, kmax);
  }
  out.all = want == kmax && kmax + 1 == d;
  return out;
}

}  // namespace drbench
