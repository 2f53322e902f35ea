#include "framework/linalg/dense_eigs.hpp"

#include <algorithm>
#include <string>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/linalg/distances.hpp"

extern "C" {
// BLAS symmetric matrix-vector product (OpenBLAS, gfortran convention with a hidden length).
void dsymv_(const char* uplo, const arma::blas_int* n, const double* alpha, const double* a,
            const arma::blas_int* lda, const double* x, const arma::blas_int* incx,
            const double* beta, double* y, const arma::blas_int* incy, std::size_t);
// LAPACK Cholesky factorisation.
void dpotrf_(const char* uplo, const arma::blas_int* n, double* a, const arma::blas_int* lda,
             arma::blas_int* info, std::size_t);
// BLAS triangular solve with one right-hand side.
void dtrsv_(const char* uplo, const char* trans, const char* diag, const arma::blas_int* n,
            const double* a, const arma::blas_int* lda, double* x, const arma::blas_int* incx,
            std::size_t, std::size_t, std::size_t);
}

namespace drbench {

namespace {

// y = A x from A's upper triangle: Lanczos on a dense n x n matrix is bound by reading A once per
// product, and dsymv reads half of it (about 1.8x faster than dgemv at n = 2,000).
void sym_matvec(const arma::mat& A, const double* x, double* y) {
  const arma::blas_int n = static_cast<arma::blas_int>(A.n_rows), one = 1;
  const double alpha = 1.0, beta = 0.0;
  dsymv_("U", &n, &alpha, A.memptr(), &n, x, &one, &beta, y, &one, 1);
}

struct SymMatProd {
  const arma::mat& A;
  const arma::uword n_rows, n_cols;
  explicit SymMatProd(const arma::mat& a) : A(a), n_rows(a.n_rows), n_cols(a.n_cols) {}
  void perform_op(double* x_in, double* y_out) const { sym_matvec(A, x_in, y_out); }
};

// y = A^-1 x = R^-1 R^-T x for A = R'R (R upper triangular): shift-invert at 0.
struct CholInverseOp {
  const arma::mat& R;
  const arma::uword n_rows, n_cols;
  explicit CholInverseOp(const arma::mat& r) : R(r), n_rows(r.n_rows), n_cols(r.n_cols) {}
  void perform_op(double* x_in, double* y_out) const {
    const arma::blas_int n = static_cast<arma::blas_int>(n_rows), one = 1;
    std::copy(x_in, x_in + n_rows, y_out);
    dtrsv_("U", "T", "N", &n, R.memptr(), &n, y_out, &one, 1, 1, 1);
    dtrsv_("U", "N", "N", &n, R.memptr(), &n, y_out, &one, 1, 1, 1);
  }
};

// y = R^-T A R^-1 x (R upper triangular): the standard form of the pencil (A, R'R), unformed.
struct CholReducedOp {
  const arma::mat& A;
  const arma::mat& R;
  const arma::uword n_rows, n_cols;
  mutable arma::vec t;
  CholReducedOp(const arma::mat& a, const arma::mat& r)
      : A(a), R(r), n_rows(a.n_rows), n_cols(a.n_cols), t(a.n_rows) {}
  void perform_op(double* x_in, double* y_out) const {
    const arma::blas_int n = static_cast<arma::blas_int>(n_rows), one = 1;
    std::copy(x_in, x_in + n_rows, t.memptr());
    dtrsv_("U", "N", "N", &n, R.memptr(), &n, t.memptr(), &one, 1, 1, 1);
    sym_matvec(A, t.memptr(), y_out);
    dtrsv_("U", "T", "N", &n, R.memptr(), &n, y_out, &one, 1, 1, 1);
  }
};

// y = B x with B = -1/2 H D2 H, H = I - 11'/n, without forming B (Lanczos only needs products).
struct DoubleCentredOp {
  const arma::mat& D2;
  const arma::uword n_rows, n_cols;
  explicit DoubleCentredOp(const arma::mat& d2) : D2(d2), n_rows(d2.n_rows), n_cols(d2.n_cols) {}
  void perform_op(double* x_in, double* y_out) const {
    const arma::vec x(x_in, n_rows, false, true);
    const arma::vec xc = x - arma::mean(x);
    arma::vec y(y_out, n_rows, false, true);
    sym_matvec(D2, xc.memptr(), y_out);
    y -= arma::mean(y);
    y *= -0.5;
  }
};

template <int Rule, typename Op>
bool lanczos(arma::vec& values, arma::mat& vectors, const Op& op, arma::uword k) {
  const arma::uword n = op.n_rows;
  const arma::uword ncv = std::min<arma::uword>(n, std::max<arma::uword>(2 * k + 1, 20));
  try {
    arma::newarp::SymEigsSolver<double, Rule, Op> eigs(op, k, ncv);
    eigs.init();  // fixed internal seed: the result does not depend on any global RNG state
    const arma::uword nconv = eigs.compute(3000, 1e-12);
    if (nconv < k) return false;
    values = eigs.eigenvalues();
    vectors = eigs.eigenvectors();
  } catch (const std::exception&) {
    return false;
  }
  return values.n_elem == k && vectors.n_cols == k;
}

// Checks the request of smallest_eigs_spd[_in_place] and says whether the iteration pays (large n,
// few vectors); where it does not, they return false and the caller uses the dense solver.
bool spd_iteration_pays(const arma::mat& A, arma::uword k) {
  const arma::uword n = A.n_rows;
  if (A.n_cols != n) throw Error("smallest_eigs_spd: matrix is not square");
  if (k == 0 || k > n)
    throw MethodError("requested " + std::to_string(k) + " eigenvectors of a " + std::to_string(n) +
                      " x " + std::to_string(n) + " matrix; lower dims");
  return !(n <= 800 || 10 * k >= n);
}

}  // namespace

void extreme_eigs_sym(arma::vec& values, arma::mat& vectors, const arma::mat& A, arma::uword k,
                      bool largest) {
  const arma::uword n = A.n_rows;
  if (A.n_cols != n) throw Error("extreme_eigs_sym: matrix is not square");
  if (k == 0 || k > n)
    throw MethodError("requested " + std::to_string(k) + " eigenvectors of a " + std::to_string(n) +
                      " x " + std::to_string(n) + " matrix; lower dims");
  if (n > 800 && 10 * k < n) {
    const SymMatProd op(A);
    const bool ok = largest
                        ? lanczos<arma::newarp::EigsSelect::LARGEST_ALGE>(values, vectors, op, k)
                        : lanczos<arma::newarp::EigsSelect::SMALLEST_ALGE>(values, vectors, op, k);
    if (ok) {
      // newarp may return the pairs in either order; sort from the extreme inwards.
      const arma::uvec order = arma::sort_index(values, largest ? "descend" : "ascend");
      values = values(order);
      vectors = vectors.cols(order);
      return;
    }
    // Lanczos failed to converge (clustered spectrum): the full decomposition always works.
  }
  arma::vec ev;
  arma::mat V;
  // The upper triangle only, as the Lanczos path (callers may leave the lower one unset).
  const arma::mat S = arma::symmatu(A);
  if (!arma::eig_sym(ev, V, S, "dc") && !arma::eig_sym(ev, V, S, "std"))
    throw MethodError("symmetric eigendecomposition failed (non-finite input?)");
  if (largest) {
    values = arma::flipud(ev.tail(k));
    vectors = arma::fliplr(V.tail_cols(k));
  } else {
    values = ev.head(k);
    vectors = V.head_cols(k);
  }
}

void largest_eigs_sym(arma::vec& values, arma::mat& vectors, const arma::mat& A, arma::uword k,
                      arma::uword* products) {
  const arma::uword n = A.n_rows;
  // The Krylov basis is n x max_steps; past that, newarp's restarts cost less memory.
  const arma::uword max_steps = std::min<arma::uword>(n / 2, std::max<arma::uword>(60, 4 * k));
  if (products) *products = 0;
  if (A.n_cols != n || k == 0 || k > n || n <= 800 || 10 * k >= n || max_steps <= k + 1)
    return extreme_eigs_sym(values, vectors, A, k, true);
  const double tol = 1e-12;
  arma::mat V(n, max_steps + 1);
  {
    Rng rng(20261127);  // a fixed start: results do not depend on any global RNG state
    V.col(0) = arma::normalise(arma::vectorise(rng.randn(n, 1)));
  }
  arma::vec alpha(max_steps), beta(max_steps);
  arma::vec w(n);
  for (arma::uword j = 0; j < max_steps; ++j) {
    sym_matvec(A, V.colptr(j), w.memptr());
    if (products) ++*products;
    const auto Vj = V.head_cols(j + 1);
    alpha(j) = arma::dot(V.col(j), w);
    // Full reorthogonalisation, two classical Gram-Schmidt passes: n (j + 1) flops each, nothing
    // beside the n^2 of the product, and the Ritz estimates below stay true residuals.
    w -= Vj * (Vj.t() * w);
    w -= Vj * (Vj.t() * w);
    beta(j) = arma::norm(w);
    if (j + 1 >= k) {
      // Ritz pairs of the tridiagonal T_j; |beta_j s_ji| is the residual |A u - theta u| of the
      // Ritz vector u = V s_i, ARPACK's (and newarp's) convergence test at the same tolerance.
      const arma::uword m = j + 1;
      arma::mat T(m, m, arma::fill::zeros);
      T.diag() = alpha.head(m);
      if (m > 1) {
        T.diag(1) = beta.head(m - 1);
        T.diag(-1) = beta.head(m - 1);
      }
      arma::vec theta;
      arma::mat S;
      if (!arma::eig_sym(theta, S, T)) break;
      bool done = true;
      for (arma::uword i = 0; i < k && done; ++i)
        done = std::abs(beta(j) * S(m - 1, m - 1 - i)) <= tol * std::abs(theta(m - 1 - i));
      if (done || !(beta(j) > 0)) {
        values = arma::flipud(theta.tail(k));
        vectors = Vj * arma::fliplr(S.tail_cols(k));
        return;
      }
    }
    V.col(j + 1) = w / beta(j);
  }
  extreme_eigs_sym(values, vectors, A, k, true);
}

bool smallest_eigs_spd(arma::vec& values, arma::mat& vectors, const arma::mat& A, arma::uword k) {
  if (!spd_iteration_pays(A, k)) return false;
  arma::mat R = A;
  return smallest_eigs_spd_in_place(values, vectors, R, k);
}

bool smallest_eigs_spd_in_place(arma::vec& values, arma::mat& vectors, arma::mat& A,
                                arma::uword k) {
  if (!spd_iteration_pays(A, k)) return false;
  const arma::uword n = A.n_rows;
  // LAPACK's upper Cholesky factor, as arma::chol computes it (the same dpotrf on the same
  // triangle); the triangular solves read that triangle only, so the lower one is never cleared.
  const arma::blas_int N = static_cast<arma::blas_int>(n);
  arma::blas_int info = 0;
  dpotrf_("U", &N, A.memptr(), &N, &info, 1);
  if (info != 0) return false;  // not numerically positive definite
  const CholInverseOp op(A);
  arma::vec inv;
  if (!lanczos<arma::newarp::EigsSelect::LARGEST_ALGE>(inv, vectors, op, k) || !(inv.min() > 0))
    return false;
  // The largest eigenvalues of A^-1 are the reciprocals of A's smallest, which they order.
  const arma::uvec order = arma::sort_index(inv, "descend");
  values = 1.0 / inv(order);
  vectors = vectors.cols(order);
  return true;
}

bool extreme_eigs_chol_reduced(arma::vec& values, arma::mat& vectors, const arma::mat& A,
                               const arma::mat& R, arma::uword k, bool largest) {
  const arma::uword n = A.n_rows;
  if (A.n_cols != n || R.n_rows != n || R.n_cols != n)
    throw Error("extreme_eigs_chol_reduced: A and R must be square and of equal size");
  if (k == 0 || k > n)
    throw MethodError("requested " + std::to_string(k) + " eigenvectors of a " + std::to_string(n) +
                      " x " + std::to_string(n) + " matrix; lower dims");
  if (n <= 800 || 10 * k >= n) return false;
  const CholReducedOp op(A, R);
  const bool ok = largest
                      ? lanczos<arma::newarp::EigsSelect::LARGEST_ALGE>(values, vectors, op, k)
                      : lanczos<arma::newarp::EigsSelect::SMALLEST_ALGE>(values, vectors, op, k);
  if (!ok) return false;
  const arma::uvec order = arma::sort_index(values, largest ? "descend" : "ascend");
  values = values(order);
  vectors = vectors.cols(order);
  return true;
}

void double_centred_eigs(arma::vec& values, arma::mat& vectors, const arma::mat& D2,
                         arma::uword k) {
  const arma::uword n = D2.n_rows;
  if (k == 0 || k >= n)
    throw MethodError("requested " + std::to_string(k) + " MDS coordinates of " +
                      std::to_string(n) + " points; lower dims");
  if (n > 800 && 10 * k < n) {
    const DoubleCentredOp op(D2);
    if (lanczos<arma::newarp::EigsSelect::LARGEST_ALGE>(values, vectors, op, k)) {
      const arma::uvec order = arma::sort_index(values, "descend");
      values = values(order);
      vectors = vectors.cols(order);
      return;
    }
  }
  arma::mat B = D2;
  double_centre(B);
  extreme_eigs_sym(values, vectors, arma::symmatu(B), k, true);
}

}  // namespace drbench
