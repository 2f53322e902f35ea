// The sparse eigensolvers of the big-data spectral paths (framework/linalg/sparse_eigs.hpp,
// sparse_lu.hpp) against LAPACK's dense decomposition of the same matrices.
#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/linalg/sparse_eigs.hpp"
#include "framework/linalg/sparse_lu.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::subspace_cosines;

namespace {

// The Laplacian D - W of a random connected sparse graph on n nodes (a ring plus random chords),
// positive semi-definite with the constant vector as its only null vector.
arma::sp_mat ring_laplacian(Rng& rng, arma::uword n) {
  arma::sp_mat W(n, n);
  for (arma::uword i = 0; i < n; ++i) {
    const arma::uword j = (i + 1) % n;
    W(i, j) = W(j, i) = 0.5 + rng.uniform();
    const arma::uword c = static_cast<arma::uword>(rng.uniform() * n) % n;
    if (c != i) W(i, c) = W(c, i) = 0.1 * rng.uniform() + 1e-3;
  }
  arma::sp_mat L = -W;
  L.diag() = arma::vec(arma::sum(W, 1));
  return L;
}

}  // namespace

TEST_CASE("sparse LU solves a shifted sparse system", "[sparse_eigs]") {
  Rng rng(5);
  arma::sp_mat A = ring_laplacian(rng, 300);
  A.diag() += 0.01;
  A.sync();
  std::vector<int> cp(A.col_ptrs, A.col_ptrs + A.n_cols + 1),
      ri(A.row_indices, A.row_indices + A.n_nonzero);
  std::vector<double> v(A.values, A.values + A.n_nonzero);
  const SparseLu lu(300, cp, ri, v);
  const arma::mat B = rng.randn(300, 3);
  arma::mat X = B;
  lu.solve(X.memptr(), 3);
  CHECK(arma::abs(A * X - B).max() < 1e-9 * arma::abs(B).max());
  CHECK(lu.factor_nonzeros() >= A.n_nonzero / 2);
  // Singular: the all-ones 2 x 2 block leaves an exactly zero pivot.
  arma::sp_mat Z = arma::speye(4, 4);
  Z(0, 1) = Z(1, 0) = 1.0;
  Z.sync();
  auto factor = [](const arma::sp_mat& M) {
    return SparseLu(int(M.n_cols), std::vector<int>(M.col_ptrs, M.col_ptrs + M.n_cols + 1),
                    std::vector<int>(M.row_indices, M.row_indices + M.n_nonzero),
                    std::vector<double>(M.values, M.values + M.n_nonzero));
  };
  CHECK_THROWS_AS(factor(Z), MethodError);
  // A structurally missing diagonal entry is refused before SuperLU sees it.
  arma::sp_mat N(3, 3);
  N(0, 1) = N(1, 0) = N(2, 2) = 1.0;
  N.sync();
  CHECK_THROWS_AS(factor(N), Error);
}

TEST_CASE("Lanczos finds the largest eigenpairs, with and without deflation", "[sparse_eigs]") {
  Rng rng(6);
  const arma::uword n = 400, k = 4;
  const arma::sp_mat L = ring_laplacian(rng, n);
  const arma::mat Ld(L);
  arma::vec ev;
  arma::mat V;
  REQUIRE(arma::eig_sym(ev, V, Ld));
  const SymOperator op = [&L](const arma::vec& x, arma::vec& y) { y = L * x; };
  const LanczosResult r = lanczos_largest(op, n, k, arma::mat(), LanczosOptions{});
  REQUIRE(r.converged);
  for (arma::uword i = 0; i < k; ++i) CHECK(r.values(i) == Approx(ev(n - 1 - i)).epsilon(1e-9));
  CHECK(subspace_cosines(r.vectors.t(), V.tail_cols(k).t()).min() > 1 - 1e-8);
  CHECK(arma::abs(r.vectors.t() * r.vectors - arma::eye(k, k)).max() < 1e-10);
  // Deflating the top two eigenvectors gives the next k.
  const LanczosResult d = lanczos_largest(op, n, k, V.tail_cols(2), LanczosOptions{});
  REQUIRE(d.converged);
  for (arma::uword i = 0; i < k; ++i) CHECK(d.values(i) == Approx(ev(n - 3 - i)).epsilon(1e-9));
  CHECK(arma::abs(V.tail_cols(2).t() * d.vectors).max() < 1e-10);
  // Same input, same bits.
  const LanczosResult again = lanczos_largest(op, n, k, arma::mat(), LanczosOptions{});
  CHECK(arma::approx_equal(again.vectors, r.vectors, "absdiff", 0.0));
  CHECK_THROWS_AS(lanczos_largest(op, n, n, arma::mat(), LanczosOptions{}), Error);
}

TEST_CASE("shift-invert gives the smallest eigenpairs next to a deflated null vector",
          "[sparse_eigs]") {
  Rng rng(7);
  const arma::uword n = 500, k = 3;
  const arma::sp_mat L = ring_laplacian(rng, n);
  arma::vec ev;
  arma::mat V;
  REQUIRE(arma::eig_sym(ev, V, arma::mat(L)));
  const arma::mat one(n, 1, arma::fill::value(1.0 / std::sqrt(double(n))));
  arma::vec lam;
  arma::mat U;
  ShiftInvertInfo info;
  smallest_eigs_shift_invert(lam, U, L, k, one, "test", &info);
  // ev(0) is the null vector's 0; the wanted ones follow.
  for (arma::uword i = 0; i < k; ++i) CHECK(lam(i) == Approx(ev(i + 1)).epsilon(1e-8));
  CHECK(subspace_cosines(U.t(), V.cols(1, k).t()).min() > 1 - 1e-8);
  CHECK(arma::abs(one.t() * U).max() < 1e-12);
  CHECK(info.factor_nonzeros > 0);
  CHECK(info.solves > 0);
}
