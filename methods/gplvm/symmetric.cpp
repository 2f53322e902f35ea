#include "methods/gplvm/symmetric.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

extern "C" {
// OpenBLAS, gfortran convention (hidden string lengths last).
void dsyrk_(const char* uplo, const char* trans, const arma::blas_int* n, const arma::blas_int* k,
            const double* alpha, const double* a, const arma::blas_int* lda, const double* beta,
            double* c, const arma::blas_int* ldc, std::size_t, std::size_t);
void dsyr2k_(const char* uplo, const char* trans, const arma::blas_int* n, const arma::blas_int* k,
             const double* alpha, const double* a, const arma::blas_int* lda, const double* b,
             const arma::blas_int* ldb, const double* beta, double* c, const arma::blas_int* ldc,
             std::size_t, std::size_t);
void dsymm_(const char* side, const char* uplo, const arma::blas_int* m, const arma::blas_int* n,
            const double* alpha, const double* a, const arma::blas_int* lda, const double* b,
            const arma::blas_int* ldb, const double* beta, double* c, const arma::blas_int* ldc,
            std::size_t, std::size_t);
void dtrsm_(const char* side, const char* uplo, const char* transa, const char* diag,
            const arma::blas_int* m, const arma::blas_int* n, const double* alpha, const double* a,
            const arma::blas_int* lda, double* b, const arma::blas_int* ldb, std::size_t,
            std::size_t, std::size_t, std::size_t);
void dtrmm_(const char* side, const char* uplo, const char* transa, const char* diag,
            const arma::blas_int* m, const arma::blas_int* n, const double* alpha, const double* a,
            const arma::blas_int* lda, double* b, const arma::blas_int* ldb, std::size_t,
            std::size_t, std::size_t, std::size_t);
}

namespace drbench::symmetric {

namespace {

// f(i + j n, j + i n) for every i < j: the column-major offsets of (i, j) and (j, i).
template <class F>
void for_upper_pairs(arma::uword n, F&& f) {
  for_upper_segments(n, [&](arma::uword j, arma::uword i0, arma::uword i1) {
    for (arma::uword i = i0; i < i1; ++i) f(i + j * n, j + i * n);
  });
}

arma::blas_int bi(arma::uword v) {
  return arma::blas_int(v);
}

}  // namespace

void ensure_size(arma::mat& A, arma::uword n) {
  if (A.n_rows == n && A.n_cols == n) return;
  A.set_size(n, n);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t(1) << 21;
  const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(A.memptr());
  const std::uintptr_t end = begin + A.n_elem * sizeof(double);
  const std::uintptr_t first = (begin + huge - 1) & ~(huge - 1), last = end & ~(huge - 1);
  // Advice only: where the kernel refuses it the buffer simply keeps 4 KiB pages.
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
}

void mirror_upper(arma::mat& A) {
  double* a = A.memptr();
  for_upper_pairs(A.n_rows, [a](arma::uword ij, arma::uword ji) { a[ji] = a[ij]; });
}

void mirror_lower(arma::mat& A) {
  double* a = A.memptr();
  for_upper_pairs(A.n_rows, [a](arma::uword ij, arma::uword ji) { a[ij] = a[ji]; });
}

void add_upper(const arma::mat& U, double scale, arma::mat& K) {
  const double* u = U.memptr();
  double* k = K.memptr();
  for_upper_pairs(U.n_rows, [=](arma::uword ij, arma::uword ji) {
    const double v = scale * u[ij];
    k[ij] += v;
    k[ji] += v;
  });
  for (arma::uword j = 0; j < U.n_rows; ++j) K.at(j, j) += scale * U.at(j, j);
}

void fill_upper(arma::mat& K, bool overwrite, double every_pair, double same_point) {
  for (arma::uword j = 0; j < K.n_cols; ++j) {
    double* k = K.colptr(j);
    for (arma::uword i = 0; i <= j; ++i) k[i] = (overwrite ? 0.0 : k[i]) + every_pair;
    k[j] += same_point;
  }
}

void upper_sums(const arma::mat& A, double& strict_upper, double& diagonal) {
  strict_upper = diagonal = 0.0;
  for (arma::uword j = 0; j < A.n_cols; ++j) {
    const double* a = A.colptr(j);
    double s[2] = {0.0, 0.0};  // two chains: one is latency-bound
    for (arma::uword i = 0; i < j; ++i) s[i & 1] += a[i];
    strict_upper += s[0] + s[1];
    diagonal += a[j];
  }
}

void sum_with_transpose(const arma::mat& G, arma::mat& S) {
  S.set_size(G.n_rows, G.n_cols);
  const double* g = G.memptr();
  double* out = S.memptr();
  for_upper_pairs(G.n_rows,
                  [=](arma::uword ij, arma::uword ji) { out[ij] = out[ji] = g[ij] + g[ji]; });
  for (arma::uword j = 0; j < G.n_rows; ++j) S.at(j, j) = 2.0 * G.at(j, j);
}

void syrk(char trans, double alpha, const arma::mat& A, double beta, arma::mat& C) {
  const bool t = trans == 'T';
  const arma::uword nn = t ? A.n_cols : A.n_rows;
  const arma::blas_int n = bi(nn), k = bi(t ? A.n_rows : A.n_cols), lda = bi(A.n_rows);
  if (C.n_rows != nn || C.n_cols != nn) C.set_size(nn, nn);  // keeps C when beta uses it
  const char up = 'U';
  dsyrk_(&up, &trans, &n, &k, &alpha, A.memptr(), &lda, &beta, C.memptr(), &n, 1, 1);
}

void syr2k(const arma::mat& A, const arma::mat& B, arma::mat& C, double alpha) {
  const arma::blas_int n = bi(A.n_rows), k = bi(A.n_cols);
  C.set_size(A.n_rows, A.n_rows);
  const double zero = 0.0;
  const char up = 'U', notrans = 'N';
  dsyr2k_(&up, &notrans, &n, &k, &alpha, A.memptr(), &n, B.memptr(), &n, &zero, C.memptr(), &n, 1,
          1);
}

void syr2k_t(const arma::mat& A, const arma::mat& B, arma::mat& C, double alpha) {
  const arma::blas_int n = bi(A.n_cols), k = bi(A.n_rows);
  C.set_size(A.n_cols, A.n_cols);
  const double zero = 0.0;
  const char up = 'U', trans = 'T';
  dsyr2k_(&up, &trans, &n, &k, &alpha, A.memptr(), &k, B.memptr(), &k, &zero, C.memptr(), &n, 1, 1);
}

void symm(char side, const arma::mat& S, const arma::mat& B, arma::mat& C) {
  const arma::blas_int m = bi(B.n_rows), n = bi(B.n_cols), lds = bi(S.n_rows);
  C.set_size(B.n_rows, B.n_cols);
  const double one = 1.0, zero = 0.0;
  const char up = 'U';
  dsymm_(&side, &up, &m, &n, &one, S.memptr(), &lds, B.memptr(), &m, &zero, C.memptr(), &m, 1, 1);
}

void solve_upper_transposed(const arma::mat& R, arma::mat& B) {
  const arma::blas_int m = bi(B.n_rows), n = bi(B.n_cols);
  const double one = 1.0;
  const char left = 'L', up = 'U', trans = 'T', nonunit = 'N';
  dtrsm_(&left, &up, &trans, &nonunit, &m, &n, &one, R.memptr(), &m, B.memptr(), &m, 1, 1, 1, 1);
}

void solve_upper(char side, char trans, const arma::mat& R, arma::mat& B) {
  const arma::blas_int m = bi(B.n_rows), n = bi(B.n_cols), k = bi(R.n_rows);
  const double one = 1.0;
  const char up = 'U', nonunit = 'N';
  dtrsm_(&side, &up, &trans, &nonunit, &m, &n, &one, R.memptr(), &k, B.memptr(), &m, 1, 1, 1, 1);
}

void multiply_upper(char side, char trans, const arma::mat& R, arma::mat& B) {
  const arma::blas_int m = bi(B.n_rows), n = bi(B.n_cols), k = bi(R.n_rows);
  const double one = 1.0;
  const char up = 'U', nonunit = 'N';
  dtrmm_(&side, &up, &trans, &nonunit, &m, &n, &one, R.memptr(), &k, B.memptr(), &m, 1, 1, 1, 1);
}

}  // namespace drbench::symmetric
