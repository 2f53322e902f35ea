#pragma once
// A few extreme eigenpairs of large sparse symmetric matrices in O(n k) memory beyond the matrix
// (and, for shift-invert, its sparse factor): what Laplacian eigenmaps and LLE need at 60,000
// points, where the n x n matrices of eigen.hpp and dense_eigs.hpp no longer fit.
// - lanczos_largest: thick-restart Lanczos (Wu & Simon 2000) with full reorthogonalisation on any
//   symmetric operator, optionally restricted to the orthogonal complement of known eigenvectors
//   (the constant vector of LLE, D^1/2 1 of a normalised Laplacian), so the wanted vectors come
//   out exactly orthogonal to them.
// - smallest_eigs_shift_invert: the smallest eigenpairs of a sparse symmetric positive
//   semi-definite matrix by Lanczos on (A + s I)^-1 through one sparse LU (sparse_lu.hpp), which
//   converges in a few dozen solves where Lanczos on A itself would need thousands of products
//   (the small eigenvalues of a graph matrix are clustered near 0).
// Both start from a fixed pseudo-random vector, so results depend on the matrix alone.
#include <armadillo>
#include <cstddef>
#include <functional>

namespace drbench {

struct LanczosOptions {
  double tol = 1e-10;     // residual |A v - theta v| <= tol |theta| for every wanted pair
  arma::uword basis = 0;  // Krylov basis size per cycle; 0: max(2k + 10, 30), at most n
  arma::uword max_restarts = 300;
  std::uint64_t seed = 0x5eed;  // of the start vector
};

struct LanczosResult {
  arma::vec values;          // largest first
  arma::mat vectors;         // n x k, orthonormal
  arma::uword products = 0;  // operator applications
  arma::uword restarts = 0;
  bool converged = false;
  double max_residual = 0.0;  // largest |A v - theta v| / |theta| at the end
};

// y = A x for n-vectors.
using SymOperator = std::function<void(const arma::vec& x, arma::vec& y)>;

// The k algebraically largest eigenpairs of the symmetric operator A on the orthogonal complement
// of the orthonormal columns of `deflate` (n x p, p may be 0; A must map that complement to
// itself, i.e. the columns are eigenvectors). Requires k + p < n.
LanczosResult lanczos_largest(const SymOperator& A, arma::uword n, arma::uword k,
                              const arma::mat& deflate, const LanczosOptions& opt = {});

struct ShiftInvertInfo {
  double shift = 0.0;
  std::size_t factor_nonzeros = 0;  // entries of the sparse LU of A + shift I
  arma::uword solves = 0;
  arma::uword restarts = 0;
  double max_residual = 0.0;
};

// The k smallest eigenpairs (ascending) of the sparse symmetric positive semi-definite A, on the
// orthogonal complement of `deflate` as above, by Lanczos on (A + s I)^-1 with
// s = shift_rel * trace(A) / n > 0 (keeps the factor non-singular where A has a null space).
// Throws MethodError, naming `what`, when Lanczos does not converge.
void smallest_eigs_shift_invert(arma::vec& values, arma::mat& vectors, const arma::sp_mat& A,
                                arma::uword k, const arma::mat& deflate, const char* what,
                                ShiftInvertInfo* info = nullptr, double shift_rel = 1e-8);

}  // namespace drbench
