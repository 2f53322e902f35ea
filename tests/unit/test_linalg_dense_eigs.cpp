#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/linalg/dense_eigs.hpp"

using namespace drbench;

TEST_CASE("extreme_eigs_sym: Lanczos path agrees with the full decomposition", "[kernel][linalg]") {
  Rng rng(41);
  const arma::uword n = 900;  // above the size where the Lanczos solver takes over
  const arma::mat G = rng.randn(n, 40);
  const arma::mat A = G * G.t() - 0.5 * arma::eye(n, n);
  arma::vec ev;
  arma::mat V;
  arma::eig_sym(ev, V, A);
  for (bool largest : {true, false}) {
    arma::vec val;
    arma::mat vec;
    extreme_eigs_sym(val, vec, A, 4, largest);
    for (arma::uword j = 0; j < 4; ++j) {
      const arma::uword ref = largest ? n - 1 - j : j;
      CHECK(val(j) == Approx(ev(ref)).epsilon(1e-9));
      if (largest) CHECK(std::abs(arma::dot(vec.col(j), V.col(ref))) == Approx(1.0).epsilon(1e-8));
    }
  }
  arma::vec val;
  arma::mat vec;
  CHECK_THROWS_AS(extreme_eigs_sym(val, vec, A, n + 1, true), MethodError);
}

TEST_CASE("largest_eigs_sym: early-stopping Lanczos agrees with the full decomposition",
          "[kernel][linalg]") {
  Rng rng(43);
  const arma::uword n = 1000;
  // A low-rank-plus-shift matrix (slow decay, as the test above) and an RBF Gram matrix (fast
  // decay, KPCA's case): the leading pairs to the 1e-12 residual test's accuracy, largest first.
  const arma::mat G = rng.randn(n, 40);
  const arma::mat X = rng.randn(5, n);
  const arma::rowvec sq = arma::sum(arma::square(X), 0);
  arma::mat D2 = -2.0 * X.t() * X;
  D2.each_col() += sq.t();
  D2.each_row() += sq;
  for (const arma::mat& A :
       {arma::mat(G * G.t() - 0.5 * arma::eye(n, n)), arma::mat(arma::exp(-D2 / 10.0))}) {
    arma::vec ev;
    arma::mat V;
    arma::eig_sym(ev, V, A);
    for (arma::uword k : {1u, 2u, 9u}) {
      arma::vec val;
      arma::mat vec;
      arma::uword products = 0;
      // Only the upper triangle is read: garbage below it changes nothing.
      arma::mat Au = arma::trimatu(A) + 1e3 * arma::trimatl(arma::ones(n, n), -1);
      largest_eigs_sym(val, vec, Au, k, &products);
      REQUIRE(val.n_elem == k);
      CHECK(products < 60);  // converged in its own basis, no fallback
      for (arma::uword j = 0; j < k; ++j) {
        CHECK(val(j) == Approx(ev(n - 1 - j)).epsilon(1e-10));
        CHECK(arma::norm(A * vec.col(j) - val(j) * vec.col(j)) <= 1e-11 * std::abs(val(j)));
        CHECK(std::abs(arma::dot(vec.col(j), V.col(n - 1 - j))) == Approx(1.0).epsilon(1e-8));
      }
    }
  }
  // A request beyond n still throws (through the fallback).
  arma::vec val;
  arma::mat vec;
  CHECK_THROWS_AS(largest_eigs_sym(val, vec, G * G.t(), n + 1), MethodError);
}
