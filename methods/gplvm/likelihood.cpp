#include "methods/gplvm/likelihood.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "framework/core/error.hpp"
#include "methods/gplvm/symmetric.hpp"

namespace drbench {

namespace {

bool potrf_upper(arma::mat& A) {
  char uplo = 'U';
  arma::blas_int n = arma::blas_int(A.n_rows), info = 0;
  arma::lapack::potrf(&uplo, &n, A.memptr(), &n, &info);
  return info == 0;
}

// Upper Cholesky factor by LAPACK's potrf, which reads only the upper triangle: kernel matrices
// summed from several terms carry rounding asymmetry that arma::chol would warn about on every
// optimiser step, although it cannot change the factor.
bool upper_cholesky(arma::mat& R, const arma::mat& K) {
  R = K;
  if (!potrf_upper(R)) return false;
  for (arma::uword j = 0; j + 1 < R.n_cols; ++j)
    std::fill(R.colptr(j) + j + 1, R.colptr(j) + R.n_rows, 0.0);
  return true;
}

double jitter_base(const arma::vec& diag) {
  return 1e-6 * std::max(arma::mean(arma::abs(diag)), 1e-12);
}

}  // namespace

bool cholesky_with_jitter(const arma::mat& K, CholeskyJitter& out) {
  out.jitter = 0.0;
  if (!K.is_finite()) return false;
  if (upper_cholesky(out.R, K)) return true;
  const double base = jitter_base(K.diag());
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
  symmetric::mirror_upper(Kinv);  // in place: symmatu would allocate another N x N
  return Kinv;
}

GpNllValue gp_neg_log_likelihood_in_place(arma::mat& KG, const arma::mat& Yt, arma::mat& KinvY,
                                          bool with_grad,
                                          const std::function<void(arma::mat&)>& refill,
                                          bool full_grad) {
  const arma::blas_int n = arma::blas_int(Yt.n_rows), d = arma::blas_int(Yt.n_cols);
  if (KG.n_rows != Yt.n_rows || KG.n_cols != Yt.n_rows)
    throw Error("internal: GP likelihood given a covariance that does not match the data");
  GpNllValue r;
  const arma::vec diag0 = KG.diag();
  if (!potrf_upper(KG)) {
    // Restart from K (refilled, or kept in the strict lower triangle) with GPmat's schedule.
    const double base = jitter_base(diag0);
    bool ok = false;
    for (int k = 0; k < 6 && !ok; ++k) {
      r.jitter = base * std::pow(10.0, k);
      if (refill)
        refill(KG);
      else
        symmetric::mirror_lower(KG);
      KG.diag() = diag0 + r.jitter;
      ok = potrf_upper(KG);
    }
    if (!ok) r.value = std::numeric_limits<double>::infinity();
  }
  // A non-finite K shows up on the factor's diagonal (it propagates down the columns).
  if (!std::isfinite(r.value)) return r;
  for (arma::blas_int i = 0; i < n; ++i) {
    if (!(std::isfinite(KG(i, i)) && KG(i, i) > 0)) {
      r.value = std::numeric_limits<double>::infinity();
      return r;
    }
  }
  const double logdet = 2.0 * arma::accu(arma::log(KG.diag()));

  double trace_term;
  if (!with_grad) {
    // tr(K^-1 Y Y^T) = ||R^-T Y||_F^2: one triangular solve, no inverse.
    KinvY = Yt;
    symmetric::solve_upper_transposed(KG, KinvY);
    trace_term = arma::dot(KinvY, KinvY);
  } else {
    char up = 'U';
    arma::blas_int info = 0, nn = n;
    arma::lapack::potri(&up, &nn, KG.memptr(), &nn, &info);
    if (info != 0) throw Error("internal: LAPACK potri failed with info " + std::to_string(info));
    // K^-1 Y from the upper triangle of K^-1 (symm), then dL/dK = d/2 K^-1 - 1/2 (K^-1 Y)(K^-1 Y)^T
    // as one rank-d update of that triangle (syrk: half the flops of the outer product).
    symmetric::symm('L', KG, Yt, KinvY);
    trace_term = arma::dot(KinvY, Yt);
    symmetric::syrk('N', -0.5, KinvY, 0.5 * double(d), KG);
    if (full_grad) symmetric::mirror_upper(KG);
  }
  r.value = 0.5 * double(d) * logdet + 0.5 * trace_term +
            0.5 * double(n) * double(d) * std::log(2.0 * arma::datum::pi);
  return r;
}

GpNllResult gp_neg_log_likelihood(const arma::mat& K, const arma::mat& Yt, bool with_grad) {
  GpNllResult r;
  if (!K.is_finite()) {
    r.value = std::numeric_limits<double>::infinity();
    return r;
  }
  r.dK = K;
  const GpNllValue v = gp_neg_log_likelihood_in_place(r.dK, Yt, r.KinvY, with_grad);
  r.value = v.value;
  r.jitter = v.jitter;
  if (!with_grad || !std::isfinite(v.value)) {
    r.dK.reset();
    r.KinvY.reset();
  }
  return r;
}

}  // namespace drbench
