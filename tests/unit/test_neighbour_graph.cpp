#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/support/parallel.hpp"
#include "neighbour_helpers.hpp"

using namespace drbench;

namespace {

arma::mat cloud(arma::uword d, arma::uword n, arma::uword seed) {
  arma::arma_rng::set_seed(seed);
  return arma::randn<arma::mat>(d, n);
}

GraphOptions opts(GraphKind k, unsigned threads = 1) {
  GraphOptions o;
  o.kind = k;
  o.threads = threads;
  o.seed = 7;
  return o;
}

}  // namespace

TEST_CASE("exact neighbour graph: brute-force order, ties to the lower index, never self",
          "[neighbour_graph]") {
  arma::mat X = cloud(5, 300, 1);
  X.col(17) = X.col(3);  // a duplicate: distance 0 to a lower index
  const NeighbourGraph g = neighbour_graph(X, 6, opts(GraphKind::exact));
  REQUIRE_FALSE(g.approximate);
  const arma::mat D = sq_distances(X);
  for (arma::uword i = 0; i < X.n_cols; ++i) {
    arma::vec d = D.col(i);
    d(i) = arma::datum::inf;
    const arma::uvec order = arma::stable_sort_index(d);
    for (arma::uword j = 0; j < 6; ++j) {
      CHECK(g.index(j, i) != i);
      CHECK(g.dist(j, i) == Approx(std::sqrt(d(order(j)))).margin(1e-12));
    }
  }
  CHECK(g.index(0, 17) == 3);
  CHECK(g.index(0, 3) == 17);
  CHECK(g.dist(0, 17) == 0.0);
}

TEST_CASE("the one search equals a brute-force full sort on exact ties and duplicates",
          "[neighbour_graph]") {
  // Small integer coordinates: every squared distance is exact, so ties are real ties and only
  // the index decides among them; duplicates sit at distance 0. In 3-D the k-d tree answers,
  // in 30-D the float pre-filter or blocked BLAS (knn_search.hpp): every path is held to the
  // same reference, as LE, LLE, Isomap and the LPP family's graphs are built through it.
  for (arma::uword d : {1u, 3u, 30u}) {
    arma::arma_rng::set_seed(40 + d);
    arma::mat X = arma::round(2.0 * arma::randn(d, 400));
    X.cols(50, 59) = X.cols(0, 9);
    const arma::mat Q = arma::join_rows(arma::round(2.0 * arma::randn(d, 60)), X.cols(0, 4));
    for (arma::uword k : {1u, 7u, 25u}) {
      INFO("d = " << d << ", k = " << k);
      const NeighbourGraph g = neighbour_graph(X, k, opts(GraphKind::exact));
      CHECK(arma::all(arma::vectorise(g.index == testing::brute_knn(X, X, k, true))));
      const NeighbourGraph q = NeighbourIndex(X, k, opts(GraphKind::exact)).query(Q, k);
      CHECK(arma::all(arma::vectorise(q.index == testing::brute_knn(X, Q, k, false))));
      // A query equal to a training point finds the lowest-indexed copy at distance 0.
      CHECK(q.dist(0, 60) == 0.0);
      CHECK(q.index(0, 60) == 0);
    }
  }
  // On a line at 0, 1, 2, 3 point 1 has 0 and 2 at the same distance: the lower index first.
  const NeighbourGraph line =
      neighbour_graph(arma::mat{{0.0, 1.0, 2.0, 3.0}}, 2, opts(GraphKind::exact));
  CHECK(line.index(0, 1) == 0);
  CHECK(line.index(1, 1) == 2);
  CHECK_THROWS_WITH(neighbour_graph(arma::mat{{0.0, 1.0, 2.0, 3.0}}, 4, opts(GraphKind::exact)),
                    Catch::Contains("1..3"));
}

TEST_CASE("neighbour graphs do not depend on the thread count", "[neighbour_graph]") {
  const arma::mat X = cloud(30, 1500, 2);
  for (GraphKind k : {GraphKind::exact, GraphKind::approximate}) {
    const NeighbourGraph a = neighbour_graph(X, 10, opts(k, 1));
    for (unsigned t : {2u, 3u}) {
      const NeighbourGraph b = neighbour_graph(X, 10, opts(k, t));
      CHECK(arma::all(arma::vectorise(a.index == b.index)));
      CHECK(arma::approx_equal(a.dist, b.dist, "absdiff", 0.0));
    }
  }
}

TEST_CASE("approximate graph: the batched parallel HNSW build, same graph for any thread count",
          "[neighbour_graph]") {
  // 8,000 points: the build's batches grow to 124 points, each searched in parallel.
  const arma::mat X = cloud(20, 8000, 12);
  const NeighbourGraph a = neighbour_graph(X, 10, opts(GraphKind::approximate, 1));
  const NeighbourGraph b = neighbour_graph(X, 10, opts(GraphKind::approximate, 2));
  CHECK(arma::all(arma::vectorise(a.index == b.index)));
  CHECK(arma::approx_equal(a.dist, b.dist, "absdiff", 0.0));
  // 20-D Gaussian noise is the hard case for a graph index.
  CHECK(graph_recall(a, neighbour_graph(X, 10, opts(GraphKind::exact, 2))) > 0.9);
}

TEST_CASE("approximate graph: high recall, exact distances of the edges it finds",
          "[neighbour_graph]") {
  const arma::mat X = cloud(20, 3000, 3);
  const NeighbourGraph ex = neighbour_graph(X, 15, opts(GraphKind::exact));
  const NeighbourGraph ap = neighbour_graph(X, 15, opts(GraphKind::approximate));
  REQUIRE(ap.approximate);
  CHECK(graph_recall(ap, ex) > 0.95);
  CHECK(graph_recall(ex, ex) == 1.0);
  for (arma::uword i = 0; i < X.n_cols; i += 97)
    for (arma::uword j = 0; j < 15; ++j) {
      CHECK(ap.dist(j, i) == Approx(arma::norm(X.col(i) - X.col(ap.index(j, i)))).margin(1e-12));
      if (j > 0) CHECK(ap.dist(j - 1, i) <= ap.dist(j, i));
    }
}

TEST_CASE("queries of new points against the index", "[neighbour_graph]") {
  const arma::mat X = cloud(8, 500, 4), Q = cloud(8, 40, 5);
  for (GraphKind k : {GraphKind::exact, GraphKind::approximate}) {
    NeighbourIndex idx(X, 5, opts(k, 2));
    const NeighbourGraph g = idx.query(Q, 5);
    const arma::mat D = sq_distances(X, Q);
    std::size_t hit = 0;
    for (arma::uword q = 0; q < Q.n_cols; ++q) {
      const arma::uvec order = arma::stable_sort_index(arma::vec(D.col(q)));
      for (arma::uword j = 0; j < 5; ++j) hit += arma::any(g.index.col(q) == order(j));
    }
    CHECK(double(hit) / (5.0 * Q.n_cols) > 0.95);
    // A query equal to a reference point finds it first, at distance 0.
    const NeighbourGraph s = idx.query(X.cols(10, 12), 1);
    CHECK(s.index(0, 0) == 10);
    CHECK(s.dist(0, 2) == 0.0);
  }
}

TEST_CASE("neighbour graph: bad neighbour counts and settings are refused", "[neighbour_graph]") {
  const arma::mat X = cloud(3, 10, 6);
  CHECK_THROWS_AS(neighbour_graph(X, 10, opts(GraphKind::exact)), MethodError);
  CHECK_THROWS_AS(neighbour_graph(X, 0, opts(GraphKind::approximate)), MethodError);
  CHECK_THROWS_WITH(parse_graph_kind("hnsw"), Catch::Contains("exact, approximate, auto"));
  CHECK(use_approximate(250000, 50, 15, GraphKind::automatic));
  CHECK_FALSE(use_approximate(60000, 50, 15, GraphKind::automatic));
  CHECK_FALSE(use_approximate(60000, 10, 15, GraphKind::automatic));
  CHECK_FALSE(use_approximate(5000, 50, 15, GraphKind::automatic));
}

TEST_CASE("symmetric adjacency: each kNN edge both ways, duplicates kept", "[neighbour_graph]") {
  arma::mat X = cloud(4, 60, 8);
  X.col(5) = X.col(2);
  const NeighbourGraph g = neighbour_graph(X, 3, opts(GraphKind::exact));
  const arma::sp_mat A = symmetric_adjacency(g);
  CHECK(arma::approx_equal(arma::mat(A), arma::mat(A.t()), "absdiff", 0.0));
  for (arma::uword i = 0; i < 60; ++i)
    for (arma::uword j = 0; j < 3; ++j) CHECK(A(i, g.index(j, i)) > 0);
  CHECK(A(2, 5) > 0);
}

TEST_CASE("parallel_blocks: fixed blocks, exceptions reach the caller", "[parallel]") {
  std::vector<int> owner(100, -1);
  parallel_blocks(100, 4, [&](std::size_t s, std::size_t e, std::size_t b) {
    for (std::size_t i = s; i < e; ++i) owner[i] = int(b);
  });
  CHECK(owner[0] == 0);
  CHECK(owner[24] == 0);
  CHECK(owner[25] == 1);
  CHECK(owner[99] == 3);
  CHECK_THROWS_WITH(parallel_for(10, 3,
                                 [](std::size_t i) {
                                   if (i == 7) throw Error("seven");
                                 }),
                    "seven");
}
