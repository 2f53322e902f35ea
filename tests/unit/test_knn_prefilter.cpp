// The float32 pre-filter of the kNN evaluation: exact neighbours, ties included, on every vector
// kernel, also where float32 alone ranks wrongly (large offsets, near ties below its precision).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "framework/core/rng.hpp"
#include "framework/eval/knn.hpp"
#include "framework/neighbours/knn_prefilter.hpp"

using namespace drbench;

namespace {

bool same(const arma::umat& a, const arma::umat& b) {
  return a.n_rows == b.n_rows && a.n_cols == b.n_cols && arma::all(arma::vectorise(a == b));
}

// Independent reference: every distance summed in coordinate order in double, sorted by
// (distance, index).
template <class Real>
arma::umat full_sort(const arma::Mat<Real>& train, const arma::Mat<Real>& test, arma::uword k,
                     bool loo) {
  arma::umat nn(k, test.n_cols);
  std::vector<std::pair<Real, arma::uword>> d;
  for (arma::uword j = 0; j < test.n_cols; ++j) {
    d.clear();
    for (arma::uword i = 0; i < train.n_cols; ++i) {
      if (loo && i == j) continue;
      Real dist = 0;
      for (arma::uword r = 0; r < train.n_rows; ++r)
        dist += (train(r, i) - test(r, j)) * (train(r, i) - test(r, j));
      d.push_back({dist, i});
    }
    std::sort(d.begin(), d.end());
    for (arma::uword r = 0; r < k; ++r) nn(r, j) = d[r].second;
  }
  return nn;
}

std::vector<PrefilterIsa> kernels() {
  std::vector<PrefilterIsa> out;
  for (PrefilterIsa isa : {PrefilterIsa::avx512, PrefilterIsa::avx2, PrefilterIsa::portable})
    if (prefilter_isa_available(isa)) out.push_back(isa);
  return out;
}

arma::umat prefilter(const arma::mat& train, const arma::mat& test, arma::uword k, bool loo,
                     PrefilterIsa isa) {
  REQUIRE(knn_prefilter_covers(train, test));
  arma::umat nn(k, test.n_cols);
  knn_prefilter_into(train, test, k, loo, arma::uvec(), nn, isa);
  return nn;
}

// Clusters of points on spheres whose radii differ by 1e-9 relative, far below float32's 6e-8, the
// index order opposite to the distance order (so ranking ties by index picks the wrong ones), all
// shifted by a large common offset. Queries sit at the centres.
void near_tie_data(Rng& rng, arma::uword dim, double offset, arma::mat& train, arma::mat& test) {
  const arma::uword clusters = 6, per = 40;
  train.set_size(dim, clusters * per);
  test.set_size(dim, clusters * 3);
  for (arma::uword c = 0; c < clusters; ++c) {
    const arma::vec centre = offset + 2.0 * rng.randu(dim, 1);
    for (arma::uword i = 0; i < per; ++i) {
      arma::vec dir = rng.randn(dim, 1);
      dir /= arma::norm(dir);
      train.col(c * per + i) = centre + (0.5 + double(per - i) * 1e-9) * dir;
    }
    for (arma::uword t = 0; t < 3; ++t) test.col(c * 3 + t) = centre + 1e-13 * double(t);
  }
}

}  // namespace

TEST_CASE("kNN pre-filter equals a full sort on data full of ties, on every kernel",
          "[knn][prefilter]") {
  // Small integer coordinates: most k-th distances are shared by many points (so the exact
  // re-ranking decides by index), and a duplicated block gives distance-0 ties.
  Rng rng(21);
  for (arma::uword dim : std::vector<arma::uword>{2, 5, 9, 14, 20, 40, kPrefilterMaxDim}) {
    arma::mat train = arma::round(3.0 * rng.randu(dim, 700)) - 1.0;
    train.cols(600, 699) = train.cols(0, 99);
    const arma::mat test = arma::round(3.0 * rng.randu(dim, 150)) - 1.0;
    const arma::umat ref = full_sort(train, test, 25, false);
    const arma::umat loo = full_sort(train, train, 25, true);
    for (PrefilterIsa isa : kernels()) {
      for (arma::uword k : {1u, 6u, 25u}) {
        INFO("dim " << dim << " k " << k << " kernel " << int(isa));
        CHECK(same(prefilter(train, test, k, false, isa), ref.rows(0, k - 1)));
        CHECK(same(prefilter(train, train, k, true, isa), loo.rows(0, k - 1)));
      }
    }
    INFO("dim " << dim);
    CHECK(same(knn_indices_prefilter(train, test, 6), ref.rows(0, 5)));
    CHECK(same(knn_indices(train, train, 6, true), loo.rows(0, 5)));
  }
}

TEST_CASE("kNN pre-filter is exact where float32 ranks wrongly", "[knn][prefilter]") {
  Rng rng(22);
  for (double offset : {1e4, 1e6}) {
    for (arma::uword dim : {3u, 9u, 20u}) {
      INFO("offset " << offset << " dim " << dim);
      arma::mat train, test;
      near_tie_data(rng, dim, offset, train, test);
      const arma::mat all = arma::join_rows(train, test);
      const arma::umat ref = full_sort(train, test, 25, false);
      const arma::umat loo = full_sort(all, all, 25, true);
      // float32 alone gets them wrong: on the raw coordinates, and even centred on the mean (the
      // radii still differ below its precision), so the margin is what makes the filter exact.
      CHECK_FALSE(same(full_sort(arma::fmat(arma::conv_to<arma::fmat>::from(train)),
                                 arma::fmat(arma::conv_to<arma::fmat>::from(test)), 6, false),
                       ref.rows(0, 5)));
      const arma::vec mu = arma::mean(train, 1);
      const arma::fmat ctrain = arma::conv_to<arma::fmat>::from(train.each_col() - mu);
      const arma::fmat ctest = arma::conv_to<arma::fmat>::from(test.each_col() - mu);
      CHECK_FALSE(same(full_sort(ctrain, ctest, 6, false), ref.rows(0, 5)));
      for (PrefilterIsa isa : kernels()) {
        for (arma::uword k : {1u, 6u, 25u}) {
          INFO("k " << k << " kernel " << int(isa));
          CHECK(same(prefilter(train, test, k, false, isa), ref.rows(0, k - 1)));
          CHECK(same(prefilter(all, all, k, true, isa), loo.rows(0, k - 1)));
        }
      }
      CHECK(same(knn_indices(train, test, 6), ref.rows(0, 5)));
    }
  }
}

TEST_CASE("kNN pre-filter leaves data outside its bound to the other paths", "[knn][prefilter]") {
  Rng rng(23);
  const arma::mat X = arma::round(3.0 * rng.randu(4, 300));
  CHECK(knn_prefilter_covers(X, X));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {nan, inf, -inf, 0x1p401}) {
    arma::mat Y = X;
    Y(2, 17) = bad;
    INFO("value " << bad);
    CHECK_FALSE(knn_prefilter_covers(Y, X));
    CHECK_FALSE(knn_prefilter_covers(X, Y));
  }
  // All points at one spot: every distance is 0 and the index decides, as on the other paths.
  const arma::mat flat(3, 50, arma::fill::value(7.25));
  CHECK_FALSE(knn_prefilter_covers(flat, flat));
  CHECK(same(knn_indices_prefilter(flat, flat, 4, true), knn_indices_blocked(flat, flat, 4, true)));
  // Coordinates so large that double distances overflow: the blocked path's answer.
  const arma::mat huge = 1e300 * rng.randn(3, 80);
  CHECK(same(knn_indices_prefilter(huge, huge, 3, true), knn_indices_blocked(huge, huge, 3, true)));
  CHECK(same(knn_indices(huge, huge, 3, true), knn_indices_kdtree(huge, huge, 3, true)));
}

TEST_CASE("kNN pre-filter on continuous data, sorted training sets and subsets of queries",
          "[knn][prefilter]") {
  Rng rng(24);
  arma::mat train = rng.randn(9, 1500);
  const arma::mat test = rng.randn(9, 333);  // not a multiple of any kernel's query group
  const arma::umat ref = knn_indices_kdtree(train, test, 7);
  CHECK(same(knn_indices_prefilter(train, test, 7), ref));
  // k beyond the sorted small-k buffer (a heap then) and beyond the 16 lanes that seed thresholds.
  const arma::mat ties = arma::round(2.0 * rng.randu(6, 900));
  for (PrefilterIsa isa : kernels()) {
    CHECK(same(prefilter(train, test, 40, false, isa), knn_indices_kdtree(train, test, 40)));
    CHECK(same(prefilter(ties, ties, 70, true, isa), full_sort(ties, ties, 70, true)));
  }
  // A training set sorted by its first coordinate (the scattered scan order keeps this fast, and
  // it must not change the answer).
  const arma::uvec order = arma::sort_index(train.row(0).t());
  train = train.cols(order);
  CHECK(same(knn_indices_prefilter(train, test, 7), knn_indices_kdtree(train, test, 7)));
  // Only some columns written, the others untouched.
  const arma::uvec cols = {3, 100, 101, 332};
  for (PrefilterIsa isa : kernels()) {
    arma::umat nn(7, test.n_cols, arma::fill::value(arma::uword(999999)));
    knn_prefilter_into(train, test, 7, false, cols, nn, isa);
    const arma::umat whole = knn_indices_kdtree(train, test, 7);
    for (arma::uword j = 0; j < test.n_cols; ++j) {
      const arma::uvec expect = arma::any(cols == j) ? arma::uvec(whole.col(j))
                                                     : arma::uvec(7, arma::fill::value(999999));
      CHECK(arma::all(nn.col(j) == expect));
    }
  }
  // Fewer training points than one tile, and k equal to all of them.
  const arma::mat few = rng.randn(5, 11);
  const arma::mat probe = test.rows(0, 4);
  CHECK(same(knn_indices_prefilter(few, probe, 11), full_sort(few, probe, 11, false)));
  CHECK(same(knn_indices_prefilter(few, few, 10, true), full_sort(few, few, 10, true)));
}
