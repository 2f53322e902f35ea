#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "framework/results/aggregate.hpp"
#include "framework/results/combine.hpp"
#include "framework/results/render.hpp"
#include "results_rows.hpp"

using namespace drbench;
using drbench::testing::usps_row;

namespace {

// Rows of one results file: dataset usps, per_class split, k = 1 only, 3 repeats whose partition
// seeds depend on the split value only (as in a run, where they do not depend on the profile).
struct Piece {
  ResultsFile f;
  explicit Piece(const std::string& path) {
    f.path = path;
    f.k = {1};
    f.repeats = 3;
    f.labels = {"1NN", "PCA", "GPLRF"};
    f.datasets = {"usps"};
    f.ttest_reference = "GPLRF";
  }
  void add(const std::string& label, const std::string& setting, std::vector<double> e,
           double split, std::uint64_t dim = 9) {
    for (std::size_t r = 0; r < e.size(); ++r) {
      TaskRow row =
          usps_row(f.tasks.size(), true, {e[r]}, label, setting, split, static_cast<int>(r), dim);
      row.split_seed = 1000 * static_cast<std::uint64_t>(split) + r;
      f.tasks.push_back(row);
    }
  }
};

// As `drbench aggregate A.h5 B.h5` aggregates the pieces: untested, with the correction the
// files' own reference gets (none, as aggregate() gives one file).
AggregateOptions untested() {
  AggregateOptions o;
  o.reference = "";
  o.correction = "none";
  return o;
}

}  // namespace

TEST_CASE("combine: pieces of a table give the whole run's cells, settings and t-tests",
          "[aggregate][combine]") {
  Piece whole("whole.h5"), a("col10.h5"), b("col20.h5");
  auto both = [&](Piece& p, double split, double shift) {
    p.add("GPLRF", "alpha=1", {0.10 + shift, 0.11 + shift, 0.12 + shift}, split);
    p.add("GPLRF", "alpha=9", {0.20 + shift, 0.22 + shift, 0.21 + shift}, split);
    p.add("PCA", "", {0.30 + shift, 0.33 + shift, 0.31 + shift}, split);
    p.add("1NN", "", {0.12 + shift, 0.11 + shift, 0.125 + shift}, split, 0);
  };
  both(whole, 10, 0.05);
  both(whole, 20, 0.0);
  both(a, 10, 0.05);
  both(b, 20, 0.0);
  const Aggregate ref = aggregate(whole.f);
  const Aggregate pooled = combine_aggregates(
      {aggregate(b.f, untested()), aggregate(a.f, untested())}, {"col20.h5", "col10.h5"}, "GPLRF");
  CHECK(pooled.split_values == std::vector<double>{10, 20});
  CHECK(pooled.labels == ref.labels);
  CHECK(pooled.sources == std::vector<std::string>{"col20.h5", "col10.h5"});
  REQUIRE(pooled.cells.size() == ref.cells.size());
  for (const Cell& c : ref.cells) {
    const Cell* p = pooled.find(c.dataset, c.label, c.split_value, c.dim);
    REQUIRE(p);
    CHECK(p->chosen()->setting == c.chosen()->setting);
    CHECK(p->chosen()->mean[0] == c.chosen()->mean[0]);
    CHECK(p->worse == c.worse);
    CHECK(p->reference_dim == c.reference_dim);
    if (c.tested(0)) CHECK(p->ttest[0].p == c.ttest[0].p);
  }
  CHECK(pooled.find("usps", "PCA", 20, 9)->worse[0]);
  // The tables read the same, but for the line naming the files.
  std::string text = render_tables(pooled, "md");
  const std::string sources =
      "Cells from 2 results files, each cell from one: col20.h5, col10.h5.\n\n";
  REQUIRE(text.rfind(sources, 0) == 0);
  CHECK(text.substr(sources.size()) == render_tables(ref, "md"));
  CHECK_THAT(text, Catch::Contains("† significantly worse than GPLRF (from its dim 9 table)"));
}

TEST_CASE("combine: the reference may sit in another file; the tests pair by partition",
          "[aggregate][combine]") {
  Piece gp("gp.h5"), base("baselines.h5");
  gp.add("GPLRF", "", {0.10, 0.11, 0.12}, 10);
  base.add("PCA", "", {0.30, 0.33, 0.31}, 10);
  const Aggregate pooled = combine_aggregates(
      {aggregate(gp.f, untested()), aggregate(base.f, untested())}, {"gp.h5", "base.h5"}, "GPLRF");
  const Cell* pca = pooled.find("usps", "PCA", 10, 9);
  REQUIRE(pca->tested(0));
  CHECK(pca->ttest[0].n == 3);
  CHECK(pca->worse[0]);
  // Another partition's seeds: nothing to pair, no mark and no promise.
  Piece other("other.h5");
  other.add("PCA", "", {0.30, 0.33, 0.31}, 10);
  for (auto& row : other.f.tasks) row.split_seed += 7;
  const Aggregate unpaired = combine_aggregates(
      {aggregate(gp.f, untested()), aggregate(other.f, untested())}, {"gp.h5", "o.h5"}, "GPLRF");
  CHECK(!unpaired.find("usps", "PCA", 10, 9)->tested(0));
  CHECK_THAT(render_tables(unpaired, "md"), !Catch::Contains("†"));
  CHECK_THROWS_WITH(
      combine_aggregates({aggregate(gp.f, untested())}, {"gp.h5"}, "LDA"),
      Catch::Contains("t-test reference 'LDA' is not a method label in any of the files"));
}

TEST_CASE("combine: a cell in two files, or files that select differently, are refused",
          "[aggregate][combine]") {
  Piece a("a.h5"), b("b.h5");
  a.add("PCA", "", {0.30, 0.33, 0.31}, 10);
  b.add("PCA", "", {0.30, 0.33, 0.31}, 20);
  b.add("PCA", "", {0.20, 0.23, 0.21}, 10);
  CHECK_THROWS_WITH(
      combine_aggregates({aggregate(a.f, untested()), aggregate(b.f, untested())}, {"a.h5", "b.h5"},
                         ""),
      Catch::Contains("cannot put a.h5 and b.h5 in one table: both hold usps / PCA at "
                      "per_class=10, dim 9"));
  Piece c("c.h5");
  c.f.repeats = 4;
  c.add("PCA", "", {0.30, 0.33, 0.31, 0.3}, 30);
  CHECK_THROWS_WITH(combine_aggregates({aggregate(a.f, untested()), aggregate(c.f, untested())},
                                       {"a.h5", "c.h5"}, ""),
                    Catch::Contains("partitions per split value (repeats) differs (3 against 4)"));
  Piece h("h.h5");
  h.f.halving_repeats = 2;
  h.f.halving_keep = 1;
  h.add("PCA", "", {0.30, 0.33, 0.31}, 30);
  CHECK_THROWS_WITH(combine_aggregates({aggregate(a.f, untested()), aggregate(h.f, untested())},
                                       {"a.h5", "h.h5"}, ""),
                    Catch::Contains("successive-halving repeats differs (0 against 2)"));
}

TEST_CASE("combine: an unfinished piece makes the pooled table say so", "[aggregate][combine]") {
  Piece a("a.h5"), b("b.h5");
  a.add("PCA", "", {0.30, 0.33, 0.31}, 10);
  b.add("PCA", "", {0.30}, 20);
  b.f.n_tasks = 3;  // planned 3, holds 1, never stamped finished
  const Aggregate pooled = combine_aggregates(
      {aggregate(a.f, untested()), aggregate(b.f, untested())}, {"a.h5", "b.h5"}, "");
  CHECK_THAT(pooled.incomplete, Catch::StartsWith("incomplete run: b.h5 holds 1 of 3 tasks"));
  CHECK_THAT(render_tables(pooled, "md"), Catch::StartsWith("> **Warning:** incomplete run: b.h5"));
}

TEST_CASE("combine: slices of one experiment in files of their own join into the whole run",
          "[aggregate][combine]") {
  Piece whole("whole.h5");
  whole.add("GPLRF", "alpha=1", {0.10, 0.11, 0.12}, 10);
  whole.add("PCA", "", {0.30, 0.33, 0.31}, 10);
  for (auto& row : whole.f.tasks) row.result.key = "task" + std::to_string(row.result.task_id);
  whole.f.config_hash = "h1";
  whole.f.n_tasks = whole.f.tasks.size();
  whole.f.finished = "2026-11-29T07:00:00Z";
  // Partition 0 in one file, 1 and 2 in another, as `--repeats %a` of a job array writes them;
  // neither slice is stamped finished.
  ResultsFile r0 = whole.f, r12 = whole.f;
  r0.path = "r0.h5";
  r12.path = "r12.h5";
  r0.finished = r12.finished = "";
  r0.started = "2026-11-29T06:00:00Z";
  r12.started = "2026-11-29T06:00:05Z";
  r0.tasks.clear();
  r12.tasks.clear();
  for (const auto& row : whole.f.tasks) (row.repeat == 0 ? r0 : r12).tasks.push_back(row);
  const std::vector<ResultsFile> joined = join_slices({r12, r0});
  REQUIRE(joined.size() == 1);
  CHECK(joined[0].path == "r12.h5, r0.h5");
  CHECK(!joined[0].finished.empty());
  for (std::size_t i = 0; i < joined[0].tasks.size(); ++i)
    CHECK(joined[0].tasks[i].result.task_id == i);
  CHECK(render_tables(aggregate(joined[0], {}), "md") ==
        render_tables(aggregate(whole.f, {}), "md"));
  // One slice alone is an incomplete run; a file of another experiment stays apart; a task in two
  // files is refused.
  CHECK(join_slices({r12})[0].finished.empty());
  ResultsFile other = r0;
  other.config_hash = "h2";
  CHECK(join_slices({r12, other}).size() == 2);
  CHECK_THROWS_WITH(join_slices({r12, r0, r0}),
                    Catch::Contains("cannot join r0.h5 and r0.h5: both hold task"));
}
