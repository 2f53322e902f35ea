#include "framework/linalg/eigen.hpp"

#include <sstream>
#include <vector>

#include "framework/core/error.hpp"

extern "C" {
// LAPACK (from OpenBLAS, gfortran calling convention with hidden string lengths).
void dsyevr_(const char* jobz, const char* range, const char* uplo, const arma::blas_int* n,
             double* a, const arma::blas_int* lda, const double* vl, const double* vu,
             const arma::blas_int* il, const arma::blas_int* iu, const double* abstol,
             arma::blas_int* m, double* w, double* z, const arma::blas_int* ldz,
             arma::blas_int* isuppz, double* work, const arma::blas_int* lwork,
             arma::blas_int* iwork, const arma::blas_int* liwork, arma::blas_int* info, std::size_t,
             std::size_t, std::size_t);
}

namespace drbench {

EigenPairs sym_eigs(const arma::mat& A, arma::uword k, Spectrum end) {
  if (!A.is_square()) throw Error("sym_eigs: matrix is not square");
  const arma::uword n = A.n_rows;
  if (k == 0 || k > n)
    throw Error("sym_eigs: asked for " + std::to_string(k) + " eigenpairs of a " +
                std::to_string(n) + " x " + std::to_string(n) + " matrix");
  if (!A.is_finite()) throw MethodError("eigenproblem matrix contains NaN or Inf");

  arma::mat a = A;  // dsyevr destroys its input
  const arma::blas_int N = static_cast<arma::blas_int>(n);
  // Index range in LAPACK's ascending order (1-based).
  const arma::blas_int il = end == Spectrum::Smallest ? 1 : N - static_cast<arma::blas_int>(k) + 1;
  const arma::blas_int iu = end == Spectrum::Smallest ? static_cast<arma::blas_int>(k) : N;
  const double vl = 0, vu = 0, abstol = 0;
  arma::blas_int m = 0, info = 0;
  arma::vec w(n);
  arma::mat z(n, k);
  std::vector<arma::blas_int> isuppz(2 * k);
  double work_q = 0;
  arma::blas_int iwork_q = 0, lwork = -1, liwork = -1;
  dsyevr_("V", "I", "U", &N, a.memptr(), &N, &vl, &vu, &il, &iu, &abstol, &m, w.memptr(),
          z.memptr(), &N, isuppz.data(), &work_q, &lwork, &iwork_q, &liwork, &info, 1, 1, 1);
  lwork = static_cast<arma::blas_int>(work_q);
  liwork = iwork_q;
  std::vector<double> work(static_cast<std::size_t>(lwork));
  std::vector<arma::blas_int> iwork(static_cast<std::size_t>(liwork));
  dsyevr_("V", "I", "U", &N, a.memptr(), &N, &vl, &vu, &il, &iu, &abstol, &m, w.memptr(),
          z.memptr(), &N, isuppz.data(), work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1,
          1);
  if (info != 0 || m != static_cast<arma::blas_int>(k))
    throw MethodError("symmetric eigensolver (LAPACK dsyevr) failed, info=" + std::to_string(info));

  EigenPairs out;
  out.values = w.head(k);
  out.vectors = std::move(z);
  if (end == Spectrum::Largest) {
    out.values = arma::reverse(out.values);
    out.vectors = arma::fliplr(out.vectors);
  }
  return out;
}

arma::mat ridge_regularised(const arma::mat& B, double ridge) {
  arma::mat R = B;
  if (ridge == 0.0) return R;
  const double scale = arma::trace(B) / static_cast<double>(B.n_rows);
  R.diag() += ridge * (scale > 0 ? scale : 1.0);
  return R;
}

EigenPairs gen_sym_eigs(const arma::mat& A, const arma::mat& B, arma::uword k, Spectrum end,
                        double ridge, const std::string& ridge_param, const std::string& what) {
  if (A.n_rows != B.n_rows || !A.is_square() || !B.is_square())
    throw Error("gen_sym_eigs: A and B must be square and of equal size");
  arma::mat Br = ridge_regularised(arma::symmatu(B), ridge);
  arma::mat R;
  if (!arma::chol(R, Br)) {
    std::ostringstream os;
    os << "the " << what << " is singular or not positive definite (" << B.n_rows << " x "
       << B.n_cols << ", rank " << arma::rank(B) << ")";
    os << "; increase the regulariser '" << ridge_param << "' (now " << ridge
       << ", relative to trace/dim), e.g. to " << (ridge > 0 ? ridge * 100 : 1e-6);
    throw MethodError(os.str());
  }
  // Br = R^T R, so A v = l Br v  <=>  (R^-T A R^-1) u = l u with v = R^-1 u.
  const arma::mat Rt = R.t();
  arma::mat C = arma::solve(arma::trimatl(Rt), arma::symmatu(A));
  C = arma::solve(arma::trimatl(Rt), C.t());
  C = 0.5 * (C + C.t());
  EigenPairs e = sym_eigs(C, k, end);
  e.vectors = arma::solve(arma::trimatu(R), e.vectors);
  return e;
}

void fix_signs(arma::mat& V) {
  for (arma::uword j = 0; j < V.n_cols; ++j) {
    const arma::uword i = arma::index_max(arma::abs(V.col(j)));
    if (V(i, j) < 0) V.col(j) *= -1.0;
  }
}

}  // namespace drbench
