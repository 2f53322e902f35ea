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
