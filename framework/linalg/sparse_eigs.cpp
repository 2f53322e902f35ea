#include "framework/linalg/sparse_eigs.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/linalg/sparse_lu.hpp"

namespace drbench {

namespace {

void project_out(const arma::mat& Z, arma::vec& w) {
  if (Z.n_cols > 0) w -= Z * (Z.t() * w);
}

// A unit vector orthogonal to `deflate` and to the first `used` columns of V (twice classical
// Gram-Schmidt); false if the random draw lies in their span to rounding.
bool fresh_vector(Rng& rng, const arma::mat& deflate, const arma::mat& V, arma::uword used,
                  arma::vec& v) {
  v = rng.randn(V.n_rows, 1);
  for (int pass = 0; pass < 2; ++pass) {
    project_out(deflate, v);
    if (used > 0) v -= V.head_cols(used) * (V.head_cols(used).t() * v);
  }
  const double nv = arma::norm(v);
  if (!(nv > 1e-8)) return false;
  v /= nv;
  return true;
}

}  // namespace

LanczosResult lanczos_largest(const SymOperator& A, arma::uword n, arma::uword k,
                              const arma::mat& deflate, const LanczosOptions& opt) {
  const arma::uword p = deflate.n_cols;
  if (k == 0 || k + p >= n)
    throw Error("lanczos_largest: " + std::to_string(k) + " eigenpairs with " + std::to_string(p) +
                " deflated of a " + std::to_string(n) + " x " + std::to_string(n) + " operator");
  if (p > 0 && deflate.n_rows != n) throw Error("lanczos_largest: deflation vectors of wrong size");
  const arma::uword room = n - p;  // dimension of the space Lanczos works in
  arma::uword m = opt.basis ? opt.basis : std::max<arma::uword>(2 * k + 10, 30);
  m = std::min(m, room);
  m = std::max(m, k + 1 <= room ? k + 1 : room);
  Rng rng(opt.seed);
  arma::mat V(n, m + 1, arma::fill::zeros);
  arma::mat H(m + 1, m + 1, arma::fill::zeros);
  arma::vec v, w(n), h;
  if (!fresh_vector(rng, deflate, V, 0, v)) throw Error("lanczos_largest: no start vector");
  V.col(0) = v;
  LanczosResult r;
  arma::uword j0 = 0;  // columns of V carried over from the previous cycle
  for (;;) {
    arma::uword filled = m;  // basis size this cycle
    double beta = 0.0;
    for (arma::uword j = j0; j < m; ++j) {
      A(V.col(j), w);
      ++r.products;
      // Full reorthogonalisation, twice (Kahan's "twice is enough"), against the deflated
      // vectors and the whole basis; H's column j is the projection V' A v_j.
      project_out(deflate, w);
      auto Vj = V.head_cols(j + 1);
      h = Vj.t() * w;
      w -= Vj * h;
      project_out(deflate, w);
      const arma::vec h2 = Vj.t() * w;
      w -= Vj * h2;
      h += h2;
      H(arma::span(0, j), j) = h;
      beta = arma::norm(w);
      const double scale = std::max(arma::abs(h).max(), 1e-300);
      if (beta <= 1e-13 * scale) {
        // An invariant subspace: continue from a fresh direction (its coupling to the basis is 0).
        beta = 0.0;
        if (j + 1 == room || !fresh_vector(rng, deflate, V, j + 1, v)) {
          filled = j + 1;
          break;
        }
        V.col(j + 1) = v;
      } else {
        V.col(j + 1) = w / beta;
      }
      H(j + 1, j) = beta;
    }
    const arma::mat T = arma::symmatu(H.submat(0, 0, filled - 1, filled - 1));
    arma::vec theta;
    arma::mat Q;
    if (!arma::eig_sym(theta, Q, T)) throw MethodError("Lanczos: projected eigenproblem failed");
    // Wanted: the k largest, last in eig_sym's ascending order.
    const arma::uword kk = std::min(k, filled);
    double worst = 0.0;
    for (arma::uword i = 0; i < kk; ++i) {
      const arma::uword c = filled - 1 - i;
      const double res = std::abs(beta * Q(filled - 1, c));
      worst = std::max(worst, res / std::max(std::abs(theta(c)), 1e-300));
    }
    r.max_residual = worst;
    const bool done = (kk == k && worst <= opt.tol) || filled < m || r.restarts >= opt.max_restarts;
    if (done) {
      r.converged = kk == k && worst <= opt.tol;
      r.values.set_size(kk);
      arma::mat Qk(filled, kk);
      for (arma::uword i = 0; i < kk; ++i) {
        r.values(i) = theta(filled - 1 - i);
        Qk.col(i) = Q.col(filled - 1 - i);
      }
      r.vectors = V.head_cols(filled) * Qk;
      return r;
    }
    // Thick restart: keep the largest Ritz vectors (the wanted ones and as many again as room
    // allows, which carries the convergence forward) and the residual direction.
    const arma::uword keep = std::min<arma::uword>(m - 1, k + (m - k) / 2);
    arma::mat Qk = Q.tail_cols(keep);
    const arma::vec th = theta.tail(keep);
    const arma::mat Vk = V.head_cols(m) * Qk;
    const arma::vec resid = V.col(m);
    V.zeros();
    V.head_cols(keep) = Vk;
    V.col(keep) = resid;
    H.zeros();
    // A V_keep = V_keep Theta + beta v_{m+1} (e_m' Q): the coupling to v_{m+1} comes back as
    // column `keep` of H when the next cycle projects A v_{m+1} on the whole basis.
    for (arma::uword i = 0; i < keep; ++i) H(i, i) = th(i);
    j0 = keep;
    ++r.restarts;
  }
}

void smallest_eigs_shift_invert(arma::vec& values, arma::mat& vectors, const arma::sp_mat& A,
                                arma::uword k, const arma::mat& deflate, const char* what,
                                ShiftInvertInfo* info, double shift_rel) {
  const arma::uword n = A.n_rows;
  if (!A.is_square()) throw Error("smallest_eigs_shift_invert: matrix is not square");
  const double tr = arma::accu(A.diag());
  const double s = shift_rel * (tr > 0 ? tr / double(n) : 1.0);
  arma::sp_mat As = A;
  As.diag() += s;
  // Compressed columns for SuperLU (Armadillo keeps row indices sorted within a column).
  As.sync();
  std::vector<int> cp(n + 1), ri(As.n_nonzero);
  std::vector<double> val(As.values, As.values + As.n_nonzero);
  for (arma::uword c = 0; c <= n; ++c) cp[c] = static_cast<int>(As.col_ptrs[c]);
  for (arma::uword e = 0; e < As.n_nonzero; ++e) ri[e] = static_cast<int>(As.row_indices[e]);
  As.reset();
  const SparseLu lu(static_cast<int>(n), std::move(cp), std::move(ri), std::move(val));
  const SymOperator op = [&lu](const arma::vec& x, arma::vec& y) {
    y = x;
    lu.solve(y.memptr(), 1);
  };
  // The operator's eigenvalues 1 / (lambda + s) are well separated at the small end of A's
  // spectrum; a tight tolerance on them is a tight one on lambda.
  LanczosOptions opt;
  opt.tol = 1e-10;
  const LanczosResult r = lanczos_largest(op, n, k, deflate, opt);
  if (!r.converged)
    throw MethodError(std::string(what) +
                      ": the sparse eigensolver (shift-invert Lanczos) did not "
                      "converge (relative residual " +
                      std::to_string(r.max_residual) +
                      "); increase neighbours, or the graph may fall apart into components");
  values = 1.0 / r.values - s;  // ascending, since r.values is descending
  vectors = r.vectors;
  if (info) {
    info->shift = s;
    info->factor_nonzeros = lu.factor_nonzeros();
    info->solves = r.products;
    info->restarts = r.restarts;
    info->max_residual = r.max_residual;
  }
}

}  // namespace drbench
