#pragma once
// Dense symmetric and generalized symmetric eigenproblems for the spectral methods (PCA, LDA,
// LPP, IP, OIP, ...). Only the k eigenpairs a method needs are computed (LAPACK dsyevr with an
// index range), which matters when the matrix is an n x n Gram or geodesic kernel.
#include <armadillo>
#include <string>

namespace drbench {

enum class Spectrum { Smallest, Largest };

// Eigenvalues ordered from the requested end inward (largest first for Largest, smallest first
// for Smallest); vectors(:, i) belongs to values(i).
struct EigenPairs {
  arma::vec values;
  arma::mat vectors;
};

// k eigenpairs of the symmetric matrix A (only its upper triangle is read). Orthonormal vectors.
EigenPairs sym_eigs(const arma::mat& A, arma::uword k, Spectrum end);

// B + ridge * (trace(B)/n) * I: a ridge that scales with B, so one setting works for data of
// any magnitude. Where trace(B) is 0 the ridge is absolute.
arma::mat ridge_regularised(const arma::mat& B, double ridge);

// k eigenpairs of A v = lambda B v with B symmetric positive definite after the relative ridge
// above (Cholesky reduction to a standard problem). Vectors are B_ridge-orthonormal:
// V^T B_ridge V = I. When B_ridge is not positive definite a MethodError tells the user to
// raise `ridge_param` (the method's parameter name), quoting its current value; `what` names
// the matrix in the message, e.g. "within-class scatter S_w".
EigenPairs gen_sym_eigs(const arma::mat& A, const arma::mat& B, arma::uword k, Spectrum end,
                        double ridge, const std::string& ridge_param, const std::string& what);

// Flips the sign of each column so that its entry of largest magnitude is positive: eigenvectors
// are defined up to sign, and results files should not depend on LAPACK's choice.
void fix_signs(arma::mat& V);

}  // namespace drbench
