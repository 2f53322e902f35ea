#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "framework/data/split.hpp"

using namespace drbench;

namespace {

// 3 classes of 10, 6 and 4 points, interleaved.
Dataset toy() {
  Dataset ds;
  ds.name = "toy";
  std::vector<arma::uword> y;
  for (int i = 0; i < 10; ++i) y.push_back(0);
  for (int i = 0; i < 6; ++i) y.push_back(1);
  for (int i = 0; i < 4; ++i) y.push_back(2);
  ds.y = arma::uvec(y);
  ds.y = ds.y(arma::uvec{0, 10, 16, 1, 11, 17, 2, 12, 18, 3, 13, 19, 4, 14, 5, 15, 6, 7, 8, 9});
  ds.X = arma::regspace<arma::rowvec>(0, 19);
  ds.n_classes = 3;
  return ds;
}

arma::uvec class_counts(const Dataset& ds, const arma::uvec& idx) {
  arma::uvec c(ds.n_classes, arma::fill::zeros);
  for (arma::uword i : idx) ++c(ds.y(i));
  return c;
}

bool disjoint_cover(const Partition& p, arma::uword n, bool cover) {
  arma::uvec seen(n, arma::fill::zeros);
  for (arma::uword i : p.train) ++seen(i);
  for (arma::uword i : p.test) ++seen(i);
  return seen.max() <= 1 && (!cover || seen.min() == 1);
}

}  // namespace

TEST_CASE("Per-class splits: balance, disjointness, determinism", "[data]") {
  const Dataset ds = toy();
  SplitsSpec spec;
  spec.kind = SplitsSpec::Kind::PerClass;
  const Partition p = make_partition(ds, spec, 3, 42);
  CHECK(arma::all(class_counts(ds, p.train) == arma::uvec{3, 3, 3}));
  CHECK(arma::all(class_counts(ds, p.test) == arma::uvec{7, 3, 1}));
  CHECK(disjoint_cover(p, ds.n(), true));
  CHECK(p.train.is_sorted());
  CHECK(p.test.is_sorted());

  const Partition same = make_partition(ds, spec, 3, 42);
  CHECK(arma::all(same.train == p.train));
  bool differs = false;
  for (std::uint64_t s = 43; s < 48; ++s)
    differs = differs || arma::any(make_partition(ds, spec, 3, s).train != p.train);
  CHECK(differs);

  spec.test_per_class = 1;
  const Partition q = make_partition(ds, spec, 3, 42);
  CHECK(arma::all(class_counts(ds, q.test) == arma::uvec{1, 1, 1}));
  CHECK(disjoint_cover(q, ds.n(), false));
}

TEST_CASE("Too few points in a class is refused with class, count and request", "[data]") {
  const Dataset ds = toy();
  SplitsSpec spec;
  spec.kind = SplitsSpec::Kind::PerClass;
  try {
    make_partition(ds, spec, 5, 1);
    FAIL("expected DataError");
  } catch (const DataError& e) {
    CHECK_THAT(e.what(), Catch::Contains("class 2") && Catch::Contains("has 4 points") &&
                             Catch::Contains("5 training"));
  }
  spec.test_per_class = 1;
  CHECK_THROWS_AS(make_partition(ds, spec, 4, 1), DataError);
  CHECK_THROWS_AS(make_partition(ds, spec, 2.5, 1), DataError);
}

TEST_CASE("Ratio splits are stratified; a ratio that leaves a class no training point is refused",
          "[data]") {
  const Dataset ds = toy();
  SplitsSpec spec;
  spec.kind = SplitsSpec::Kind::Ratio;
  const Partition p = make_partition(ds, spec, 0.5, 9);
  CHECK(arma::all(class_counts(ds, p.train) == arma::uvec{5, 3, 2}));
  CHECK(disjoint_cover(p, ds.n(), true));
  const Partition small = make_partition(ds, spec, 0.15, 9);
  CHECK(arma::all(class_counts(ds, small.train) == arma::uvec{2, 1, 1}));
  // 0.05 of 6 points rounds to 0: refused (it used to be raised silently to 1).
  CHECK_THROWS_WITH(make_partition(ds, spec, 0.05, 9),
                    Catch::Contains("gives class 1 (6 points) no training points"));
  CHECK_THROWS_AS(make_partition(ds, spec, 1.0, 9), DataError);
}

TEST_CASE("Own and All splits", "[data]") {
  Dataset ds = toy();
  SplitsSpec spec;
  spec.kind = SplitsSpec::Kind::Own;
  CHECK_THROWS_WITH(make_partition(ds, spec, 0, 1), Catch::Contains("defines no split"));
  ds.split = arma::ivec(ds.n(), arma::fill::zeros);
  ds.split.tail(5).fill(1);
  ds.split(0) = 2;  // validation points belong to neither part
  const Partition p = make_partition(ds, spec, 0, 1);
  CHECK(p.train.n_elem == 14);
  CHECK(p.test.n_elem == 5);
  CHECK(p.train(0) == 1);
  CHECK(p.test(0) == 15);

  spec.kind = SplitsSpec::Kind::All;
  const Partition all = make_partition(ds, spec, 0, 1);
  CHECK(all.train.n_elem == ds.n());
  CHECK(all.test.is_empty());
}
