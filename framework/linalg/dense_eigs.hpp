#pragma once
// Eigen-solvers for dense symmetric matrices that the spectral methods share (KPCA, MDS, Isomap,
// the kernel subspace methods): a few extreme eigenpairs of a large matrix without a full
// decomposition, and the symmetric-definite generalized problem A v = lambda B v.
#include <armadillo>

namespace drbench {

// The k largest (largest=true) or smallest algebraic eigenpairs of the symmetric matrix A,
// ordered from the extreme inwards (largest first, or smallest first). Small problems, or k close
// to n, use LAPACK's full decomposition; large ones use Armadillo's Lanczos (newarp) on dense
// products, so a 7,500-point MDS costs a few hundred matrix-vector products instead of O(n^3).
// Throws MethodError if the iteration does not converge.
void extreme_eigs_sym(arma::vec& values, arma::mat& vectors, const arma::mat& A, arma::uword k,
                      bool largest);

// A v = lambda B v with A symmetric and B symmetric positive definite, by Cholesky B = R'R and
// the standard problem R^-T A R^-1. Returns k eigenpairs, largest first (largest=true) or
// smallest first, with vectors normalised to v' B v = 1. Throws MethodError when B is not
// positive definite, naming `what_reg`, the parameter that makes it so.
void gen_eig_sym(arma::vec& values, arma::mat& vectors, const arma::mat& A, const arma::mat& B,
                 arma::uword k, bool largest, const char* what_reg);

}  // namespace drbench
