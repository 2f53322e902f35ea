#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>

#include "framework/core/rng.hpp"
#include "framework/eval/knn.hpp"
#include "framework/linalg/distances.hpp"

using namespace drbench;

namespace {

// Brute force reference: full sort by (directly summed distance, index).
arma::umat brute_indices(const arma::mat& train, const arma::mat& test, arma::uword k, bool loo) {
  arma::umat nn(k, test.n_cols);
  for (arma::uword j = 0; j < test.n_cols; ++j) {
    std::vector<std::pair<double, arma::uword>> d;
    for (arma::uword i = 0; i < train.n_cols; ++i)
      if (!(loo && i == j)) d.push_back({arma::accu(arma::square(train.col(i) - test.col(j))), i});
    std::sort(d.begin(), d.end());
    for (arma::uword r = 0; r < k; ++r) nn(r, j) = d[r].second;
  }
  return nn;
}

arma::uword brute_vote(const arma::umat& nn, arma::uword j, const arma::uvec& y, arma::uword k) {
  std::map<arma::uword, int> count;
  for (arma::uword r = 0; r < k; ++r) ++count[y(nn(r, j))];
  int top = 0;
  for (auto& [c, n] : count) top = std::max(top, n);
  for (arma::uword r = 0; r < k; ++r)
    if (count[y(nn(r, j))] == top) return y(nn(r, j));
  return 0;
}

}  // namespace

TEST_CASE("kNN indices match brute force, including many exact ties", "[knn]") {
  Rng rng(11);
  // Integer grid coordinates: lots of exactly equal distances, all exact in double.
  arma::mat train = arma::round(3.0 * rng.randu(3, 300));
  arma::mat test = arma::round(3.0 * rng.randu(3, 70));
  const arma::umat nn = knn_indices(train, test, 12);
  CHECK(arma::all(arma::vectorise(nn == brute_indices(train, test, 12, false))));
  const arma::umat loo = knn_indices(train, train, 7, true);
  CHECK(arma::all(arma::vectorise(loo == brute_indices(train, train, 7, true))));
  // Larger k takes the other selection path.
  const arma::umat big = knn_indices(train, test, 80);
  CHECK(arma::all(arma::vectorise(big == brute_indices(train, test, 80, false))));

  // Continuous data, more test points than one block.
  const arma::mat a = rng.randn(5, 3000), b = rng.randn(5, 1200);
  CHECK(arma::all(arma::vectorise(knn_indices(a, b, 3) == brute_indices(a, b, 3, false))));
}

TEST_CASE("kNN vote: ties in the vote go to the class of the nearest tied neighbour", "[knn]") {
  const arma::uvec y = {0, 1, 2, 1, 0};
  // Neighbours nearest first, one column per query.
  const arma::umat nn = {{2, 0, 1}, {1, 1, 0}, {0, 2, 3}, {3, 3, 4}};
  CHECK(arma::all(knn_vote(nn, y, 1) == arma::uvec{2, 0, 1}));
  // k=2: column 0 has classes {2, 1}: tie -> 2 (nearest); column 2 {1, 0} -> 1.
  CHECK(arma::all(knn_vote(nn, y, 2) == arma::uvec{2, 0, 1}));
  // k=3: column 0 {2,1,0} -> 2; column 1 {0,1,2} -> 0; column 2 {1,0,1} -> 1.
  CHECK(arma::all(knn_vote(nn, y, 3) == arma::uvec{2, 0, 1}));
  // k=4: column 0 {2,1,0,1} -> 1 (majority); column 1 {0,1,2,1} -> 1.
  CHECK(arma::all(knn_vote(nn, y, 4) == arma::uvec{1, 1, 1}));
  CHECK_THROWS(knn_vote(nn, y, 5));

  Rng rng(3);
  const arma::mat train = arma::round(2.0 * rng.randu(2, 200));
  const arma::mat test = arma::round(2.0 * rng.randu(2, 50));
  arma::uvec yt(200);
  for (auto& v : yt) v = static_cast<arma::uword>(rng.uniform() * 4);
  const arma::umat ref = brute_indices(train, test, 9, false);
  for (arma::uword k : {1, 2, 4, 9}) {
    const arma::uvec pred = knn_vote(knn_indices(train, test, 9), yt, k);
    for (arma::uword j = 0; j < test.n_cols; ++j) CHECK(pred(j) == brute_vote(ref, j, yt, k));
  }
}

TEST_CASE("cosine kNN through unit_columns matches a brute-force cosine ranking", "[knn]") {
  Rng rng(17);
  arma::mat train = rng.randn(5, 60), test = rng.randn(5, 25);
  train.col(3) *= 40.0;  // lengths must not matter
  train.col(7).zeros();  // a zero vector stays finite and equidistant from everything
  const arma::umat nn = knn_indices(unit_columns(train), unit_columns(test), 6);
  REQUIRE(unit_columns(train).is_finite());
  for (arma::uword j = 0; j < test.n_cols; ++j) {
    std::vector<std::pair<double, arma::uword>> d;
    for (arma::uword i = 0; i < train.n_cols; ++i) {
      const double nt = arma::norm(train.col(i)), ns = arma::norm(test.col(j));
      const double c = nt > 0 ? arma::dot(train.col(i), test.col(j)) / (nt * ns) : 0.5;
      d.push_back({1.0 - c, i});
    }
    std::sort(d.begin(), d.end());
    for (arma::uword r = 0; r < 6; ++r) CHECK(nn(r, j) == d[r].second);
  }
  // Scaling a point changes its Euclidean neighbours but not its cosine ones.
  arma::mat scaled = test;
  scaled.each_row() %= arma::exp(rng.randn(1, test.n_cols));
  CHECK(
      arma::all(arma::vectorise(knn_indices(unit_columns(train), unit_columns(scaled), 6) == nn)));
}

TEST_CASE("kNN errors and leave-one-out errors", "[knn]") {
  // Two well separated clusters plus one mislabelled point near cluster 0.
  arma::mat X = {{0, 0.1, 0.2, 0.3, 10, 10.1, 10.2, 0.15}};
  const arma::uvec y = {0, 0, 0, 0, 1, 1, 1, 1};
  const auto loo = knn_loo_errors(X, y, {1, 3});
  // k=1: point 7 (label 1) has nearest 1 or 2 (label 0) -> wrong; points 1, 2 have nearest
  // 7 at distance 0.05 -> wrong. k=3: only point 7 is wrong.
  CHECK(loo[0] == Approx(3.0 / 8));
  CHECK(loo[1] == Approx(1.0 / 8));

  const arma::mat test = {{0.05, 10.05, 5.5}};
  // 5.5 is nearer 10 (4.5) than 0.3 (5.2), so labelling it 0 makes it the one error for k=1; for
  // k=7 its neighbours hold four of class 1 (10, 10.1, 10.2 and the stray 0.15) and three of 0.
  const auto err = knn_errors(X, y, test, arma::uvec{0, 1, 0}, {1, 7});
  CHECK(err[0] == Approx(1.0 / 3));
  CHECK(err[1] == Approx(1.0 / 3));
  CHECK(knn_errors(X, y, test, arma::uvec{0, 1, 1}, {1, 7}) == std::vector<double>{0.0, 0.0});
  CHECK_THROWS(knn_errors(X, y, test, arma::uvec{0, 1, 1}, {9}));
  CHECK_THROWS(knn_loo_errors(X, y, {8}));
  CHECK_THROWS(knn_errors(X, y, arma::mat(1, 0), arma::uvec(), {1}));
}

TEST_CASE("kNN errors under the cosine metric vote by angle, under euclidean by distance",
          "[knn]") {
  // a = (1, 0) and d = (20, 0) share a direction, as do b = (10, 1) and c = (2, 0.2); by distance
  // a and c are each other's nearest and d's nearest is b.
  const arma::mat X = {{1, 10, 2, 20}, {0, 1, 0.2, 0}};
  const arma::uvec y = {0, 1, 1, 0};
  // Leave-one-out 1-NN: by distance a, c and d are wrong; by angle every point finds its twin.
  CHECK(knn_loo_errors(X, y, {1}, "euclidean") == std::vector<double>{0.75});
  CHECK(knn_loo_errors(X, y, {1}, "euclidean") == knn_loo_errors(X, y, {1}));
  CHECK(knn_loo_errors(X, y, {1}, "cosine") == std::vector<double>{0.0});
  // A test point on c's ray, nearer a: class 1 by angle, class 0 by distance.
  const arma::mat train = X.cols(0, 1), test = arma::vec{3, 0.3};
  const arma::uvec ytrain = {0, 1}, ytest = {1};
  CHECK(knn_errors(train, ytrain, test, ytest, {1}, "euclidean") == std::vector<double>{1.0});
  CHECK(knn_errors(train, ytrain, test, ytest, {1}, "cosine") == std::vector<double>{0.0});
  CHECK_THROWS_WITH(knn_errors(train, ytrain, test, ytest, {1}, "manhattan"),
                    Catch::Contains("evaluation.knn_metric: euclidean or cosine"));
  CHECK_THROWS(knn_loo_errors(X, y, {1}, "Cosine"));
}
