#include <catch2/catch.hpp>

#include "framework/linalg/distances.hpp"
#include "methods/manifold/lle/lle.hpp"
#include "tests/unit/manifold_helpers.hpp"
#include "tests/unit/neighbour_helpers.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::subspace_cosines;

// Above 800 points lle takes its shift-invert Lanczos path; the reference here is the full
// eigendecomposition of M = (I - W)'(I - W) built from the same reconstruction weights.
TEST_CASE("lle on 900 points: the Lanczos path spans M's bottom non-constant eigenvectors",
          "[manifold][lle]") {
  Rng rng(72);
  const auto [X, truth] = drbench::testing::swiss_roll(rng, 900);
  const arma::uword k = 10, n = X.n_cols;
  auto m = fit_method("lle", {{"neighbours", std::int64_t(k)}}, X, 2);
  const arma::mat Y = m->embedding();
  CHECK(arma::abs(Y * Y.t() / double(n) - arma::eye(2, 2)).max() < 1e-8);
  CHECK(arma::abs(arma::sum(Y, 1)).max() < 1e-8 * n);

  const arma::umat nn = testing::brute_knn(X, X, k, true);
  arma::mat IW = arma::eye(n, n);
  for (arma::uword i = 0; i < n; ++i) {
    const arma::vec w = reconstruction_weights(X.col(i), X.cols(nn.col(i)), 1e-3);
    for (arma::uword j = 0; j < k; ++j) IW(i, nn(j, i)) -= w(j);
  }
  arma::vec ev;
  arma::mat V;
  REQUIRE(arma::eig_sym(ev, V, IW.t() * IW));
  // Column 0 is the constant null vector; the embedding spans columns 1 and 2.
  CHECK(ev(0) < 1e-10);
  CHECK(subspace_cosines(Y, V.cols(1, 2).t()).min() > 1 - 1e-8);
}

TEST_CASE("lle: the sparse shift-invert path equals the dense one", "[manifold][lle]") {
  Rng rng(73);
  const auto [X, truth] = drbench::testing::swiss_roll(rng, 600);
  LleSetting s;  // the default ridge 1e-3
  s.neighbours = 10;
  LLE dense(s), sparse(s, 0);  // dense limit 0: always the sparse path
  CHECK(drbench::testing::fit_dense_and_sparse(dense, sparse, X, 2, "shift-invert Lanczos"));
  const arma::mat Y = sparse.embedding();
  const double n = double(X.n_cols);
  CHECK(subspace_cosines(Y, dense.embedding()).min() > 1 - 1e-8);
  CHECK(drbench::testing::max_diff_up_to_sign(Y, dense.embedding()) < 1e-5);
  CHECK(arma::abs(Y * Y.t() / n - arma::eye(2, 2)).max() < 1e-8);
  CHECK(arma::abs(arma::sum(Y, 1)).max() < 1e-8 * n);
  CHECK(arma::abs(sparse.transform(X) - Y).max() == 0.0);
}
