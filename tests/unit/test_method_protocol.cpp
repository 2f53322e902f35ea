// A protocol per method entry (docs/config.md, "A protocol per method"): the entry's `protocol`
// overrides evaluation.protocol, `auto` picks holdout where the method maps new points, a config
// without protocol keys expands to the tasks it always did, and the tables show each row's
// protocol (a column where they mix, the caption where they do not).
#include <catch2/catch.hpp>

#include "framework/config/experiment.hpp"
#include "framework/core/error.hpp"
#include "framework/plan/task.hpp"
#include "framework/results/aggregate.hpp"
#include "framework/results/combine.hpp"
#include "framework/results/ranks.hpp"
#include "results_rows.hpp"
#include "unit/error_message.hpp"

using namespace drbench;
using namespace drbench::testing;

namespace {

const std::string kHead =
    "seed: 3\ndatasets: [{name: iris, source: bundled}]\nsplits: {train_ratio: [0.5], repeats: "
    "2}\n";

std::vector<std::string> protocols(const Experiment& ex) {
  std::vector<std::string> out;
  for (const auto& m : ex.methods) out.push_back(protocol_name(m.protocol));
  return out;
}

}  // namespace

TEST_CASE("method entries name their protocol; auto follows the out-of-sample map",
          "[protocol][config]") {
  const Experiment ex = parse_experiment(kHead + R"(methods:
  - {method: pca, dims: [2]}
  - {method: lda, dims: [2], protocol: holdout}
  - {method: tsne, dims: [2]}
  - {method: umap, dims: [2], protocol: transductive}
  - {method: pacmap, dims: [2], protocol: auto}
evaluation: {protocol: auto}
)",
                                         "cfg/m.yaml");
  CHECK(protocols(ex) == std::vector<std::string>{"holdout", "holdout", "transductive",
                                                  "transductive", "transductive"});
  // Without evaluation.protocol the entries default to holdout, as every config before.
  const Experiment plain = parse_experiment(
      kHead + "methods: [{method: pca, dims: [2]}, {method: tsne, dims: [2], protocol: auto}]\n",
      "cfg/p.yaml");
  CHECK(protocols(plain) == std::vector<std::string>{"holdout", "transductive"});
  // Under splits: {all: true} there is nothing to hold out: auto is transductive for every method.
  const Experiment all = parse_experiment(
      "datasets: [{name: iris, source: bundled}]\nsplits: {all: true}\n"
      "methods: [{method: pca, dims: [2]}]\nevaluation: {protocol: auto}\n",
      "cfg/a.yaml");
  CHECK(protocols(all) == std::vector<std::string>{"transductive"});
}

TEST_CASE("a method that cannot run under its protocol: the error names the entry and the fix",
          "[protocol][config]") {
  const std::string t = config_error(kHead + "methods:\n  - {method: tsne, dims: [2]}\n", "c.yaml");
  CHECK_THAT(t, Catch::Contains("c.yaml:5: 'methods[0].method': method 'tsne' has no "
                                "out-of-sample map"));
  CHECK_THAT(t, Catch::Contains("set protocol: transductive (or protocol: auto) on this entry"));
  // Named on the entry: the error points at that key and asks for another value.
  const std::string l = config_error(
      kHead + "methods:\n  - method: lda\n    dims: [2]\n    protocol: transductive\n", "c.yaml");
  CHECK_THAT(l, Catch::Contains("c.yaml:7: 'methods[0].protocol': method 'lda' is supervised"));
  CHECK_THAT(l, Catch::Contains("(fix: set protocol: holdout (or protocol: auto), or drop"));
  CHECK_THAT(
      config_error(kHead + "methods: [{method: pca, dims: [2], protocol: inductive}]\n", "c.yaml"),
      Catch::Contains("'methods[0].protocol'"));
  CHECK_THAT(config_error("datasets: [{name: iris, source: bundled}]\nsplits: {all: true}\n"
                          "methods: [{method: pca, dims: [2], protocol: holdout}]\n"
                          "evaluation: {protocol: transductive}\n",
                          "c.yaml"),
             Catch::Contains("'methods[0].protocol': 'all: true' leaves no held-out test points"));
}

TEST_CASE("protocol keys change no task key or seed", "[protocol][config]") {
  const std::string methods =
      "methods:\n  - {method: pca, dims: [2]}\n  - {method: lda, dims: [1, 2]}\n";
  const auto before = expand_tasks(parse_experiment(kHead + methods, "a.yaml"));
  const auto stated =
      expand_tasks(parse_experiment(kHead + methods + "evaluation: {protocol: auto}\n", "b.yaml"));
  REQUIRE(before.size() == 6);
  REQUIRE(stated.size() == before.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    CHECK(stated[i].key == before[i].key);
    CHECK(stated[i].seed == before[i].seed);
    CHECK(stated[i].split_seed == before[i].split_seed);
  }
  // The key format of docs/results-format.md, unchanged: no protocol field.
  CHECK(before[0].key.rfind("iris|ratio=0.5|r0|pca|", 0) == 0);
}

namespace {

ResultsFile mixed_file() {
  ResultsFile f;
  f.path = "mixed.h5";
  f.k = {1};
  f.repeats = 3;
  f.labels = {"PCA", "t-SNE"};
  f.datasets = {"usps"};
  f.ttest_reference = "PCA";
  std::uint64_t id = 0;
  for (const auto& [label, protocol, base] :
       {std::tuple<std::string, std::string, double>{"PCA", "holdout", 0.30},
        {"t-SNE", "transductive", 0.10}})
    for (int r = 0; r < 3; ++r) {
      TaskRow row = usps_row(id++, true, {base + 0.01 * r}, label, "", 5, r, 2);
      row.split_seed = 100 + std::uint64_t(r);
      row.protocol = protocol;
      f.tasks.push_back(row);
    }
  return f;
}

}  // namespace

TEST_CASE("tables show each row's protocol: a column where they mix, the caption where not",
          "[protocol][aggregate]") {
  const Aggregate a = aggregate(mixed_file());
  CHECK(a.protocols() == std::vector<std::string>{"holdout", "transductive"});
  const auto tables = make_tables(a);
  REQUIRE(tables.size() == 1);
  const Table& t = tables[0];
  CHECK(t.mixed_protocols());
  CHECK_THAT(t.caption, Catch::Contains("; protocols differ by row (holdout: fitted on the "
                                        "training points, test points mapped; transductive: "));
  CHECK_THAT(t.caption, Catch::Contains("the t-tests compare rows of different protocols too"));
  const std::string md = to_markdown(t, a);
  CHECK_THAT(md, Catch::Contains("| method | protocol | per_class=5 | failed |\n|---|---|---:|"));
  CHECK_THAT(md, Catch::Contains("| t-SNE | transductive | **11.00 ± 1.00** |"));
  const std::string csv = to_csv(t, a);
  CHECK_THAT(csv,
             Catch::StartsWith("dataset,method,split_kind,split_value,dim,k,mean_error_pct,"
                               "std_error_pct,n,setting,p_value,worse,failed,best,reference,test,"
                               "correction,p_adjusted,mean_diff,ci95_low,ci95_high,protocol\n"));
  CHECK_THAT(csv,
             Catch::Contains(
                 "usps,PCA,per_class,5,2,1,31.0000,1.0000,3,,,0,0,0,,ttest,none,,,,,holdout\n"));
  CHECK_THAT(to_latex(t, a), Catch::Contains("t-SNE & transductive & $\\mathbf{11.00 \\pm 1.00}$"));
  CHECK_THAT(to_long_csv(a, false), Catch::Contains(",failed,protocol\n"));
  CHECK_THAT(rank_markdown(rank_methods(a)),
             Catch::Contains("methods of different protocols ranked together: holdout: PCA; "
                             "transductive: t-SNE"));

  // One protocol: no column, the caption names it, and the csv keeps its columns.
  ResultsFile one = mixed_file();
  for (auto& row : one.tasks) row.protocol = "transductive";
  const Aggregate b = aggregate(one);
  const Table u = make_tables(b).at(0);
  CHECK_FALSE(u.mixed_protocols());
  CHECK_THAT(u.caption, Catch::EndsWith("; transductive protocol (training and test points "
                                        "embedded together, test labels hidden)"));
  CHECK_THAT(to_markdown(u, b), Catch::Contains("| method | per_class=5 | failed |"));
  CHECK_THAT(to_csv(u, b), Catch::Contains(",ci95_low,ci95_high\n"));
  CHECK_THAT(rank_markdown(rank_methods(b)), !Catch::Contains("different protocols"));
}

// Aggregate options with the tests off.
static AggregateOptions no_tests() {
  AggregateOptions o;
  o.reference = std::string();
  return o;
}

TEST_CASE("files of different protocols combine into one table that says so",
          "[protocol][aggregate]") {
  ResultsFile hold = mixed_file(), trans = mixed_file();
  hold.tasks.resize(3);                                             // PCA, holdout
  trans.tasks.erase(trans.tasks.begin(), trans.tasks.begin() + 3);  // t-SNE, transductive
  const Aggregate a = combine_aggregates(
      {aggregate(hold, no_tests()), aggregate(trans, no_tests())}, {"hold.h5", "trans.h5"}, "PCA");
  const Table t = make_tables(a).at(0);
  CHECK(t.protocol == std::vector<std::string>{"holdout", "transductive"});
  CHECK_THAT(t.caption, Catch::Contains("the t-tests compare rows of different protocols too"));
  CHECK_THAT(to_markdown(t, a), Catch::Contains("| PCA | holdout | 31.00 ± 1.00 |"));
}

TEST_CASE("pooled labels (--pool-labels) never choose a setting across protocols", "[protocol][aggregate]") {
  AggregateOptions opt;
  opt.pool_labels = {{"*", "any"}};
  CHECK_THROWS_WITH(aggregate(mixed_file(), opt),
                    Catch::Contains("into any beside holdout rows; one cell chooses among "
                                    "settings of one protocol"));
}
