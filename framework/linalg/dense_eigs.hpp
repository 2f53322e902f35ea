#pragma once
// A few extreme eigenpairs of a large dense symmetric matrix (KPCA, MDS, Isomap) by Lanczos,
// without the O(n^3) tridiagonal reduction that eigen.hpp's dsyevr path still pays. For n = 7,500
// geodesic kernels this is the difference between seconds and minutes.
#include <armadillo>

namespace drbench {

// The k largest (largest=true) or smallest algebraic eigenpairs of the symmetric matrix A,
// ordered from the extreme inwards (largest first, or smallest first). Small problems, or k close
// to n, use LAPACK's full decomposition; large ones use Armadillo's Lanczos (newarp) on dense
// products, so a 7,500-point MDS costs a few hundred matrix-vector products instead of O(n^3).
// Only A's upper triangle is read. Throws MethodError if the iteration does not converge.
void extreme_eigs_sym(arma::vec& values, arma::mat& vectors, const arma::mat& A, arma::uword k,
                      bool largest);

// The k largest eigenpairs of the symmetric A, largest first, by Lanczos with full
// reorthogonalisation that tests its Ritz pairs after every product and stops as soon as each
// wanted pair has |A u - theta u| <= 1e-12 |theta| (extreme_eigs_sym's test): newarp builds its
// whole ncv-vector basis (20 at k = 2) before testing, while the kernels of KPCA converge in fewer
// products, and each product reads the whole n x n matrix. Falls back to extreme_eigs_sym (the
// same results up to that tolerance) for small n, k close to n, or no convergence within its
// basis. Only A's upper triangle is read. `products`, when given, counts the matrix products.
void largest_eigs_sym(arma::vec& values, arma::mat& vectors, const arma::mat& A, arma::uword k,
                      arma::uword* products = nullptr);

// The k smallest eigenpairs of the symmetric positive definite A, smallest first, by Lanczos on
// A^-1 through A's Cholesky factor (shift-invert at 0: n^3/3 flops and a few dozen triangular
// solves instead of the O(n^3) tridiagonal reduction, and the small eigenvalues come out to full
// relative accuracy). Returns false, leaving the outputs unspecified, where that does not apply:
// small n or k close to n (the dense solvers are as fast), A not numerically positive definite,
// or no convergence; the caller then uses a dense solver. Only A's upper triangle is read.
bool smallest_eigs_spd(arma::vec& values, arma::mat& vectors, const arma::mat& A, arma::uword k);
// The same, factoring A in place (its upper triangle becomes the Cholesky factor; the lower one is
// not touched) instead of in a copy: for a caller that no longer needs A, one n x n matrix less to
// allocate and fill. A is left as it was only where this returns false for small n or k close to
// n; after a failed factorisation or Lanczos run it is overwritten.
bool smallest_eigs_spd_in_place(arma::vec& values, arma::mat& vectors, arma::mat& A, arma::uword k);

// The k extreme eigenpairs of R^-T A R^-1 for symmetric A and upper-triangular R (a Cholesky
// factor B = R'R turns the pencil A v = l B v into this standard form, v = R^-1 u), ordered from
// the extreme inwards, by Lanczos without forming the matrix: two triangular solves and one dsymv
// per product instead of two O(n^3) triangular solves and a tridiagonal reduction. Returns false
// (outputs unspecified) for small n or k close to n, or without convergence: use a dense solver.
bool extreme_eigs_chol_reduced(arma::vec& values, arma::mat& vectors, const arma::mat& A,
                               const arma::mat& R, arma::uword k, bool largest);

// The k largest eigenpairs of the classical-MDS matrix B = -1/2 H D2 H (H the centring matrix)
// for squared distances D2, largest first. For large n, B is never formed: Lanczos works on
// products with D2, so Isomap keeps one n x n matrix instead of two. Only D2's upper triangle is
// read.
void double_centred_eigs(arma::vec& values, arma::mat& vectors, const arma::mat& D2, arma::uword k);

}  // namespace drbench
