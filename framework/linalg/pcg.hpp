#pragma once
// Preconditioned conjugate gradients for a sparse symmetric positive definite system with several
// right-hand sides, M X = B, column by column with the Jacobi (diagonal) preconditioner. Written
// for the spectral direction of the linear-time neighbour embeddings, whose M = 4 L+ + mu I is a
// graph Laplacian too large to factorise densely: a few warm-started iterations per optimiser
// step are what the direction needs (any partial CG solve started at 0 is a descent direction).
// Armadillo's spsolve (SuperLU) refactorises on every call, which costs more than the solve.
#include <armadillo>
#include <functional>

namespace drbench {

struct PcgResult {
  int iterations = 0;     // largest over the columns
  double residual = 0.0;  // largest |B - M X| / |B| over the columns (0 for a zero column)
};

// Solves M X = B in place: X holds the start (resized to zeros when its size differs from B's)
// and returns the iterate after at most max_iterations steps or once a column's relative residual
// is at most rel_tol. M: n x n sparse symmetric positive definite with a positive diagonal.
PcgResult pcg_solve(const arma::sp_mat& M, const arma::mat& B, arma::mat& X, double rel_tol,
                    int max_iterations);

// The same with the preconditioner `apply(R)`, which returns an approximation of M^-1 R for all
// columns of R at once (it must be symmetric positive definite, and fixed across calls).
PcgResult pcg_solve(const arma::sp_mat& M, const arma::mat& B, arma::mat& X, double rel_tol,
                    int max_iterations, const std::function<arma::mat(const arma::mat&)>& apply);

}  // namespace drbench
