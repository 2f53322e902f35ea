#include "methods/manifold/lle/lle.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/dense_eigs.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/eigen.hpp"

namespace drbench {

arma::vec reconstruction_weights(const arma::vec& x, const arma::mat& N, double reg) {
  const arma::mat Z = N.each_col() - x;
  arma::mat C = Z.t() * Z;
  const double tr = arma::trace(C);
  C.diag() += reg * (tr > 0 ? tr : 1.0);
  arma::vec w;
  if (!arma::solve(w, C, arma::ones(N.n_cols), arma::solve_opts::no_approx))
    throw MethodError("lle: local Gram matrix is singular; increase reg");
  return w / arma::accu(w);
}

void LLE::fit(const FitInput& in) {
  X_ = in.X;
  const arma::uword n = in.X.n_cols;
  const arma::uword k = static_cast<arma::uword>(params_.integer("neighbours"));
  const double reg = params_.real("reg");
  if (in.dim + 1 >= n)
    throw MethodError("lle: dims=" + std::to_string(in.dim) + " needs more than " +
                      std::to_string(in.dim + 1) + " training points");
  const arma::umat nn = knn_graph_indices(in.X, k);
  arma::umat loc(2, n * (k + 1));
  arma::vec val(n * (k + 1));
  for (arma::uword i = 0; i < n; ++i) {
    const arma::vec w = reconstruction_weights(in.X.col(i), in.X.cols(nn.col(i)), reg);
    for (arma::uword j = 0; j < k; ++j) {
      loc(0, i * (k + 1) + j) = i;
      loc(1, i * (k + 1) + j) = nn(j, i);
      val(i * (k + 1) + j) = -w(j);
    }
    loc(0, i * (k + 1) + k) = i;
    loc(1, i * (k + 1) + k) = i;
    val(i * (k + 1) + k) = 1.0;
  }
  const arma::sp_mat IW(loc, val, n, n);  // I - W
  arma::mat M(IW.t() * IW);
  // The constant vector is M's null vector (rows of W sum to 1). Lifting it above the spectrum
  // leaves the wanted eigenvectors exactly orthogonal to it, i.e. Y 1 = 0.
  M += 2.0 * arma::trace(M) / n;
  // The lifted M is positive definite when the graph is connected: shift-invert Lanczos on its
  // Cholesky factor then beats the dense tridiagonal reduction by far at a few thousand points.
  EigenPairs e;
  if (!smallest_eigs_spd(e.values, e.vectors, M, in.dim))
    e = sym_eigs(M, in.dim, Spectrum::Smallest);
  if (in.dim > 1 && e.values(in.dim - 1) < 1e-12 * arma::trace(M) / n)
    throw MethodError(
        "lle: the neighbour graph falls apart into components (several zero "
        "eigenvalues); increase neighbours");
  arma::mat V = e.vectors;
  fix_signs(V);
  Y_ = std::sqrt(static_cast<double>(n)) * V.t();
}

arma::mat LLE::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != X_.n_rows)
    throw MethodError("lle transform: new points have " + std::to_string(Xnew.n_rows) +
                      " features, the training data " + std::to_string(X_.n_rows));
  const arma::uword k = static_cast<arma::uword>(params_.integer("neighbours"));
  const arma::uword n = X_.n_cols;
  const arma::mat E = sq_distances(X_, Xnew);
  arma::mat Y(Y_.n_rows, Xnew.n_cols);
  std::vector<arma::uword> idx(n);
  for (arma::uword q = 0; q < Xnew.n_cols; ++q) {
    std::iota(idx.begin(), idx.end(), 0);
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](arma::uword a, arma::uword b) {
      return E(a, q) < E(b, q) || (E(a, q) == E(b, q) && a < b);
    });
    // Exact recheck: the BLAS-3 squared distances of identical points are only ~1e-15, not 0.
    if (arma::accu(arma::square(X_.col(idx[0]) - Xnew.col(q))) == 0.0) {
      Y.col(q) = Y_.col(idx[0]);
      continue;
    }
    const arma::uvec nb(std::vector<arma::uword>(idx.begin(), idx.begin() + k));
    Y.col(q) = Y_.cols(nb) * reconstruction_weights(Xnew.col(q), X_.cols(nb), params_.real("reg"));
  }
  return Y;
}

namespace {

MethodInfo lle_info() {
  MethodInfo m;
  m.name = "lle";
  m.family = "manifold";
  m.summary = "locally linear embedding; out-of-sample by reconstruction weights";
  m.reference = "Roweis & Saul 2000, Science 290; Saul & Roweis 2003, JMLR 4, eq. 2-4 and 6.1";
  m.params = {
      keywords::neighbours(10, 1, 500, "the reconstruction of every point (TPSLVM: 2..20)"),
      ParamSpec::real("reg", 1e-3, 0.0, std::nullopt,
                      "ridge on the local Gram matrix, times its trace (needed when k > d)", true),
  };
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 1 ? s.n - 2 : 0; };
  m.cost = [](const DataShape& s, const ParamSet&, arma::uword) {
    return double(s.n) * s.n * (s.d + 5.0 * s.n);
  };
  m.transform_reproduces_embedding = true;
  m.make = [](const ParamSet& p) { return std::make_unique<LLE>(p); };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(lle_info)
}  // namespace drbench
