// Tests against the best cell of each column, Holm's correction over a table, the Wilcoxon
// option, the interval of the mean difference, and the bold best cell with a caption that names
// test, correction and reference. Expected p-values and intervals: scipy.stats 1.10 (ttest_rel,
// its confidence_interval(), wilcoxon) on the numbers below; Holm's adjustment of those by hand.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "framework/results/aggregate.hpp"
#include "framework/results/reader.hpp"
#include "results_rows.hpp"

using namespace drbench;
using namespace drbench::testing;

namespace {

// Methods A, B, C on six partitions at per_class 5 (A best) and 10 (B best).
ResultsFile three_methods(const std::string& reference) {
  ResultsFile f;
  f.path = "best.h5";
  f.k = {1};
  f.labels = {"A", "B", "C"};
  f.datasets = {"usps"};
  f.repeats = 6;
  f.ttest_reference = reference;
  const std::vector<std::pair<std::string, std::vector<double>>> at5 = {
      {"A", {.10, .12, .11, .13, .12, .11}},
      {"B", {.20, .22, .19, .24, .21, .20}},
      {"C", {.115, .125, .13, .128, .135, .112}}};
  const std::vector<std::pair<std::string, std::vector<double>>> at10 = {
      {"A", {.09, .10, .085, .11, .095, .10}},
      {"B", {.05, .06, .055, .058, .052, .061}},
      {"C", {.07, .061, .05, .075, .052, .071}}};
  std::uint64_t id = 0;
  for (const auto* rows : {&at5, &at10})
    for (const auto& [label, errors] : *rows)
      for (std::size_t r = 0; r < errors.size(); ++r) {
        const double split = rows == &at5 ? 5 : 10;
        TaskRow row = usps_row(id++, true, {errors[r]}, label, "", split, static_cast<int>(r), 2);
        row.split_seed = 1000 + r + static_cast<std::uint64_t>(split) * 10;
        f.tasks.push_back(row);
      }
  return f;
}

}  // namespace

TEST_CASE("tests against the column's best, Holm-corrected over the table", "[aggregate][stats]") {
  const ResultsFile f = three_methods("");  // the config names no reference: the new default
  const Aggregate a = aggregate(f);
  CHECK(a.reference == kBestOfColumn);
  CHECK(a.correction == "holm");
  CHECK(a.test == "ttest");
  const Cell* a5 = a.find("usps", "A", 5, 2);
  const Cell* b5 = a.find("usps", "B", 5, 2);
  const Cell* c5 = a.find("usps", "C", 5, 2);
  const Cell* a10 = a.find("usps", "A", 10, 2);
  const Cell* b10 = a.find("usps", "B", 10, 2);
  const Cell* c10 = a.find("usps", "C", 10, 2);
  CHECK(a5->column_best[0]);
  CHECK(!b5->column_best[0]);
  CHECK(b10->column_best[0]);
  CHECK(!a5->tested(0));  // the best is the reference, not tested
  CHECK(!b10->tested(0));
  CHECK(b5->tested_against[0] == "A");
  CHECK(a10->tested_against[0] == "B");
  // ttest_rel(B5, A5).pvalue = 3.454484124272884e-06, ttest_rel(C5, A5) 0.04945764732375141,
  // ttest_rel(A10, B10) 3.285831200115236e-05, ttest_rel(C10, B10) 0.14168727935725695; Holm
  // over the four: x4, x3 (made non-decreasing), x2, x1.
  CHECK(b5->ttest[0].p == Approx(3.454484124272884e-06).epsilon(1e-7));
  CHECK(c5->ttest[0].p == Approx(0.04945764732375141).epsilon(1e-8));
  CHECK(b5->p_adjusted[0] == Approx(1.3817936497091536e-05).epsilon(1e-7));
  CHECK(a10->p_adjusted[0] == Approx(9.857493600345708e-05).epsilon(1e-7));
  CHECK(c5->p_adjusted[0] == Approx(0.09891529464750282).epsilon(1e-8));
  CHECK(c10->p_adjusted[0] == Approx(0.14168727935725695).epsilon(1e-8));
  CHECK(b5->worse[0]);
  CHECK(a10->worse[0]);
  CHECK(!c5->worse[0]);  // p < 0.05 alone, not after Holm
  CHECK(!c10->worse[0]);
  // ttest_rel(C5, A5).confidence_interval() = (3.1953816268441224e-05, 0.018301379517064897)
  CHECK(c5->ttest[0].mean_diff == Approx(0.00916666666666667).epsilon(1e-10));
  CHECK(c5->ttest[0].ci_low == Approx(3.1953816268441224e-05).epsilon(1e-6));
  CHECK(c5->ttest[0].ci_high == Approx(0.018301379517064897).epsilon(1e-9));

  AggregateOptions none;
  none.correction = "none";
  CHECK(aggregate(f, none).find("usps", "C", 5, 2)->worse[0]);
  AggregateOptions named;  // --ttest A: a reference the user names is corrected by default
  named.reference = "A";
  const Aggregate an = aggregate(f, named);
  CHECK(an.correction == "holm");
  CHECK(an.find("usps", "C", 5, 2)->tested_against[0] == "A");
  CHECK(!an.find("usps", "A", 5, 2)->tested(0));
  AggregateOptions bad;
  bad.correction = "bonferroni";
  CHECK_THROWS_WITH(aggregate(f, bad), Catch::Contains("--correction holm"));
  bad = {};
  bad.test = "sign";
  CHECK_THROWS_WITH(aggregate(f, bad), Catch::Contains("--test ttest or --test wilcoxon"));
}

TEST_CASE("a config's ttest_against keeps its uncorrected tests", "[aggregate][stats]") {
  const Aggregate a = aggregate(three_methods("A"));
  CHECK(a.reference == "A");
  CHECK(a.correction == "none");
  CHECK(a.find("usps", "C", 5, 2)->worse[0]);    // p = 0.0495, as the paper's tests mark it
  CHECK(!a.find("usps", "B", 10, 2)->worse[0]);  // better than A
  CHECK(a.find("usps", "B", 10, 2)->column_best[0]);
  const auto tables = make_tables(a);
  REQUIRE(tables.size() == 1);
  CHECK_THAT(
      tables[0].caption,
      Catch::Contains("† significantly worse than A (paired t-test, uncorrected, p < 0.05)"));
}

TEST_CASE("Wilcoxon signed-rank tests on request", "[aggregate][stats]") {
  AggregateOptions w;
  w.test = "wilcoxon";
  const Aggregate a = aggregate(three_methods(""), w);
  // B5 - A5 = (.10, .10, .08, .11, .09, .09) ties: the normal approximation,
  // stats.wilcoxon(B5, A5, method="approx") -> W = 0, p = 0.027281171477617997.
  const Cell* b5 = a.find("usps", "B", 5, 2);
  CHECK(b5->ttest[0].t == 0.0);
  CHECK(b5->ttest[0].p == Approx(0.027281171477617997).epsilon(1e-10));
  CHECK(b5->ttest[0].ci_low == Approx(0.0839934261487305).epsilon(1e-9));  // the t interval
  CHECK_THAT(make_tables(a)[0].caption,
             Catch::Contains("(Wilcoxon signed-rank test, Holm-corrected over the table's 4 "
                             "comparisons, p < 0.05)"));
  CHECK_THAT(make_tables(a)[0].caption, !Catch::Contains("no signed-rank p-value"));
  // Five partitions: the exact test's smallest p is 2/32 > 0.05, and the caption says so.
  ResultsFile five = three_methods("");
  five.repeats = 5;
  five.tasks.erase(std::remove_if(five.tasks.begin(), five.tasks.end(),
                                  [](const TaskRow& r) { return r.repeat == 5; }),
                   five.tasks.end());
  const Aggregate a5 = aggregate(five, w);
  CHECK_THAT(make_tables(a5)[0].caption,
             Catch::Contains("with at most 5 pairs no signed-rank p-value falls below 0.0625"));
}

TEST_CASE("the best cell of each column is bold; the caption names test, correction, reference",
          "[aggregate][stats]") {
  const Aggregate a = aggregate(three_methods(""));
  const auto tables = make_tables(a);
  REQUIRE(tables.size() == 1);
  const Table& t = tables[0];
  CHECK_THAT(t.caption, Catch::Contains("bold: the best mean of its column"));
  CHECK_THAT(t.caption,
             Catch::Contains("† significantly worse than the best of its column (paired t-test, "
                             "Holm-corrected over the table's 4 comparisons, p < 0.05)"));
  const std::string md = to_markdown(t, a);
  CHECK_THAT(md, Catch::Contains("| A | **11.50 ± 1.05** | 9.67 ± 0.88 † | 0 |"));
  CHECK_THAT(md, Catch::Contains("| B | 21.00 ± 1.79 † | **5.60 ± 0.44** | 0 |"));
  CHECK_THAT(md, Catch::Contains("| C | 12.42 ± 0.89 | 6.32 ± 1.05 | 0 |"));
  const std::string tex = to_latex(t, a);
  CHECK_THAT(tex, Catch::Contains("A & $\\mathbf{11.50 \\pm 1.05}$ & $9.67 \\pm 0.88^\\dagger$"));
  const std::string csv = to_csv(t, a);
  CHECK_THAT(csv, Catch::StartsWith("dataset,method,split_kind,split_value,dim,k,mean_error_pct,"
                                    "std_error_pct,n,setting,p_value,worse,failed,best,reference,"
                                    "test,correction,p_adjusted,mean_diff,ci95_low,ci95_high\n"));
  CHECK_THAT(csv,
             Catch::Contains("usps,A,per_class,5,2,1,11.5000,1.0488,6,,,0,0,1,,ttest,holm,,,,\n"));
  CHECK_THAT(csv, Catch::Contains("usps,C,per_class,5,2,1,12.4167,0.8931,6,,0.0494576,0,0,0,A,"
                                  "ttest,holm,0.0989153,0.9167,0.0032,1.8301\n"));
  // No tests: still bold, and no promise of a mark.
  AggregateOptions untested;
  untested.reference = "";
  const Aggregate u = aggregate(three_methods(""), untested);
  const Table ut = make_tables(u)[0];
  CHECK_THAT(ut.caption, Catch::Contains("bold"));
  CHECK_THAT(ut.caption, !Catch::Contains("†"));
  CHECK_THAT(to_markdown(ut, u), Catch::Contains("| B | 21.00 ± 1.79 | **5.60 ± 0.44** | 0 |"));
}
