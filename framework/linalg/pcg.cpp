#include "framework/linalg/pcg.hpp"

#include <algorithm>
#include <cmath>

#include "framework/core/error.hpp"

namespace drbench {

PcgResult pcg_solve(const arma::sp_mat& M, const arma::mat& B, arma::mat& X, double rel_tol,
                    int max_iterations) {
  const arma::uword n = M.n_rows;
  if (M.n_cols != n || B.n_rows != n) throw Error("internal: pcg_solve sizes do not match");
  if (X.n_rows != B.n_rows || X.n_cols != B.n_cols) X.zeros(B.n_rows, B.n_cols);
  const arma::vec diag(M.diag());
  if (!(diag.min() > 0)) throw Error("internal: pcg_solve needs a positive diagonal");
  const arma::vec inv = 1.0 / diag;
  PcgResult out;
  for (arma::uword c = 0; c < B.n_cols; ++c) {
    const arma::vec b = B.col(c);
    const double bn = arma::norm(b);
    if (bn == 0) {
      X.col(c).zeros();
      continue;
    }
    arma::vec x = X.col(c);
    arma::vec r = b - M * x;
    arma::vec z = inv % r;
    arma::vec p = z;
    double rz = arma::dot(r, z);
    int it = 0;
    double rn = arma::norm(r);
    while (it < max_iterations && rn > rel_tol * bn) {
      const arma::vec q = M * p;
      const double pq = arma::dot(p, q);
      if (!(pq > 0)) break;  // converged to rounding (or M not positive definite along p)
      const double alpha = rz / pq;
      x += alpha * p;
      r -= alpha * q;
      z = inv % r;
      const double rz_new = arma::dot(r, z);
      p = z + (rz_new / rz) * p;
      rz = rz_new;
      rn = arma::norm(r);
      ++it;
    }
    X.col(c) = x;
    out.iterations = std::max(out.iterations, it);
    out.residual = std::max(out.residual, rn / bn);
  }
  return out;
}

}  // namespace drbench
