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

TEST_CASE("gen_eig_sym solves A v = lambda B v with B-normalised vectors", "[kernel][linalg]") {
  Rng rng(42);
  const arma::mat G = rng.randn(6, 6), H = rng.randn(6, 10);
  const arma::mat A = G + G.t(), B = H * H.t();
  arma::vec val;
  arma::mat V;
  gen_eig_sym(val, V, A, B, 3, false, "reg");
  for (arma::uword j = 0; j < 3; ++j) {
    CHECK(arma::norm(A * V.col(j) - val(j) * B * V.col(j)) < 1e-8);
    CHECK(arma::as_scalar(V.col(j).t() * B * V.col(j)) == Approx(1.0));
  }
  CHECK(val(0) <= val(1));
  CHECK_THROWS_AS(gen_eig_sym(val, V, A, -B, 2, true, "reg"), MethodError);
}
