#include <catch2/catch.hpp>

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

TEST_CASE("knn_graph_indices orders by distance and breaks ties by index", "[linalg]") {
  // Points on a line at 0, 1, 2, 3: point 1 has neighbours 0 and 2 at the same distance.
  const arma::mat X = {{0.0, 1.0, 2.0, 3.0}};
  const arma::umat nn = knn_graph_indices(X, 2);
  CHECK(nn(0, 1) == 0);
  CHECK(nn(1, 1) == 2);
  CHECK(nn(0, 0) == 1);
  CHECK(nn(1, 0) == 2);
  CHECK_THROWS_WITH(knn_graph_indices(X, 4), Catch::Contains("k=4"));
}

TEST_CASE("knn_graph is symmetric and keeps edges between duplicate points", "[linalg]") {
  // Points 0 and 1 coincide: their edge has length 0 and must still be in the graph.
  const arma::mat X = {{0.0, 0.0, 1.0, 5.0}, {0.0, 0.0, 0.0, 0.0}};
  const arma::sp_mat G = knn_graph(X, 1);
  const arma::mat Gd(G);
  CHECK(arma::approx_equal(Gd, Gd.t(), "absdiff", 0.0));
  CHECK(G(0, 1) > 0.0);
  CHECK(G(0, 1) < 1e-300);
  CHECK(G(3, 2) == Approx(4.0));
  CHECK(G(0, 3) == 0.0);
}
