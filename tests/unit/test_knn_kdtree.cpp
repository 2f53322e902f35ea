// The k-d tree path of the kNN evaluation against the blocked path: the same neighbours in the
// same order, ties included, so switching paths never changes a published number.
#include <catch2/catch.hpp>

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
