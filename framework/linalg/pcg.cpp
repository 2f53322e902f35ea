#include "framework/linalg/pcg.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "framework/core/error.hpp"

namespace drbench {

namespace {

// Q = M P for symmetric CSC M, every column of P in one pass over M: row i of the product is
// column i of M dotted with P's rows (M = M^T), a gather that reads M once for all columns.
// Armadillo's sparse-times-dense scatters one column at a time and costs several times more.
void sym_times(const arma::sp_mat& M, const arma::mat& P, arma::mat& Q) {
  const arma::uword n = M.n_rows, r = P.n_cols;
  M.sync();  // element-wise edits (M.diag() += ...) may sit in Armadillo's cache until synced
  Q.set_size(n, r);
  const arma::uword* cp = M.col_ptrs;
  const arma::uword* ri = M.row_indices;
  const double* v = M.values;
  // P's rows side by side, so that each stored entry reads one contiguous row.
  const arma::mat Pt = P.t();
  const double* pt = Pt.memptr();
  std::vector<double> acc(r);
  for (arma::uword i = 0; i < n; ++i) {
    std::fill(acc.begin(), acc.end(), 0.0);
    for (arma::uword q = cp[i]; q < cp[i + 1]; ++q) {
      const double* pj = pt + r * ri[q];
      for (arma::uword c = 0; c < r; ++c) acc[c] += v[q] * pj[c];
    }
    for (arma::uword c = 0; c < r; ++c) Q(i, c) = acc[c];
  }
}

}  // namespace

PcgResult pcg_solve(const arma::sp_mat& M, const arma::mat& B, arma::mat& X, double rel_tol,
                    int max_iterations) {
  const arma::vec diag(M.diag());
  if (!(diag.min() > 0)) throw Error("internal: pcg_solve needs a positive diagonal");
  const arma::vec inv = 1.0 / diag;
  return pcg_solve(M, B, X, rel_tol, max_iterations,
                   [&inv](const arma::mat& R) { return arma::mat(R.each_col() % inv); });
}

PcgResult pcg_solve(const arma::sp_mat& M, const arma::mat& B, arma::mat& X, double rel_tol,
                    int max_iterations, const std::function<arma::mat(const arma::mat&)>& apply) {
  const arma::uword n = M.n_rows, r = B.n_cols;
  if (M.n_cols != n || B.n_rows != n) throw Error("internal: pcg_solve sizes do not match");
  if (X.n_rows != B.n_rows || X.n_cols != B.n_cols) X.zeros(B.n_rows, B.n_cols);
  // The columns are independent CG runs advanced in lockstep (one pass over M per step for all
  // of them); a column that has converged is frozen.
  arma::mat R, Q;
  sym_times(M, X, Q);
  R = B - Q;
  arma::mat Z = apply(R);
  arma::mat P = Z;
  arma::rowvec rz = arma::sum(R % Z, 0);
  const arma::rowvec bn = arma::sqrt(arma::sum(arma::square(B), 0));
  arma::rowvec rn = arma::sqrt(arma::sum(arma::square(R), 0));
  std::vector<bool> active(r);
  std::vector<int> its(r, 0);
  auto still = [&](arma::uword c) { return bn(c) > 0 && rn(c) > rel_tol * bn(c); };
  for (arma::uword c = 0; c < r; ++c) active[c] = still(c);
  for (int it = 0; it < max_iterations; ++it) {
    if (std::none_of(active.begin(), active.end(), [](bool a) { return a; })) break;
    sym_times(M, P, Q);
    std::vector<bool> stepped(r, false);
    for (arma::uword c = 0; c < r; ++c) {
      if (!active[c]) continue;
      const double pq = arma::dot(P.col(c), Q.col(c));
      if (!(pq > 0)) {  // converged to rounding (or M not positive definite along p)
        active[c] = false;
        continue;
      }
      const double alpha = rz(c) / pq;
      X.col(c) += alpha * P.col(c);
      R.col(c) -= alpha * Q.col(c);
      stepped[c] = true;
    }
    // After the last step Z and P would feed no further step: skip the application, which is
    // most of a step's cost under a factored preconditioner (X is the same either way).
    const bool last = it + 1 == max_iterations;
    // One application for all columns: a factored preconditioner solves them together.
    if (!last) Z = apply(R);
    for (arma::uword c = 0; c < r; ++c) {
      if (!stepped[c]) continue;
      if (!last) {
        const double rz_new = arma::dot(R.col(c), Z.col(c));
        P.col(c) = Z.col(c) + (rz_new / rz(c)) * P.col(c);
        rz(c) = rz_new;
      }
      rn(c) = arma::norm(R.col(c));
      ++its[c];
      active[c] = still(c);
    }
  }
  PcgResult out;
  for (arma::uword c = 0; c < r; ++c) {
    if (bn(c) == 0) {
      X.col(c).zeros();
      continue;
    }
    out.iterations = std::max(out.iterations, its[c]);
    out.residual = std::max(out.residual, rn(c) / bn(c));
  }
  return out;
}

}  // namespace drbench
