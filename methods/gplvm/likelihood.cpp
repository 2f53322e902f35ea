#include "methods/gplvm/likelihood.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "framework/core/error.hpp"

extern "C" {
// BLAS (OpenBLAS, gfortran convention with hidden string lengths) that Armadillo does not wrap.
void dsymm_(const char* side, const char* uplo, const arma::blas_int* m, const arma::blas_int* n,
            const double* alpha, const double* a, const arma::blas_int* lda, const double* b,
            const arma::blas_int* ldb, const double* beta, double* c, const arma::blas_int* ldc,
            std::size_t, std::size_t);
void dtrsm_(const char* side, const char* uplo, const char* transa, const char* diag,
            const arma::blas_int* m, const arma::blas_int* n, const double* alpha, const double* a,
            const arma::blas_int* lda, double* b, const arma::blas_int* ldb, std::size_t,
            std::size_t, std::size_t, std::size_t);
void dsyrk_(const char* uplo, const char* trans, const arma::blas_int* n, const arma::blas_int* k,
            const double* alpha, const double* a, const arma::blas_int* lda, const double* beta,
            double* c, const arma::blas_int* ldc, std::size_t, std::size_t);
}

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

// Copies the strict lower triangle up (undoing a failed potrf, which wrote only the upper one).
void restore_upper(arma::mat& A) {
  const arma::uword m = A.n_rows, B = 64;
  for (arma::uword jb = 0; jb < m; jb += B)
    for (arma::uword ib = 0; ib <= jb; ib += B)
      for (arma::uword j = jb; j < std::min(m, jb + B); ++j)
        for (arma::uword i = ib; i < std::min(j, ib + B); ++i) A(i, j) = A(j, i);
}

}  // namespace

void mirror_upper(arma::mat& A) {
  // Blocked so that the strided reads stay in cache.
  const arma::uword m = A.n_rows, B = 64;
  for (arma::uword jb = 0; jb < m; jb += B)
    for (arma::uword ib = jb; ib < m; ib += B)
      for (arma::uword j = jb; j < std::min(m, jb + B); ++j)
        for (arma::uword i = std::max(ib, j + 1); i < std::min(m, ib + B); ++i) A(i, j) = A(j, i);
}

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
  mirror_upper(Kinv);  // in place: symmatu would allocate another N x N
  return Kinv;
}

GpNllValue gp_neg_log_likelihood_in_place(arma::mat& KG, const arma::mat& Yt, arma::mat& KinvY,
                                          bool with_grad) {
  const arma::blas_int n = arma::blas_int(Yt.n_rows), d = arma::blas_int(Yt.n_cols);
  if (KG.n_rows != Yt.n_rows || KG.n_cols != Yt.n_rows)
    throw Error("internal: GP likelihood given a covariance that does not match the data");
  GpNllValue r;
  const arma::vec diag0 = KG.diag();
  if (!potrf_upper(KG)) {
    // The strict lower triangle still holds K: restart from it with GPmat's jitter schedule.
    const double base = jitter_base(diag0);
    bool ok = false;
    for (int k = 0; k < 6 && !ok; ++k) {
      r.jitter = base * std::pow(10.0, k);
      restore_upper(KG);
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
  const double one = 1.0, zero = 0.0;
  char left = 'L', up = 'U', trans = 'T', notrans = 'N', nonunit = 'N';
  if (!with_grad) {
    // tr(K^-1 Y Y^T) = ||R^-T Y||_F^2: one triangular solve, no inverse.
    KinvY = Yt;
    dtrsm_(&left, &up, &trans, &nonunit, &n, &d, &one, KG.memptr(), &n, KinvY.memptr(), &n, 1, 1,
           1, 1);
    trace_term = arma::dot(KinvY, KinvY);
  } else {
    arma::blas_int info = 0, nn = n;
    arma::lapack::potri(&up, &nn, KG.memptr(), &nn, &info);
    if (info != 0) throw Error("internal: LAPACK potri failed with info " + std::to_string(info));
    // K^-1 Y from the upper triangle of K^-1 (symm), then dL/dK = d/2 K^-1 - 1/2 (K^-1 Y)(K^-1 Y)^T
    // as one rank-d update of that triangle (syrk: half the flops of the outer product).
    KinvY.set_size(Yt.n_rows, Yt.n_cols);
    dsymm_(&left, &up, &n, &d, &one, KG.memptr(), &n, Yt.memptr(), &n, &zero, KinvY.memptr(), &n,
           1, 1);
    trace_term = arma::dot(KinvY, Yt);
    const double alpha = -0.5, beta = 0.5 * double(d);
    dsyrk_(&up, &notrans, &n, &d, &alpha, KinvY.memptr(), &n, &beta, KG.memptr(), &n, 1, 1);
    mirror_upper(KG);
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
