#include <catch2/catch.hpp>

#include "framework/core/rng.hpp"
#include "framework/linalg/dense_eigs.hpp"
#include "framework/linalg/eigen.hpp"

using namespace drbench;

TEST_CASE("smallest_eigs_spd: shift-invert Lanczos agrees with the full decomposition",
          "[linalg]") {
  Rng rng(61);
  const arma::uword n = 900;  // above the size where the shift-invert path is taken
  arma::mat Q, R;
  arma::qr(Q, R, arma::mat(rng.randn(n, n)));
  // An LLE-like spectrum: a few tiny, close eigenvalues under a wide bulk.
  arma::vec ev = arma::linspace(1.0, 50.0, n);
  ev.head(4) = arma::vec{1e-6, 2e-6, 2.5e-6, 1e-5};
  const arma::mat A = Q * arma::diagmat(ev) * Q.t();
  arma::mat Abad = arma::symmatu(A);
  Abad.diag(-1) += 5.0;  // only the upper triangle may be read
  arma::vec val;
  arma::mat vec;
  REQUIRE(smallest_eigs_spd(val, vec, Abad, 3));
  for (arma::uword j = 0; j < 3; ++j) {
    CHECK(val(j) == Approx(ev(j)).epsilon(1e-6));
    CHECK(std::abs(arma::dot(vec.col(j), Q.col(j))) == Approx(1.0).epsilon(1e-8));
  }
  // Not positive definite, or too small a matrix: the caller must use a dense solver.
  arma::mat Aneg = A;
  Aneg.diag() -= 1.0;
  CHECK_FALSE(smallest_eigs_spd(val, vec, Aneg, 3));
  CHECK_FALSE(smallest_eigs_spd(val, vec, arma::mat(A.submat(0, 0, 99, 99)), 3));
}

TEST_CASE("extreme_eigs_chol_reduced solves the pencil (A, R'R) like the dense solver",
          "[linalg]") {
  Rng rng(62);
  const arma::uword n = 900;
  const arma::mat G = rng.randn(n, 60);
  const arma::mat A = G * G.t();
  const arma::mat H = rng.randn(n, n);
  const arma::mat B = H * H.t() / n + arma::eye(n, n);
  arma::mat R;
  REQUIRE(arma::chol(R, B));
  arma::vec val;
  arma::mat U;
  REQUIRE(extreme_eigs_chol_reduced(val, U, A, R, 3, true));
  const arma::mat V = arma::solve(arma::trimatu(R), U);
  const EigenPairs ref = gen_sym_eigs(A, B, 3, Spectrum::Largest, 0.0, "reg", "B");
  for (arma::uword j = 0; j < 3; ++j) {
    CHECK(val(j) == Approx(ref.values(j)).epsilon(1e-9));
    const double c = arma::dot(V.col(j), B * ref.vectors.col(j));  // both B-orthonormal
    CHECK(std::abs(c) == Approx(1.0).epsilon(1e-8));
  }
  CHECK_FALSE(
      extreme_eigs_chol_reduced(val, U, A.submat(0, 0, 99, 99), R.submat(0, 0, 99, 99), 3, true));
}

TEST_CASE("smallest_eigs_spd_in_place: arma::chol's factor in A's upper triangle, same pairs",
          "[linalg]") {
  Rng rng(63);
  const arma::uword n = 900;
  const arma::mat G = rng.randn(n, n);
  const arma::mat A = G * G.t() / n + 0.1 * arma::eye(n, n);
  arma::vec v1, v2;
  arma::mat U1, U2;
  REQUIRE(smallest_eigs_spd(v1, U1, A, 3));
  arma::mat B = A;
  REQUIRE(smallest_eigs_spd_in_place(v2, U2, B, 3));
  arma::mat R;
  REQUIRE(arma::chol(R, A));
  CHECK(arma::approx_equal(arma::trimatu(B), R, "absdiff", 0.0));
  CHECK(arma::approx_equal(arma::trimatl(B, -1), arma::trimatl(A, -1), "absdiff", 0.0));
  CHECK(arma::approx_equal(v1, v2, "absdiff", 0.0));
  CHECK(arma::approx_equal(U1, U2, "absdiff", 0.0));
}
