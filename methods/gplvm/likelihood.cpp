#include "methods/gplvm/likelihood.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "framework/core/error.hpp"

namespace drbench {

namespace {

// Upper Cholesky factor by LAPACK's potrf, which reads only the upper triangle: kernel matrices
// summed from several terms carry rounding asymmetry that arma::chol would warn about on every
// optimiser step, although it cannot change the factor.
bool upper_cholesky(arma::mat& R, const arma::mat& K) {
  R = K;
  char uplo = 'U';
  arma::blas_int n = arma::blas_int(R.n_rows), info = 0;
  arma::lapack::potrf(&uplo, &n, R.memptr(), &n, &info);
  if (info != 0) return false;
  for (arma::uword j = 0; j + 1 < R.n_cols; ++j)
    std::fill(R.colptr(j) + j + 1, R.colptr(j) + R.n_rows, 0.0);
  return true;
}

}  // namespace

bool cholesky_with_jitter(const arma::mat& K, CholeskyJitter& out) {
  out.jitter = 0.0;
  if (!K.is_finite()) return false;
  if (upper_cholesky(out.R, K)) return true;
  const double base = 1e-6 * std::max(arma::mean(arma::abs(K.diag())), 1e-12);
  arma::mat Kj = K;
  double added = 0.0;
  for (int k = 0; k < 6; ++k) {
    const double j = base * std::pow(10.0, k);
    Kj.diag() += j - added;
    added = j;
    if (upper_cholesky(out.R, Kj)) {
      out.jitter = j;
      return true;
    }
  }
  return false;
}

arma::mat inverse_from_cholesky(arma::mat R) {
  arma::mat Kinv = std::move(R);
  char uplo = 'U';
  arma::blas_int n = arma::blas_int(Kinv.n_rows), info = 0;
  arma::lapack::potri(&uplo, &n, Kinv.memptr(), &n, &info);
  if (info != 0) throw Error("internal: LAPACK potri failed with info " + std::to_string(info));
  // Mirror the upper triangle in place (symmatu would allocate another N x N).
  // Blocked so that the strided reads stay in cache.
  const arma::uword m = Kinv.n_rows, B = 64;
  for (arma::uword jb = 0; jb < m; jb += B)
    for (arma::uword ib = jb; ib < m; ib += B)
      for (arma::uword j = jb; j < std::min(m, jb + B); ++j)
        for (arma::uword i = std::max(ib, j + 1); i < std::min(m, ib + B); ++i)
          Kinv(i, j) = Kinv(j, i);
  return Kinv;
}

GpNllResult gp_neg_log_likelihood(const arma::mat& K, const arma::mat& Yt, bool with_grad) {
  const double n = double(Yt.n_rows), d = double(Yt.n_cols);
  GpNllResult r;
  CholeskyJitter ch;
  if (!cholesky_with_jitter(K, ch)) {
    r.value = std::numeric_limits<double>::infinity();
    return r;
  }
  r.jitter = ch.jitter;
  const double logdet = 2.0 * arma::accu(arma::log(ch.R.diag()));
  double trace_term;
  if (!with_grad) {
    // tr(K^-1 Y Y^T) = ||R^-T Y||_F^2: one triangular solve, no inverse.
    const arma::mat V = arma::solve(arma::trimatl(ch.R.t()), Yt);
    trace_term = arma::accu(arma::square(V));
  } else {
    r.Kinv = inverse_from_cholesky(std::move(ch.R));
    r.KinvY = r.Kinv * Yt;
    trace_term = arma::accu(r.KinvY % Yt);
    // dL/dK = d/2 K^-1 - 1/2 (K^-1 Y)(K^-1 Y)^T; the outer product is a rank-d BLAS-3 update.
    r.dK = (0.5 * d) * r.Kinv - 0.5 * (r.KinvY * r.KinvY.t());
  }
  r.value = 0.5 * d * logdet + 0.5 * trace_term + 0.5 * n * d * std::log(2.0 * arma::datum::pi);
  return r;
}

}  // namespace drbench
