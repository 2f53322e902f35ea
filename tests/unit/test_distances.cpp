#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

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

namespace {
// The formulations the one-pass versions replaced, kept here as their references: the fused
// loops must give the same bits, so committed results that rest on them do not move.
arma::mat broadcast_sq_distances(const arma::mat& A, const arma::mat& B) {
  const arma::rowvec a2 = arma::sum(arma::square(A), 0);
  const arma::rowvec b2 = arma::sum(arma::square(B), 0);
  arma::mat D = -2.0 * (A.t() * B);
  D.each_col() += a2.t();
  D.each_row() += b2;
  return arma::clamp(D, 0.0, arma::datum::inf);
}

arma::umat partial_sort_knn(const arma::mat& X, arma::uword k) {
  arma::mat D = broadcast_sq_distances(X, X);
  D.diag().zeros();
  D = arma::symmatu(D);
  const arma::uword n = X.n_cols;
  arma::umat nn(k, n);
  std::vector<arma::uword> idx(n);
  for (arma::uword i = 0; i < n; ++i) {
    std::iota(idx.begin(), idx.end(), 0);
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](arma::uword a, arma::uword b) {
      if (a == i) return false;
      if (b == i) return true;
      return D(i, a) < D(i, b) || (D(i, a) == D(i, b) && a < b);
    });
    for (arma::uword j = 0; j < k; ++j) nn(j, i) = idx[j];
  }
  return nn;
}
}  // namespace

TEST_CASE("sq_distances and knn_graph_indices give the bits of the broadcast formulation",
          "[linalg]") {
  arma::arma_rng::set_seed(11);
  // Rounded coordinates: many exactly tied distances, and duplicate points (distance 0).
  arma::mat X = arma::round(3.0 * arma::randn(6, 300));
  X.cols(10, 19) = X.cols(0, 9);
  const arma::mat B = arma::randn(6, 37);
  CHECK(arma::approx_equal(sq_distances(X, B), broadcast_sq_distances(X, B), "absdiff", 0.0));
  arma::mat S = broadcast_sq_distances(X, X);
  S.diag().zeros();
  CHECK(arma::approx_equal(sq_distances(X), arma::symmatu(S), "absdiff", 0.0));
  for (arma::uword k : {1u, 7u, 25u})
    CHECK(arma::all(arma::vectorise(knn_graph_indices(X, k) == partial_sort_knn(X, k))));
}
