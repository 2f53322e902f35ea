// Pooled tables: subsamples of one data set as one cell, several labels as one row
// (docs/results-format.md, "Pooled tables").
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "framework/core/error.hpp"
#include "framework/results/aggregate.hpp"
#include "framework/results/combine.hpp"
#include "framework/results/render.hpp"
#include "results_rows.hpp"

using namespace drbench;
using namespace drbench::testing;

namespace {

// Three draws oil_1..oil_3 (one partition each, all with the same split seed, as a split that
// does not depend on the data would give) and iris, which is not pooled.
struct Draws : SyntheticFile {
  Draws()
      : SyntheticFile("draws.h5", {1}, {"oil_1", "oil_2", "oil_3", "iris"},
                      {"PCA", "GP-A", "GP-B", "TPS"}, "") {
    f.repeats = 1;
  }
  void add(const std::string& dataset, const std::string& label, const std::string& setting,
           double error, double fit_seconds = 1.0) {
    TaskRow row = usps_row(next++, true, {error}, label, setting, 0, 0, 2);
    row.dataset = dataset;
    row.split_kind = "all";
    row.split_seed = 7;
    row.result.fit_seconds = fit_seconds;
    f.tasks.push_back(row);
  }
};

Draws draws() {
  Draws d;
  const double tps[] = {0.02, 0.03, 0.05}, a[] = {0.04, 0.05, 0.06}, b[] = {0.01, 0.02, 0.02};
  for (int i = 0; i < 3; ++i) {
    const std::string ds = "oil_" + std::to_string(i + 1);
    d.add(ds, "PCA", "", 0.2 + 0.01 * i);
    d.add(ds, "GP-A", "kernel=rbf", a[i], 2.0 + i);
    d.add(ds, "GP-B", "kernel=mlp", b[i]);
    d.add(ds, "TPS", "beta=1", tps[i]);
    // A second TPS setting, better on the first draw only: the pooled mean decides.
    d.add(ds, "TPS", "beta=2", i == 0 ? 0.0 : 0.2);
  }
  d.add("iris", "TPS", "beta=1", 0.07);
  d.add("iris", "GP-A", "kernel=rbf", 0.04);
  return d;
}

AggregateOptions pooled(const std::string& reference) {
  AggregateOptions o;
  o.reference = reference;
  o.pool_datasets = parse_pool_rules("oil_*=oil", "--pool-datasets");
  o.pool_labels = parse_pool_rules("GP-*=GP", "--pool-labels");
  return o;
}

}  // namespace

TEST_CASE("pool rules: '*' globs, PATTERN=NAME lists, malformed rules refused",
          "[aggregate][pool]") {
  CHECK(pool_matches("oil_*", "oil_10"));
  CHECK(pool_matches("oil_*", "oil_"));
  CHECK_FALSE(pool_matches("oil_*", "oil"));
  CHECK_FALSE(pool_matches("oil_*", "soil_1"));
  CHECK(pool_matches("*_1", "swiss_1"));
  CHECK(pool_matches("a*b*c", "axxbyybc"));
  CHECK_FALSE(pool_matches("a*b*c", "axxbyyb"));
  CHECK(pool_matches("iris", "iris"));
  const auto r = parse_pool_rules("oil_*=oil,swiss_*=swiss", "--pool-datasets");
  REQUIRE(r.size() == 2);
  CHECK(r[1].pattern == "swiss_*");
  CHECK(r[1].name == "swiss");
  CHECK_THROWS_WITH(parse_pool_rules("oil_*", "--pool-datasets"),
                    Catch::Contains("--pool-datasets") && Catch::Contains("PATTERN=NAME"));
  CHECK_THROWS_AS(parse_pool_rules("oil_*=oil,", "--pool-datasets"), Error);
  CHECK_THROWS_AS(parse_pool_rules("=oil", "--pool-labels"), Error);
}

TEST_CASE("pooled datasets: one cell over every draw, t-tests paired by draw",
          "[aggregate][pool]") {
  Draws d = draws();
  // Unpooled: one cell per draw, one result each.
  const Aggregate plain = aggregate(d.f);
  CHECK(plain.find("oil_2", "TPS", 0, 2)->chosen()->n() == 1);

  const Aggregate a = aggregate(d.f, pooled("GP"));
  CHECK(a.datasets == std::vector<std::string>{"oil", "iris"});
  CHECK(a.labels == std::vector<std::string>{"PCA", "GP", "TPS"});
  CHECK(a.expected("oil") == 3);
  CHECK(a.expected("iris") == 1);
  REQUIRE(a.pooled.at("oil") == std::vector<std::string>{"oil_1", "oil_2", "oil_3"});
  const Cell* tps = a.find("oil", "TPS", 0, 2);
  REQUIRE(tps);
  REQUIRE(tps->chosen());
  // beta=2 wins the first draw (0 against 0.02) but loses the pooled mean.
  CHECK(tps->chosen()->setting == "beta=1");
  CHECK(tps->chosen()->n() == 3);
  // numpy: mean([.02,.03,.05]) = 0.0333..., std(ddof=1) = 0.015275252316519468
  CHECK(tps->chosen()->mean[0] == Approx(0.1 / 3));
  CHECK(tps->chosen()->std[0] == Approx(0.015275252316519468));
  // The best of the pooled labels: GP-B by its mean over the draws.
  const Cell* gp = a.find("oil", "GP", 0, 2);
  REQUIRE(gp);
  REQUIRE(gp->settings.size() == 2);
  CHECK(gp->chosen()->setting == "GP-B: kernel=mlp");
  // Every draw has split seed 7; pairing by draw keeps the three pairs apart.
  // scipy.stats.ttest_rel([.02,.03,.05], [.01,.02,.02]) -> t=2.5, p=0.1296117202215108
  REQUIRE(tps->ttest[0].n == 3);
  CHECK(tps->ttest[0].t == Approx(2.5).epsilon(1e-10));
  CHECK(tps->ttest[0].p == Approx(0.1296117202215108).epsilon(1e-9));
  CHECK(tps->ttest[0].mean_diff == Approx(0.05 / 3));
  // iris is not pooled: one result, a one-pair "test" with its difference only.
  const Cell* iris = a.find("iris", "TPS", 0, 2);
  REQUIRE(iris);
  CHECK(iris->ttest[0].n == 1);
  CHECK(std::isnan(iris->ttest[0].p));
  CHECK(iris->ttest[0].mean_diff == Approx(0.03));
  CHECK(a.find("iris", "GP", 0, 2)->chosen()->setting == "GP-A: kernel=rbf");

  const std::string md = render_tables(a, "md");
  CHECK_THAT(md, Catch::Contains("3 results (1 partition of each of 3 pooled data sets, oil_1 "
                                 "to oil_3)"));
}

TEST_CASE("pooled datasets: a missing draw shows its count; --details columns",
          "[aggregate][pool]") {
  Draws d = draws();
  d.f.tasks.erase(
      std::remove_if(d.f.tasks.begin(), d.f.tasks.end(),
                     [](const TaskRow& r) { return r.dataset == "oil_3" && r.label == "PCA"; }),
      d.f.tasks.end());
  const Aggregate a = aggregate(d.f, pooled("GP"));
  const Cell* pca = a.find("oil", "PCA", 0, 2);
  // Worse than GP on both remaining draws by a constant amount: p ~ 0, marked.
  CHECK(cell_text(pca, 0, a) == "20.50 ± 0.71 (2/3) †");
  const std::string plain = to_long_csv(a, false);
  CHECK_THAT(plain, Catch::StartsWith("dataset,method,split_kind,split_value,dim,k,mean_error_pct,"
                                      "std_error_pct,n,repeats,p_value,worse,setting,chosen,"
                                      "failed\n"));
  CHECK_THAT(plain, Catch::Contains("oil,PCA,all,0,2,1,20.5000,0.7071,2,3,"));
  const std::string full = to_long_csv(a, false, true);
  CHECK_THAT(full, Catch::Contains(",chosen,failed,pairs,t,mean_diff,fit_seconds,ci95_low,"
                                   "ci95_high,p_adjusted,reference\n"));
  // TPS against GP over three pairs: t = 2.5, mean difference 1.6667 points; fit 1 s.
  CHECK_THAT(full, Catch::Contains("oil,TPS,all,0,2,1,3.3333333333333335,") &&
                       Catch::Contains(",3,2.5,1.6666666666666667,1,"));
  // GP-B's fits took 1 s, GP-A's 2-4 s: fit_seconds is the chosen setting's.
  CHECK_THAT(full, Catch::Contains("GP-B: kernel=mlp,1,0,0,,,1,,,,\n"));
}

TEST_CASE("pooled names may not capture a dataset the rule does not match; pools combine",
          "[aggregate][pool]") {
  Draws d = draws();
  AggregateOptions o;
  o.pool_datasets = parse_pool_rules("oil_*=iris", "--pool-datasets");
  CHECK_THROWS_WITH(aggregate(d.f, o), Catch::Contains("draws.h5") && Catch::Contains("'iris'") &&
                                           Catch::Contains("pool under another name"));
  // Two files of other draws pool into one table only when no pooled cell is in both.
  Draws other = draws();
  other.f.path = "other.h5";
  AggregateOptions p = pooled("");
  CHECK_THROWS_WITH(
      combine_aggregates({aggregate(d.f, p), aggregate(other.f, p)}, {"draws.h5", "other.h5"}, ""),
      Catch::Contains("both hold oil"));
}

// Under selection: validation a pooled row's label is chosen per partition on the inner errors,
// as each label's setting was: GP-A wins every inner split and loses every test, so the row
// reports GP-A's test errors (choosing on the test error would report GP-B's).
TEST_CASE("pooled labels under validation: the label chosen on the inner errors",
          "[aggregate][pool]") {
  ResultsFile f;
  f.path = "validated.h5";
  f.k = {1};
  f.repeats = 2;
  f.datasets = {"usps"};
  f.labels = {"GP-A", "GP-B"};
  f.selection = "validation";
  std::uint64_t id = 0;
  for (int r = 0; r < 2; ++r)
    for (const auto& [label, inner, test] :
         {std::tuple{"GP-A", 0.10, 0.30}, std::tuple{"GP-B", 0.20, 0.05}}) {
      TaskRow in = usps_row(id++, true, {inner}, label, "w=1", 5, r, 2);
      in.fold = 0;
      f.tasks.push_back(in);
      TaskRow out = usps_row(id++, true, {test}, label, "w=1", 5, r, 2);
      out.split_seed = 100 + r;
      f.tasks.push_back(out);
    }
  AggregateOptions o;
  o.reference = "";
  o.pool_labels = parse_pool_rules("GP-*=GP", "--pool-labels");
  const Aggregate a = aggregate(f, o);
  const Cell* gp = a.find("usps", "GP", 5, 2);
  REQUIRE(gp);
  REQUIRE(gp->chosen());
  CHECK(gp->chosen()->mean[0] == Approx(0.30));
  CHECK(gp->chosen()->setting == "per partition: GP-A: w=1 in 2");
  CHECK(gp->chosen()->n() == 2);
}
