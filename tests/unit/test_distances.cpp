#include <catch2/catch.hpp>

#include "framework/linalg/column_distance.hpp"
#include "framework/linalg/distances.hpp"

using namespace drbench;

TEST_CASE("sq_distances matches the definition and is exactly symmetric", "[linalg]") {
  arma::arma_rng::set_seed(3);
  const arma::mat A = arma::randn(4, 7), B = arma::randn(4, 5);
  const arma::mat D = sq_distances(A, B);
  for (arma::uword i = 0; i < A.n_cols; ++i)
    for (arma::uword j = 0; j < B.n_cols; ++j)
      CHECK(D(i, j) == Approx(arma::accu(arma::square(A.col(i) - B.col(j)))).margin(1e-12));
  const arma::mat S = sq_distances(A);
  CHECK(arma::approx_equal(S, S.t(), "absdiff", 0.0));
  CHECK(arma::all(S.diag() == 0.0));
}

namespace {
// The formulation the one-pass versions replaced, kept here as their reference: the fused loops
// must give the same bits, so committed results that rest on them do not move.
arma::mat broadcast_sq_distances(const arma::mat& A, const arma::mat& B) {
  const arma::rowvec a2 = arma::sum(arma::square(A), 0);
  const arma::rowvec b2 = arma::sum(arma::square(B), 0);
  arma::mat D = -2.0 * (A.t() * B);
  D.each_col() += a2.t();
  D.each_row() += b2;
  return arma::clamp(D, 0.0, arma::datum::inf);
}

}  // namespace

TEST_CASE("sq_distances gives the bits of the broadcast formulation", "[linalg]") {
  arma::arma_rng::set_seed(11);
  // Rounded coordinates: many exactly tied distances, and duplicate points (distance 0).
  arma::mat X = arma::round(3.0 * arma::randn(6, 300));
  X.cols(10, 19) = X.cols(0, 9);
  const arma::mat B = arma::randn(6, 37);
  CHECK(arma::approx_equal(sq_distances(X, B), broadcast_sq_distances(X, B), "absdiff", 0.0));
  arma::mat S = broadcast_sq_distances(X, X);
  S.diag().zeros();
  CHECK(arma::approx_equal(sq_distances(X), arma::symmatu(S), "absdiff", 0.0));
}

TEST_CASE("column_sq_distance is exact for near points far from the origin", "[linalg]") {
  // |a|^2 + |b|^2 - 2 a.b cancels 1e16-sized terms here; the coordinate-wise sum does not.
  const arma::mat X = {{1e8, 1e8 + 1.0, -3.0}, {1e8, 1e8 + 2.0, 4.0}};
  CHECK(column_sq_distance(X, 0, 1) == 5.0);
  CHECK(column_sq_distance(X, 1, 0) == 5.0);
  CHECK(column_sq_distance(X, 2, 2) == 0.0);
  CHECK(column_sq_distance(X, 2, 0) == (1e8 + 3.0) * (1e8 + 3.0) + (1e8 - 4.0) * (1e8 - 4.0));
}
