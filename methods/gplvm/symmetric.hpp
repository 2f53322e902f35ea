#pragma once
// Symmetric N x N matrices kept as one triangle: the GP objective's covariance, dL/dK and the
// kernels' caches. Blocked helpers for the passes that must touch both triangles (a strided
// column-by-row walk would miss the cache on every element), and the BLAS-3 calls on one
// triangle that Armadillo does not wrap.
#include <algorithm>
#include <armadillo>

namespace drbench::symmetric {

// f(j, i0, i1) for the column segments rows [i0, i1) of column j that tile the strict upper
// triangle of an n x n matrix, 64 x 64 tile by tile, so that the transposed elements (j, i) a
// segment needs stay in cache from one column of the tile to the next.
template <class F>
void for_upper_segments(arma::uword n, F&& f) {
  constexpr arma::uword B = 64;
  for (arma::uword jb = 0; jb < n; jb += B) {
    const arma::uword je = std::min(n, jb + B);
    for (arma::uword ib = 0; ib <= jb; ib += B)
      for (arma::uword j = jb; j < je; ++j)
        if (ib < j) f(j, ib, std::min(j, ib + B));
  }
}

// Sizes A as n x n, keeping its memory when it has that size already. A new allocation is marked
// for transparent huge pages (Linux, where enabled on request): the tiled passes over both
// triangles touch 64 pages per tile column with 4 KiB pages, and TLB misses then cost more than
// the arithmetic. The buffers live across an optimiser's evaluations.
void ensure_size(arma::mat& A, arma::uword n);

// A(i, j) = A(j, i) for i > j: the upper triangle copied down.
void mirror_upper(arma::mat& A);
// A(i, j) = A(j, i) for i < j: the strict lower triangle copied up.
void mirror_lower(arma::mat& A);
// K += scale * U for the symmetric matrix whose upper triangle U holds (both triangles of K).
void add_upper(const arma::mat& U, double scale, arma::mat& K);
// Upper triangle of K = (overwrite ? 0 : K) + every_pair, plus same_point on the diagonal.
void fill_upper(arma::mat& K, bool overwrite, double every_pair, double same_point);
// Sums of A over its strict upper triangle and over its diagonal.
void upper_sums(const arma::mat& A, double& strict_upper, double& diagonal);
// S = G + G^T (full).
void sum_with_transpose(const arma::mat& G, arma::mat& S);

// C(upper) = alpha A A^T + beta C (trans 'N') or alpha A^T A + beta C (trans 'T'); C is n x n.
void syrk(char trans, double alpha, const arma::mat& A, double beta, arma::mat& C);
// C(upper) = alpha (A B^T + B A^T) (A, B n x k); C is n x n.
void syr2k(const arma::mat& A, const arma::mat& B, arma::mat& C, double alpha = 1.0);
// C(upper) = alpha (A^T B + B^T A) (A, B k x n); C is n x n.
void syr2k_t(const arma::mat& A, const arma::mat& B, arma::mat& C, double alpha = 1.0);
// C = S B (side 'L', S n x n) or B S (side 'R'), S symmetric given by its upper triangle.
void symm(char side, const arma::mat& S, const arma::mat& B, arma::mat& C);
// B = R^-T B for an upper triangular R.
void solve_upper_transposed(const arma::mat& R, arma::mat& B);
// B := op(R)^-1 B (side 'L') or B op(R)^-1 (side 'R') for an upper triangular R, op = transpose
// when trans is 'T' (BLAS trsm): the sparse likelihoods' n x m solves against m x m factors.
void solve_upper(char side, char trans, const arma::mat& R, arma::mat& B);
// B := op(R) B (side 'L') or B op(R) (side 'R') for an upper triangular R (BLAS trmm).
void multiply_upper(char side, char trans, const arma::mat& R, arma::mat& B);

}  // namespace drbench::symmetric
