#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "framework/core/error.hpp"
#include "framework/results/aggregate.hpp"
#include "framework/results/reader.hpp"
#include "framework/results/render.hpp"
#include "framework/results/stats.hpp"
#include "framework/results/store.hpp"
#include "results_rows.hpp"
#include "test_results_fixture.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("incomplete beta and Student t CDF match scipy", "[aggregate]") {
  // python3 -c "from scipy import special; print(special.betainc(a, b, x))"
  CHECK(incomplete_beta(0.5, 0.5, 0.3) == Approx(0.3690101195655454).epsilon(1e-12));
  CHECK(incomplete_beta(2, 3, 0.4) == Approx(0.5248).epsilon(1e-12));
  CHECK(incomplete_beta(5, 0.5, 0.9) == Approx(0.316642915020012).epsilon(1e-12));
  CHECK(incomplete_beta(50, 0.5, 0.97) == Approx(0.08169933372182267).epsilon(1e-11));
  CHECK(incomplete_beta(0.5, 20, 0.01) == Approx(0.4713699354850156).epsilon(1e-12));
  CHECK(incomplete_beta(100, 100, 0.5) == Approx(0.5).epsilon(1e-12));
  CHECK(incomplete_beta(1, 1, 0.7) == Approx(0.7).epsilon(1e-14));
  CHECK(incomplete_beta(2.5, 0.5, 0.2) == Approx(0.006566271827563008).epsilon(1e-11));
  CHECK(incomplete_beta(2, 3, 0.0) == 0.0);
  CHECK(incomplete_beta(2, 3, 1.0) == 1.0);
  CHECK_THROWS_AS(incomplete_beta(0, 1, 0.5), Error);
  // python3 -c "from scipy import stats; print(stats.t.cdf(t, df))"
  CHECK(student_t_cdf(0.0, 5) == Approx(0.5).epsilon(1e-14));
  CHECK(student_t_cdf(1.0, 1) == Approx(0.75).epsilon(1e-13));
  CHECK(student_t_cdf(-2.0, 3) == Approx(0.06966298427942155).epsilon(1e-12));
  CHECK(student_t_cdf(2.5, 9) == Approx(0.9830690861585071).epsilon(1e-12));
  CHECK(student_t_cdf(4.0, 29) == Approx(0.9997999680271737).epsilon(1e-12));
  CHECK(student_t_cdf(-0.3, 2) == Approx(0.3962428304200888).epsilon(1e-12));
  CHECK(student_t_cdf(12.0, 4) == Approx(0.9998617857257486).epsilon(1e-12));
}

TEST_CASE("paired t-test matches scipy.stats.ttest_rel", "[aggregate]") {
  // stats.ttest_rel([.12,.15,.11,.14,.13], [.10,.14,.12,.11,.10]) -> t=2.1380899352993943,
  // p=0.09930068321372693
  auto r = paired_ttest({0.12, 0.15, 0.11, 0.14, 0.13}, {0.10, 0.14, 0.12, 0.11, 0.10});
  CHECK(r.n == 5);
  CHECK(r.t == Approx(2.1380899352993943).epsilon(1e-10));
  CHECK(r.p == Approx(0.09930068321372693).epsilon(1e-10));
  // stats.ttest_rel([.30,.31,.29], [.20,.22,.19]) -> t=29.000000000000043, p=0.001186944038478558
  r = paired_ttest({0.30, 0.31, 0.29}, {0.20, 0.22, 0.19});
  CHECK(r.t == Approx(29.0).epsilon(1e-10));
  CHECK(r.p == Approx(0.001186944038478558).epsilon(1e-9));
  CHECK(std::isnan(paired_ttest({0.1}, {0.2}).p));
  CHECK(paired_ttest({0.1, 0.2}, {0.1, 0.2}).p == 1.0);
  CHECK(paired_ttest({0.5, 0.75}, {0.25, 0.5}).p == 0.0);  // an exactly constant difference
  CHECK(sample_std({0.30, 0.31, 0.29}) == Approx(0.01).epsilon(1e-12));
}

namespace {

// Synthetic rows: dataset usps, per_class 5, three repeats (split seeds 100, 101, 102).
struct Synthetic : SyntheticFile {
  Synthetic() : SyntheticFile("synthetic.h5", {1, 3}, {"usps"}, {"PCA", "KDA", "LDA"}, "KDA") {}
  // `repeats` partitions, t-tests against `reference` ("" for none).
  Synthetic(int repeats, std::string reference) : Synthetic() {
    f.repeats = repeats;
    f.ttest_reference = std::move(reference);
  }
  void add(const std::string& label, const std::string& setting, std::vector<double> e1,
           std::vector<double> e3, double split = 5, std::uint64_t dim = 2) {
    for (std::size_t r = 0; r < e1.size(); ++r) {
      TaskRow row =
          usps_row(next++, true, {e1[r], e3[r]}, label, setting, split, static_cast<int>(r), dim);
      row.split_seed = 100 + r + static_cast<std::uint64_t>(split) * 10;
      f.tasks.push_back(row);
    }
  }
  void fail(const std::string& label, const std::string& setting, int repeat) {
    TaskRow row = usps_row(next++, false, {}, label, setting, 5, repeat, 2);
    row.result.error = "MethodError: singular";
    f.tasks.push_back(row);
  }
};

Synthetic synthetic() {
  Synthetic s(3, "KDA");
  s.add("KDA", "gamma=0.5", {0.10, 0.12, 0.14}, {0.11, 0.13, 0.15});
  // Better at k=3 but worse at k=1: selection looks at the first k only.
  s.add("KDA", "gamma=2", {0.20, 0.22, 0.24}, {0.05, 0.05, 0.05});
  s.add("PCA", "", {0.30, 0.31, 0.29}, {0.12, 0.14, 0.13});
  s.add("LDA", "", {0.11, 0.12, 0.16}, {0.11, 0.12, 0.16});
  s.fail("LDA", "", 3);
  s.add("PCA", "", {0.40, 0.50}, {0.40, 0.50}, 10);
  return s;
}

}  // namespace

TEST_CASE("aggregate: means, sample stds and the best setting per cell", "[aggregate]") {
  Synthetic s = synthetic();
  Aggregate a = aggregate(s.f);
  CHECK(a.reference == "KDA");
  CHECK(a.labels == std::vector<std::string>{"PCA", "KDA", "LDA"});
  CHECK(a.split_values == std::vector<double>{5, 10});
  const Cell* kda = a.find("usps", "KDA", 5, 2);
  REQUIRE(kda);
  REQUIRE(kda->settings.size() == 2);
  REQUIRE(kda->chosen());
  CHECK(kda->chosen()->setting == "gamma=0.5");
  CHECK(kda->chosen()->mean[0] == Approx(0.12));
  CHECK(kda->chosen()->std[0] == Approx(0.02));
  CHECK(kda->chosen()->mean[1] == Approx(0.13));  // k=3 reported for the k=1 winner
  CHECK(kda->settings[1].mean[1] == Approx(0.05));
  const Cell* lda = a.find("usps", "LDA", 5, 2);
  REQUIRE(lda);
  CHECK(lda->failed == 1);
  CHECK(lda->chosen()->n() == 3);
  CHECK(lda->chosen()->mean[0] == Approx(0.13));
  CHECK(lda->chosen()->std[0] == Approx(0.026457513110645908));
  const Cell* pca10 = a.find("usps", "PCA", 10, 2);
  REQUIRE(pca10);
  CHECK(pca10->chosen()->mean[0] == Approx(0.45));
  CHECK(pca10->chosen()->std[0] == Approx(0.070710678118654752));
  CHECK(a.find("usps", "KDA", 10, 2) == nullptr);
}

TEST_CASE("aggregate: paired t-tests against the reference mark significantly worse cells",
          "[aggregate]") {
  Synthetic s = synthetic();
  Aggregate a = aggregate(s.f);
  const Cell* pca = a.find("usps", "PCA", 5, 2);
  // stats.ttest_rel([.30,.31,.29], [.10,.12,.14]) -> t=11.783766072743584, p=0.007124772673555145
  CHECK(pca->ttest[0].n == 3);
  CHECK(pca->ttest[0].t == Approx(11.783766072743584).epsilon(1e-9));
  CHECK(pca->ttest[0].p == Approx(0.007124772673555145).epsilon(1e-8));
  CHECK(pca->worse[0]);
  // k=3: differences (.01, .01, -.02) average 0 -> p ~ 1 (scipy: 0.9999999999999997)
  CHECK(pca->ttest[1].p > 0.99);
  CHECK(!pca->worse[1]);
  // stats.ttest_rel([.11,.12,.16], [.10,.12,.14]) -> p=0.22540333075851657
  const Cell* lda = a.find("usps", "LDA", 5, 2);
  CHECK(lda->ttest[0].p == Approx(0.22540333075851657).epsilon(1e-8));
  CHECK(!lda->worse[0]);
  // No reference cell at split 10: no test.
  CHECK(a.find("usps", "PCA", 10, 2)->ttest[0].n == 0);
  // The reference itself is never tested.
  CHECK(a.find("usps", "KDA", 5, 2)->ttest[0].n == 0);

  AggregateOptions none;
  none.reference = "";
  CHECK(!aggregate(s.f, none).find("usps", "PCA", 5, 2)->worse[0]);
  AggregateOptions bad;
  bad.reference = "GPLRF";
  CHECK_THROWS_WITH(aggregate(s.f, bad), Catch::Contains("GPLRF") && Catch::Contains("PCA"));
  s.f.k.clear();
  CHECK_THROWS_WITH(aggregate(s.f), Catch::Contains("synthetic.h5"));
}

TEST_CASE("tables: mean ± std in percent, markers, failures, three formats", "[aggregate]") {
  Synthetic s = synthetic();
  Aggregate a = aggregate(s.f);
  auto tables = make_tables(a);
  REQUIRE(tables.size() == 2);  // usps x k in {1, 3}, one dim
  const Table& t = tables[0];
  CHECK(t.name == "usps_k1");
  CHECK(t.rows == std::vector<std::string>{"PCA", "KDA", "LDA"});
  CHECK(t.columns == std::vector<std::string>{"per_class=5", "per_class=10"});
  CHECK(t.failed == std::vector<std::size_t>{0, 0, 1});
  std::string md = to_markdown(t, a);
  CHECK_THAT(md, Catch::Contains("| PCA | 30.00 ± 1.00 † | **45.00 ± 7.07** (2/3) | 0 |"));
  CHECK_THAT(md, Catch::Contains("| KDA | **12.00 ± 2.00** | - | 0 |"));
  CHECK_THAT(md, Catch::Contains("| LDA | 13.00 ± 2.65 | - | 1 |"));
  CHECK_THAT(md, Catch::Contains("| KDA | gamma=0.5 | - |"));  // which setting won
  CHECK_THAT(md, Catch::Contains("| PCA | (one setting) | (one setting) |"));
  std::string md3 = to_markdown(tables[1], a);
  CHECK_THAT(md3, Catch::Contains("| PCA | **13.00 ± 1.00** | **45.00 ± 7.07** (2/3) | 0 |"));
  CHECK_THAT(md3, Catch::Contains("| KDA | **13.00 ± 2.00** |"));
  std::string csv = to_csv(t, a);
  CHECK_THAT(
      csv,
      Catch::Contains(
          "usps,PCA,per_class,5,2,1,30.0000,1.0000,3,,0.00712477,1,0,0,KDA,ttest,none,0.00712477,"
          "18.0000,11.4276,24.5724\n"));
  CHECK_THAT(csv,
             Catch::Contains(
                 "usps,KDA,per_class,5,2,1,12.0000,2.0000,3,gamma=0.5,,0,0,1,,ttest,none,,,,\n"));
  std::string tex = to_latex(t, a);
  CHECK_THAT(tex,
             Catch::Contains(
                 "PCA & $30.00 \\pm 1.00^\\dagger$ & $\\mathbf{45.00 \\pm 7.07}$ (2/3) & 0 \\\\"));
  CHECK_THAT(tex, Catch::Contains("per\\_class=5"));
  CHECK_THAT(tex, Catch::Contains("KDA & $\\mathbf{12.00 \\pm 2.00}$ & -- & 0"));
  CHECK_THAT(t.caption, Catch::StartsWith("usps: 1-NN test error (%)"));
  s.f.knn_metric = "cosine";  // the caption says which distance the classifier used
  CHECK_THAT(make_tables(aggregate(s.f))[0].caption,
             Catch::StartsWith("usps: 1-NN (cosine) test error (%)"));
}

TEST_CASE("tables: the list of chosen settings shows what the grid varied, csv all of it",
          "[aggregate]") {
  Synthetic s(3, "");
  s.add("KDA", "gamma=0.5,iterations=100,kernel=rbf", {0.10, 0.12, 0.14}, {0.1, 0.1, 0.1});
  s.add("KDA", "gamma=2,iterations=100,kernel=rbf", {0.20, 0.22, 0.24}, {0.1, 0.1, 0.1});
  s.fail("KDA", "gamma=8,iterations=100,kernel=poly", 0);  // a failed grid point varied kernel
  s.add("PCA", "center=true", {0.30, 0.31, 0.29}, {0.1, 0.1, 0.1});
  Aggregate a = aggregate(s.f);
  const auto tables = make_tables(a);
  const Table& t = tables[0];
  const std::string md = to_markdown(t, a);
  CHECK_THAT(md, Catch::Contains("| KDA | gamma=0.5,kernel=rbf |"));
  CHECK_THAT(md, Catch::Contains("| PCA | (one setting) |"));
  CHECK_THAT(md, !Catch::Contains("iterations=100"));
  CHECK_THAT(to_csv(t, a), Catch::Contains(",\"gamma=0.5,iterations=100,kernel=rbf\","));
  const Cell& kda = *a.find("usps", "KDA", 5, 2);
  // Validated cells list each partition's setting, pooled labels keep the label.
  CHECK(shown_setting(kda,
                      "per partition: gamma=0.5,iterations=100,kernel=rbf in 2; "
                      "gamma=2,iterations=100,kernel=rbf in 1") ==
        "per partition: gamma=0.5,kernel=rbf in 2; gamma=2,kernel=rbf in 1");
  Cell pooled;
  pooled.grid = {"GP-lin: a=1,b=2", "GP-rbf: a=1,b=2,w=1", "GP-rbf: a=1,b=2,w=3"};
  CHECK(shown_setting(pooled, "GP-rbf: a=1,b=2,w=3") == "GP-rbf: w=3");
  CHECK(shown_setting(pooled, "GP-lin: a=1,b=2") == "GP-lin");
  CHECK(shown_setting(pooled, "per partition: GP-lin: a=1,b=2 in 2; GP-rbf: a=1,b=2,w=3 in 1") ==
        "per partition: GP-lin in 2; GP-rbf: w=3 in 1");
}

TEST_CASE("tables: one per dim when the experiment has several", "[aggregate]") {
  Synthetic s;
  s.add("KDA", "", {0.1, 0.2}, {0.1, 0.2}, 5, 2);
  s.add("KDA", "", {0.3, 0.4}, {0.3, 0.4}, 5, 9);
  s.add("PCA", "", {0.5, 0.6}, {0.5, 0.6}, 5, 9);
  Aggregate a = aggregate(s.f);
  auto tables = make_tables(a);
  REQUIRE(tables.size() == 4);
  CHECK(tables[0].name == "usps_k1_d2");
  CHECK(tables[0].rows == std::vector<std::string>{"KDA"});
  CHECK(tables[1].name == "usps_k1_d9");
  CHECK(tables[1].rows == std::vector<std::string>{"PCA", "KDA"});
  CHECK_THAT(to_markdown(tables[1], a), Catch::Contains("| KDA | **35.00 ± 7.07** |"));
  CHECK_THAT(tables[1].caption, Catch::Contains(", latent dim 9"));
  // dim 0 (identity's "no reduction") is named as such, not as a 0-dimensional latent space.
  s.add("1NN", "", {0.05, 0.06}, {0.05, 0.06}, 5, 0);
  s.f.labels.push_back("1NN");
  const auto with_input = make_tables(aggregate(s.f));
  CHECK_THAT(with_input[0].caption, Catch::Contains(", input space (methods without a latent"));
  CHECK(with_input[0].rows == std::vector<std::string>{"1NN"});
}

TEST_CASE("tables are stored in the results file without touching the rest", "[aggregate]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"), 3);
  auto tasks = toy_tasks(ex);
  write_results(ex, tasks, [](const Task& t) {
    const double base = t.method == 0 ? 0.3 : (t.setting.real("gamma") < 1 ? 0.1 : 0.2);
    return std::optional(toy_result(t, base + 0.01 * t.repeat, base));
  });
  ResultsFile f = read_results(ex.output.path);
  Aggregate a = aggregate(f);
  write_tables(ex.output.path, a);
  write_tables(ex.output.path, a);  // replacing earlier tables works
  ResultsFile g = read_results(ex.output.path);
  CHECK(g.tasks.size() == tasks.size());
  CHECK(g.config == ex.text);
  CHECK(g.tables.size() == 2 * 2 * 3);  // datasets x k x {md, csv, tex}
  auto tables = make_tables(a);
  std::string md = read_table(ex.output.path, "usps_k1.md");
  CHECK(md == to_markdown(tables[0], a));
  CHECK_THAT(md, Catch::Contains("| KDA | **11.00 ± 1.00** | **11.00 ± 1.00** | 0 |"));
  CHECK_THAT(md, Catch::Contains("| PCA | 31.00 ± 1.00 † |"));
  CHECK_THAT(read_table(ex.output.path, "wine_k3.tex"), Catch::Contains("\\toprule"));
  CHECK_THROWS_WITH(read_table(ex.output.path, "nope.md"), Catch::Contains("nope.md"));
  CHECK(!std::filesystem::exists(ex.output.path + ".tmp"));

  std::ofstream(ex.output.path + ".journal") << "x";
  // A journal that is not one refuses the store as a damaged journal would.
  CHECK_THROWS_WITH(write_tables(ex.output.path, a), Catch::Contains("not a drbench journal"));
}

TEST_CASE("tables of an unfinished run say so and are not stored", "[aggregate]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"), 3);
  auto tasks = toy_tasks(ex);
  // All but the last task: a stopped run.
  write_results(ex, tasks, [&](const Task& t) -> std::optional<TaskResult> {
    if (&t == &tasks.back()) return std::nullopt;
    return toy_result(t, 0.1 + 0.01 * t.repeat, 0.1);
  });
  std::filesystem::remove(ex.output.path + ".journal");  // as a stop before the first commit
  const ResultsFile f = read_results(ex.output.path);
  REQUIRE(f.finished.empty());
  const Aggregate a = aggregate(f);
  const std::string count =
      std::to_string(tasks.size() - 1) + " of " + std::to_string(tasks.size()) + " tasks";
  CHECK_THAT(a.incomplete, Catch::Contains(count) && Catch::Contains(ex.output.path));
  CHECK_THAT(render_tables(a, "md"), Catch::StartsWith("> **Warning:** incomplete run"));
  CHECK_THAT(render_tables(a, "tex"), Catch::StartsWith("% Warning: incomplete run"));
  CHECK_THAT(render_tables(a, "csv"), Catch::StartsWith("dataset,"));
  CHECK_THROWS_WITH(write_tables(ex.output.path, a), Catch::Contains("--no-store"));
  CHECK(read_results(ex.output.path).tables.empty());

  {  // the last task: the file is stamped finished and the tables lose the warning
    ResultsStore store(ex, tasks, RunInfo{}, false);
    store.add(toy_result(tasks.back(), 0.1, 0.1));
    store.write_hdf5();
  }
  const Aggregate b = aggregate(read_results(ex.output.path));
  CHECK(b.incomplete.empty());
  CHECK_THAT(render_tables(b, "md"), !Catch::Contains("Warning"));
  CHECK_NOTHROW(write_tables(ex.output.path, b));
}

TEST_CASE("tables: a dataset's own split is one column", "[aggregate]") {
  Synthetic s;
  s.add("KDA", "", {0.1, 0.2}, {0.1, 0.2}, 0);
  for (auto& row : s.f.tasks) row.split_kind = "own";
  Aggregate a = aggregate(s.f);
  auto tables = make_tables(a);
  REQUIRE(!tables.empty());
  CHECK(tables[0].columns == std::vector<std::string>{"own split"});
  CHECK_THAT(to_markdown(tables[0], a), Catch::Contains("| KDA | **15.00 ± 7.07** | 0 |"));
}

TEST_CASE("selection: only settings with every repeat compete; short cells show their count",
          "[aggregate]") {
  Synthetic s(4, "KDA");
  // gamma=9 failed on 3 of 4 partitions; its one lucky number must not win.
  s.add("KDA", "gamma=9", {0.01}, {0.01});
  for (int r = 1; r < 4; ++r) s.fail("KDA", "gamma=9", r);
  s.add("KDA", "gamma=1", {0.10, 0.12, 0.11, 0.13}, {0.1, 0.1, 0.1, 0.1});
  // PCA has no complete setting: the one with the most repeats is shown, with its count.
  s.add("PCA", "a=1", {0.05}, {0.05});
  s.add("PCA", "a=2", {0.30, 0.31}, {0.30, 0.31});
  Aggregate a = aggregate(s.f);
  CHECK(a.repeats == 4);
  CHECK(a.find("usps", "KDA", 5, 2)->chosen()->setting == "gamma=1");
  CHECK(a.find("usps", "PCA", 5, 2)->chosen()->setting == "a=2");
  const auto tables = make_tables(a);
  const std::string md = to_markdown(tables[0], a);
  CHECK_THAT(md, Catch::Contains("| KDA | **11.50 ± 1.29** |"));
  CHECK_THAT(md, Catch::Contains("| PCA | 30.50 ± 0.71 (2/4) † |"));
  CHECK_THAT(tables[0].caption,
             Catch::Contains("over 4 partitions, best setting per cell among those with results "
                             "on all 4"));
  CHECK_THAT(tables[0].caption, Catch::Contains("(n/4): no setting of the cell has all 4"));
}

TEST_CASE("t-tests: a reference without dims is compared from the input-space table",
          "[aggregate]") {
  Synthetic s;
  s.f.labels = {"1NN", "PCA"};
  s.f.ttest_reference = "1NN";
  s.add("1NN", "", {0.10, 0.11, 0.12}, {0.10, 0.11, 0.12}, 5, 0);
  s.add("PCA", "", {0.30, 0.32, 0.31}, {0.30, 0.32, 0.31}, 5, 2);
  s.add("PCA", "", {0.10, 0.12, 0.11}, {0.10, 0.12, 0.11}, 5, 9);
  Aggregate a = aggregate(s.f);
  const Cell* p2 = a.find("usps", "PCA", 5, 2);
  CHECK(p2->tested(0));
  CHECK(p2->worse[0]);
  CHECK(p2->reference_dim == 0);
  CHECK(!a.find("usps", "PCA", 5, 9)->worse[0]);
  const auto tables = make_tables(a);  // d0, d2, d9 for k=1, then k=3
  REQUIRE(tables.size() == 6);
  CHECK_THAT(to_markdown(tables[1], a), Catch::Contains("| PCA | **31.00 ± 1.00** † |"));
  CHECK_THAT(tables[1].caption,
             Catch::Contains("† significantly worse than 1NN (in the input-space table)"));
}

TEST_CASE("t-tests: no mark and no promise in the caption for a test that did not run",
          "[aggregate]") {
  Synthetic s(1, "KDA");
  s.add("KDA", "", {0.10}, {0.10});
  s.add("PCA", "", {0.50}, {0.50});
  Aggregate a = aggregate(s.f);
  CHECK(!a.find("usps", "PCA", 5, 2)->tested(0));
  const auto tables = make_tables(a);
  CHECK_THAT(tables[0].caption, !Catch::Contains("†"));
  CHECK_THAT(tables[0].caption,
             Catch::Contains("no t-test against KDA for PCA (fewer than 2 partitions"));
}

TEST_CASE("aggregate: fits of a chosen setting that stopped early are listed under the table",
          "[aggregate][trace]") {
  Synthetic s(4, "");
  s.add("KDA", "gamma=0.5", {0.10, 0.11, 0.12, 0.47}, {0.10, 0.11, 0.12, 0.47});
  s.add("PCA", "", {0.30, 0.31, 0.29, 0.30}, {0.30, 0.31, 0.29, 0.30});
  auto set_end = [&](std::size_t task, std::uint64_t its, const std::string& why) {
    s.f.tasks[task].result.fit_end = {its, 1.0, 1.0, why};
  };
  // KDA: three fits ran their 1000 iterations, the fourth met a tolerance test at 93.
  for (std::size_t i = 0; i < 3; ++i) set_end(i, 1000, "max_iterations");
  set_end(3, 93, "x_and_f_tolerance");
  // PCA has no optimiser: nothing to say.
  Aggregate a = aggregate(s.f);
  const Cell* kda = a.find("usps", "KDA", 5, 2);
  REQUIRE(kda);
  const std::vector<EarlyStop> early = early_stops(*kda);
  REQUIRE(early.size() == 1);
  CHECK(early[0].repeat == 3);
  CHECK(early[0].iterations == 93);
  CHECK(early[0].median_iterations == 1000);
  CHECK(early[0].error == 0.47);
  CHECK(early_stops(*a.find("usps", "PCA", 5, 2)).empty());
  const std::string md = to_markdown(make_tables(a)[0], a);
  CHECK_THAT(md, Catch::Contains("- KDA, per_class=5: partition 3 at iteration 93 "
                                 "(x_and_f_tolerance; the setting's median 1000), error 47.00 %"));

  // Fits that all converge early by tolerance, or that stop early by their budget, are usual.
  set_end(3, 400, "x_and_f_tolerance");
  CHECK(early_stops(*aggregate(s.f).find("usps", "KDA", 5, 2)).empty());
  for (std::size_t i = 0; i < 4; ++i) set_end(i, i == 3 ? 93 : 100, "x_and_f_tolerance");
  CHECK(early_stops(*aggregate(s.f).find("usps", "KDA", 5, 2)).empty());
  set_end(3, 20, "max_iterations");
  CHECK(early_stops(*aggregate(s.f).find("usps", "KDA", 5, 2)).empty());
  const Aggregate none = aggregate(s.f);
  CHECK_THAT(to_markdown(make_tables(none)[0], none), !Catch::Contains("stopped early"));
}

TEST_CASE("aggregate --metric: a quality measure, selected and tested in its direction",
          "[aggregate]") {
  Synthetic s = synthetic();
  // Quality columns: rnx_auc (higher is better) and stress (lower); each row's rnx_auc mirrors
  // its 1-NN error (1 - e), its stress equals it.
  s.f.quality_names = {"rnx_auc", "stress"};
  s.f.quality_measure = {"rnx_auc", "stress"};
  s.f.quality_k = {0, 0};
  s.f.quality_higher = {true, false};
  for (auto& row : s.f.tasks)
    if (row.result.ok)
      row.result.quality = {1.0 - row.result.knn_error[0], row.result.knn_error[0]};
  AggregateOptions opt;
  opt.metric = "rnx_auc";
  const Aggregate a = aggregate(s.f, opt);
  CHECK(a.k == std::vector<int>{0});
  CHECK(a.higher_better);
  const Cell* kda = a.find("usps", "KDA", 5, 2);
  REQUIRE(kda->chosen());
  // The highest mean rnx_auc is the lowest-error setting.
  CHECK(kda->chosen()->setting == "gamma=0.5");
  CHECK(kda->chosen()->mean[0] == Approx(0.88));
  // PCA's rnx_auc is lower than KDA's on every partition: worse, as its error is.
  const Cell* pca = a.find("usps", "PCA", 5, 2);
  REQUIRE(pca->tested(0));
  CHECK(pca->ttest[0].t < 0);
  CHECK(pca->worse[0]);
  const auto tables = make_tables(a);
  REQUIRE(!tables.empty());
  CHECK(tables[0].name == "usps_rnx_auc");
  CHECK_THAT(tables[0].caption, Catch::Contains("rnx_auc (higher is better)"));
  CHECK_THAT(to_markdown(tables[0], a), Catch::Contains("0.7000 ± 0.0100 †"));
  // stress: lower is better, and the same rows are worse.
  opt.metric = "stress";
  const Aggregate st = aggregate(s.f, opt);
  CHECK_FALSE(st.higher_better);
  CHECK(st.find("usps", "KDA", 5, 2)->chosen()->setting == "gamma=0.5");
  CHECK(st.find("usps", "PCA", 5, 2)->worse[0]);
  opt.metric = "trustworthiness";
  CHECK_THROWS_WITH(aggregate(s.f, opt), Catch::Contains("not stored in this file"));
}
