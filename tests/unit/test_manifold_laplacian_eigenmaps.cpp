#include <catch2/catch.hpp>

#include <string>

#include "framework/core/error.hpp"
#include "methods/manifold/laplacian_eigenmaps/laplacian_eigenmaps.hpp"
#include "tests/unit/manifold_helpers.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;

TEST_CASE("laplacian eigenmaps solves L y = lambda D y with Y D Y' = I",
          "[manifold][laplacian_eigenmaps]") {
  Rng rng(81);
  const auto [X, truth] = drbench::testing::swiss_roll(rng, 300);
  auto m = fit_method("laplacian_eigenmaps", {{"neighbours", std::int64_t(10)}}, X, 2);
  const auto& le = dynamic_cast<const LaplacianEigenmaps&>(*m);
  const arma::mat W(le.weights());
  const arma::mat D = arma::diagmat(arma::sum(W, 1));
  const arma::mat L = D - W;
  const arma::mat Y = m->embedding();
  CHECK(arma::abs(Y * D * Y.t() - arma::eye(2, 2)).max() < 1e-8);
  // Y D 1 = 0: orthogonal to the trivial constant solution.
  CHECK(arma::abs(Y * D * arma::ones(Y.n_cols)).max() < 1e-8);
  // Reference: the generalized problem by QZ on dense matrices, smallest non-trivial eigenvalues.
  arma::cx_vec ev;
  arma::cx_mat V;
  REQUIRE(arma::eig_pair(ev, V, L, D));
  const arma::vec lam = arma::sort(arma::real(ev));
  for (arma::uword j = 0; j < 2; ++j) {
    const arma::vec y = Y.row(j).t();
    const double rq = arma::as_scalar(y.t() * L * y);  // y' D y = 1
    CHECK(rq == Approx(lam(j + 1)).epsilon(1e-6));
    CHECK(arma::norm(L * y - rq * D * y) < 1e-6);
  }
  CHECK(arma::abs(m->transform(X) - Y).max() < 1e-9);
  // New points near the roll land near their nearest training point's embedding.
  const auto [Xn, tn] = drbench::testing::swiss_roll(rng, 20);
  const arma::mat Yn = m->transform(Xn);
  CHECK(Yn.is_finite());
}

TEST_CASE("laplacian eigenmaps refuses a disconnected graph, naming neighbours",
          "[manifold][laplacian_eigenmaps]") {
  arma::mat X(1, 20);
  for (arma::uword i = 0; i < 20; ++i) X(0, i) = (i < 10 ? 0.0 : 50.0) + i;
  try {
    fit_method("laplacian_eigenmaps", {{"neighbours", std::int64_t(2)}}, X, 1);
    FAIL("expected a MethodError");
  } catch (const MethodError& e) {
    CHECK(std::string(e.what()).find("neighbours=2") != std::string::npos);
  }
}

TEST_CASE("laplacian eigenmaps: the sparse Lanczos path equals the dense one",
          "[manifold][laplacian_eigenmaps]") {
  Rng rng(82);
  const auto [X, truth] = drbench::testing::swiss_roll(rng, 500);
  LaplacianEigenmapsSetting s;  // the defaults: heat weights at relative width 1
  s.neighbours = 10;
  LaplacianEigenmaps dense(s), sparse(s, 0);  // dense limit 0: always the sparse path
  CHECK(drbench::testing::fit_dense_and_sparse(dense, sparse, X, 3, "Lanczos"));
  CHECK(drbench::testing::max_diff_up_to_sign(sparse.embedding(), dense.embedding()) <
        1e-7 * arma::abs(dense.embedding()).max());
  // The sparse path keeps the generalized problem's normalisation Y D Y' = I and Y D 1 = 0.
  const arma::mat W(sparse.weights());
  const arma::mat D = arma::diagmat(arma::sum(W, 1));
  const arma::mat Y = sparse.embedding();
  CHECK(arma::abs(Y * D * Y.t() - arma::eye(3, 3)).max() < 1e-8);
  CHECK(arma::abs(Y * D * arma::ones(Y.n_cols)).max() < 1e-8);
  CHECK(arma::abs(sparse.transform(X) - Y).max() < 1e-9);
}
