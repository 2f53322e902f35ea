// The k-d tree path of the kNN evaluation against the blocked path: the same neighbours in the
// same order, ties included, so switching paths never changes a published number.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <utility>
#include <vector>

#include "framework/core/rng.hpp"
#include "framework/eval/knn.hpp"

using namespace drbench;

namespace {

bool same(const arma::umat& a, const arma::umat& b) {
  return a.n_rows == b.n_rows && a.n_cols == b.n_cols && arma::all(arma::vectorise(a == b));
}

}  // namespace

TEST_CASE("k-d tree kNN equals the blocked path on data full of ties", "[knn][kdtree]") {
  Rng rng(5);
  for (arma::uword d : {1u, 2u, 9u, 20u}) {
    // Small integer coordinates: many exactly equal distances, every one exact in double, and
    // duplicated points (distance 0) as embeddings of identical images produce.
    arma::mat train = arma::round(2.0 * rng.randu(d, 400));
    train.cols(300, 349) = train.cols(0, 49);
    const arma::mat test = arma::round(2.0 * rng.randu(d, 90));
    INFO("dim " << d);
    for (arma::uword k : {1u, 5u, 30u}) {
      CHECK(same(knn_indices_kdtree(train, test, k), knn_indices_blocked(train, test, k)));
      CHECK(same(knn_indices_kdtree(train, train, k, true),
                 knn_indices_blocked(train, train, k, true)));
    }
  }
}

TEST_CASE("k-d tree kNN equals the blocked path on continuous data", "[knn][kdtree]") {
  Rng rng(6);
  const arma::mat train = rng.randn(9, 2000), test = rng.randn(9, 700);
  CHECK(same(knn_indices_kdtree(train, test, 7), knn_indices_blocked(train, test, 7)));
  const arma::mat flat = arma::join_cols(rng.randn(2, 1500), 1e-9 * rng.randn(6, 1500));
  CHECK(same(knn_indices_kdtree(flat, flat, 3, true), knn_indices_blocked(flat, flat, 3, true)));
  // knn_indices takes the tree up to kKdTreeMaxDim dimensions and the blocked path above.
  CHECK(same(knn_indices(train, test, 4), knn_indices_kdtree(train, test, 4)));
  const arma::mat wide = rng.randn(kKdTreeMaxDim + 1, 300);
  CHECK(same(knn_indices(wide, wide, 2, true), knn_indices_blocked(wide, wide, 2, true)));
}

TEST_CASE("k-d tree kNN refuses what the blocked path refuses", "[knn][kdtree]") {
  const arma::mat a(3, 5, arma::fill::zeros), b(2, 5, arma::fill::zeros);
  CHECK_THROWS_WITH(knn_indices_kdtree(a, b, 1), Catch::Contains("dimensions"));
  CHECK_THROWS_WITH(knn_indices_kdtree(a, a, 5, true), Catch::Contains("k=5"));
  CHECK_THROWS_WITH(knn_indices_kdtree(a, a, 0), Catch::Contains("k=0"));
}

TEST_CASE("k-d tree, blocked path and a full sort agree on tie-heavy random data",
          "[knn][kdtree]") {
  // Enough points for a tree several levels deep (leaves hold 32), integer coordinates in a small
  // range so that most k-th distances are shared by many points, and a whole duplicated block.
  // The reference is an independent (partial) sort of all distances by (distance, index).
  Rng rng(17);
  auto full_sort = [](const arma::mat& train, const arma::mat& test, arma::uword k, bool loo) {
    arma::umat nn(k, test.n_cols);
    std::vector<std::pair<double, arma::uword>> d(train.n_cols);
    for (arma::uword j = 0; j < test.n_cols; ++j) {
      for (arma::uword i = 0; i < train.n_cols; ++i) {
        double dist = 0;
        for (arma::uword r = 0; r < train.n_rows; ++r)
          dist += (train(r, i) - test(r, j)) * (train(r, i) - test(r, j));
        d[i] = {loo && i == j ? arma::datum::inf : dist, i};
      }
      std::partial_sort(d.begin(), d.begin() + k, d.end());
      for (arma::uword r = 0; r < k; ++r) nn(r, j) = d[r].second;
    }
    return nn;
  };
  for (arma::uword dim : {2u, 5u, 9u, 14u}) {
    arma::mat train = arma::round(3.0 * rng.randu(dim, 1000)) - 1.0;
    train.cols(800, 949) = train.cols(0, 149);
    const arma::mat test = arma::round(3.0 * rng.randu(dim, 400)) - 1.0;
    const arma::umat ref = full_sort(train, test, 25, false);
    const arma::umat loo = full_sort(train, train, 25, true);
    for (arma::uword k : {1u, 6u, 25u}) {
      INFO("dim " << dim << " k " << k);
      const arma::umat r = ref.rows(0, k - 1), l = loo.rows(0, k - 1);
      CHECK(same(knn_indices_kdtree(train, test, k), r));
      CHECK(same(knn_indices_blocked(train, test, k), r));
      CHECK(same(knn_indices(train, test, k), r));
      CHECK(same(knn_indices_kdtree(train, train, k, true), l));
      CHECK(same(knn_indices(train, train, k, true), l));
    }
  }
}

TEST_CASE("knn_indices gives the same neighbours whichever path its probe picks", "[knn][kdtree]") {
  Rng rng(18);
  // Isotropic 16-D points make the tree scan nearly everything (the probe hands the rest to the
  // float pre-filter, or to the blocked path where the pre-filter's bound does not cover the
  // data); points whose spread decays fast by coordinate keep the tree.
  const arma::mat iso = rng.randn(16, 1600);
  arma::mat emb = iso, wild = iso;
  for (arma::uword r = 0; r < 16; ++r) emb.row(r) *= std::pow(0.02, double(r));
  // A training point beyond the pre-filter's 2^400 range. (In leave-one-out its own neighbours
  // would all tie at a rounded 1e250, where the blocked path's pre-selection by |a|^2 - 2a.b is
  // known to differ from the exact order, so that case is left out.)
  wild(3, 123) = 1e125;
  const std::pair<const arma::mat*, KnnPath> cases[] = {
      {&iso, KnnPath::prefilter}, {&emb, KnnPath::kdtree}, {&wild, KnnPath::blocked}};
  for (const auto& [X, expect] : cases) {
    INFO("expected path " << int(expect));
    const arma::mat train = X->cols(0, 899), test = X->cols(900, 1599);
    KnnPath path = expect == KnnPath::kdtree ? KnnPath::blocked : KnnPath::kdtree;
    CHECK(same(knn_indices(train, test, 5, false, &path), knn_indices_kdtree(train, test, 5)));
    CHECK(path == expect);
    if (X == &wild) continue;
    path = expect == KnnPath::kdtree ? KnnPath::blocked : KnnPath::kdtree;
    CHECK(same(knn_indices(*X, *X, 3, true, &path), knn_indices_blocked(*X, *X, 3, true)));
    CHECK(path == expect);
  }
}
