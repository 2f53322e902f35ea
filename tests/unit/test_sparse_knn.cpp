// The sparse kNN graph (framework/neighbours/sparse_knn.hpp) against the dense exact graph of the
// same points and against a brute-force ranking: the same neighbours in the same order and the
// same distance bits, with duplicated points, equidistant points, empty points and integer data
// full of exact ties.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <utility>
#include <vector>

#include "framework/affinity/perplexity.hpp"
#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/neighbours/sparse_knn.hpp"

using namespace drbench;

namespace {

// d x n points with about `density` of the entries stored, some of them planted: three copies of
// point 10, points 20 and 21 empty, points 31..35 each one unit from point 30 along a feature
// point 30 does not store (five neighbours at exactly the same distance).
arma::mat planted(arma::uword d, arma::uword n, double density, bool integers, Rng& rng) {
  arma::mat X = rng.randu(d, n);
  if (integers) X = arma::round(3.0 * X) + 1.0;
  X %= arma::conv_to<arma::mat>::from(rng.randu(d, n) < density);
  X.col(11) = X.col(10);
  X.col(12) = X.col(10);
  X.col(20).zeros();
  X.col(21).zeros();
  arma::uword planted_ties = 0;
  for (arma::uword r = 0; r < d && planted_ties < 5; ++r)
    if (X(r, 30) == 0.0) {
      X.col(31 + planted_ties) = X.col(30);
      X(r, 31 + planted_ties) = 1.0;
      ++planted_ties;
    }
  return X;
}

// Each column's k nearest other columns by the squared distance summed in feature order, ties to
// the lower index: the rule every exact path ranks by, from scratch.
NeighbourGraph brute_force(const arma::mat& X, const arma::mat& Q, arma::uword k, bool self) {
  NeighbourGraph g;
  g.index.set_size(k, Q.n_cols);
  g.dist.set_size(k, Q.n_cols);
  for (arma::uword i = 0; i < Q.n_cols; ++i) {
    std::vector<std::pair<double, arma::uword>> c;
    for (arma::uword j = 0; j < X.n_cols; ++j) {
      if (self && j == i) continue;
      double s = 0;
      for (arma::uword r = 0; r < X.n_rows; ++r) s += (X(r, j) - Q(r, i)) * (X(r, j) - Q(r, i));
      c.emplace_back(s, j);
    }
    std::sort(c.begin(), c.end());
    for (arma::uword j = 0; j < k; ++j) {
      g.index(j, i) = c[j].second;
      g.dist(j, i) = std::sqrt(c[j].first);
    }
  }
  return g;
}

void require_same(const NeighbourGraph& a, const NeighbourGraph& b) {
  REQUIRE(a.index.n_rows == b.index.n_rows);
  REQUIRE(a.index.n_cols == b.index.n_cols);
  for (arma::uword i = 0; i < a.index.n_cols; ++i)
    for (arma::uword j = 0; j < a.index.n_rows; ++j) {
      INFO("point " << i << ", neighbour " << j);
      REQUIRE(a.index(j, i) == b.index(j, i));
      // The distances are the same sum in the same order: equal bits, not just 1e-12.
      REQUIRE(a.dist(j, i) == b.dist(j, i));
    }
}

// Columns scaled to unit length, the norms summed in feature order (sparse_knn's rule).
arma::mat unit_in_order(const arma::mat& X) {
  arma::mat U(X);
  for (arma::uword c = 0; c < X.n_cols; ++c) {
    double s = 0;
    for (arma::uword r = 0; r < X.n_rows; ++r) s += X(r, c) * X(r, c);
    if (s > 0) U.col(c) /= std::sqrt(s);
  }
  return U;
}

}  // namespace

TEST_CASE("sparse kNN graph equals the dense exact graph, ties and empty points included",
          "[sparse_knn]") {
  Rng rng(17);
  // 15-D: the dense search takes its k-d tree; 48-D its float pre-filter (where the CPU has it);
  // 300-D its blocked BLAS path.
  for (arma::uword d : {15u, 48u, 300u}) {
    const arma::mat X = planted(d, 240, d < 20 ? 0.3 : 0.05, false, rng);
    const arma::sp_mat Xs(X);
    GraphOptions exact;
    exact.kind = GraphKind::exact;
    for (arma::uword k : {1u, 5u, 12u}) {
      INFO("d " << d << ", k " << k);
      const NeighbourGraph sparse = sparse_neighbour_graph(Xs, k);
      require_same(sparse, neighbour_graph(X, k, exact));
      require_same(sparse, brute_force(X, X, k, true));
      // Point 30's five planted neighbours at distance 1 come in index order.
      if (k == 12 && d >= 48) {
        std::vector<arma::uword> at_one;
        for (arma::uword j = 0; j < k; ++j)
          if (sparse.dist(j, 30) == 1.0) at_one.push_back(sparse.index(j, 30));
        CHECK(at_one == std::vector<arma::uword>{31, 32, 33, 34, 35});
      }
      // An empty point's nearest: another empty point (21, or a random one of lower index).
      CHECK(sparse.dist(0, 20) == 0.0);
    }
  }
}

TEST_CASE("sparse kNN graph on integer counts (exact ties everywhere) equals brute force",
          "[sparse_knn]") {
  Rng rng(3);
  const arma::mat X = planted(200, 300, 0.04, true, rng);
  const arma::sp_mat Xs(X);
  require_same(sparse_neighbour_graph(Xs, 10), brute_force(X, X, 10, true));
}

TEST_CASE("sparse kNN: threads, new points, cosine", "[sparse_knn]") {
  Rng rng(9);
  const arma::mat X = planted(120, 200, 0.08, false, rng);
  const arma::sp_mat Xs(X);
  SparseKnnOptions three;
  three.threads = 3;
  require_same(sparse_neighbour_graph(Xs, 7, three), sparse_neighbour_graph(Xs, 7));

  // New points, one of them equal to a reference point (found at distance 0).
  arma::mat Q = planted(120, 40, 0.08, false, rng);
  Q.col(5) = X.col(77);
  const SparseNeighbourIndex index(Xs);
  const NeighbourGraph g = index.query(arma::sp_mat(Q), 6);
  GraphOptions exact;
  exact.kind = GraphKind::exact;
  require_same(g, NeighbourIndex(X, 6, exact).query(Q, 6));
  require_same(g, brute_force(X, Q, 6, false));
  CHECK(g.index(0, 5) == 77);
  CHECK(g.dist(0, 5) == 0.0);

  // Cosine: Euclidean between the unit-length columns (the empty ones stay zero).
  SparseKnnOptions cosine;
  cosine.metric = SparseMetric::cosine;
  const arma::mat U = unit_in_order(X);
  CHECK(arma::approx_equal(arma::mat(unit_columns(Xs)), U, "absdiff", 0.0));
  const NeighbourGraph cos_graph = sparse_neighbour_graph(Xs, 8, cosine);
  require_same(cos_graph, brute_force(U, U, 8, true));
  // The evaluation's dense cosine (unit_columns, norms summed by Armadillo): the same neighbours
  // and distances to rounding, on points without the exact ties (empty points are equidistant
  // from every other) that rounding may order either way.
  arma::mat Xfull = rng.randu(60, 150) % arma::conv_to<arma::mat>::from(rng.randu(60, 150) < 0.3);
  Xfull.row(0).fill(0.5);
  const arma::mat Ueval = unit_columns(Xfull);
  CHECK(arma::approx_equal(Ueval, unit_in_order(Xfull), "absdiff", 1e-15));
  const NeighbourGraph sparse_cos = sparse_neighbour_graph(arma::sp_mat(Xfull), 8, cosine);
  const NeighbourGraph dense_cos = brute_force(Ueval, Ueval, 8, true);
  CHECK(arma::all(arma::vectorise(sparse_cos.index == dense_cos.index)));
  CHECK(arma::approx_equal(sparse_cos.dist, dense_cos.dist, "absdiff", 1e-12));
  // Scaling a point does not move it under cosine.
  arma::sp_mat scaled = Xs;
  scaled.col(40) *= 7.5;
  const NeighbourGraph a = sparse_neighbour_graph(Xs, 8, cosine);
  const NeighbourGraph b = sparse_neighbour_graph(scaled, 8, cosine);
  for (arma::uword j = 0; j < 8; ++j) {
    CHECK(a.index(j, 40) == b.index(j, 40));
    CHECK(std::abs(a.dist(j, 40) - b.dist(j, 40)) < 1e-12);
  }
  require_same(SparseNeighbourIndex(Xs, cosine).query(arma::sp_mat(Q), 4),
               brute_force(U, unit_in_order(Q), 4, false));
}

TEST_CASE("sparse kNN refuses a k the points cannot give and foreign features", "[sparse_knn]") {
  Rng rng(1);
  const arma::sp_mat Xs(planted(60, 40, 0.2, false, rng));
  CHECK_THROWS_AS(sparse_neighbour_graph(Xs, 40), MethodError);
  CHECK_THROWS_AS(sparse_neighbour_graph(Xs, 0), MethodError);
  const SparseNeighbourIndex index(Xs);
  CHECK_THROWS_AS(index.query(arma::sp_mat(5, 3), 2), MethodError);
  CHECK_THROWS_AS(index.query(arma::sp_mat(60, 3), 41), MethodError);
}

TEST_CASE("t-SNE affinities of sparse points equal the dense points' bit for bit",
          "[sparse_knn][affinity]") {
  Rng rng(23);
  const arma::mat X = planted(150, 180, 0.06, false, rng);
  const arma::sp_mat Xs(X);
  GraphOptions exact;
  exact.kind = GraphKind::exact;
  const NeighbourGraph g = neighbour_graph(X, 20, exact);
  const arma::sp_mat dense = graph_joint_affinities(X, g, 6.0, 1);
  const arma::sp_mat sparse = graph_joint_affinities(Xs, sparse_neighbour_graph(Xs, 20), 6.0, 2);
  REQUIRE(dense.n_nonzero == sparse.n_nonzero);
  CHECK(arma::approx_equal(arma::mat(dense), arma::mat(sparse), "absdiff", 0.0));
}
