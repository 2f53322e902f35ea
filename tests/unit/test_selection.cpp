// selection: validation: the config, the inner tasks and their splits, the rounds a run goes
// through, and how resumed files compare.
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "framework/budget/budget.hpp"
#include "framework/config/experiment.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/data/split.hpp"
#include "framework/results/selection.hpp"
#include "framework/sched/halving.hpp"

using namespace drbench;

namespace {

const std::string kBase =
    "datasets: [{name: iris, source: bundled}]\n"
    "splits: {train_ratio: [0.3, 0.6], repeats: 3}\n"
    "methods:\n"
    "  - {method: lda, label: LDA, dims: [1, 2], grid: {ridge: [1.0e-6, 0.1, 10]}}\n"
    "  - {method: pca, label: PCA, dims: [2]}\n";

Experiment with(const std::string& evaluation) {
  return parse_experiment(kBase + evaluation, "s.yaml");
}

}  // namespace

TEST_CASE("a config stating no selection validates; the rule's options are checked",
          "[selection][config]") {
  const Experiment plain = parse_experiment(kBase, "s.yaml");
  CHECK(plain.evaluation.validated());
  CHECK(plain.evaluation.inner_splits() == 1);
  CHECK(plain.evaluation.validation_fraction == 0.25);
  const Experiment folds = with("evaluation: {selection: {rule: validation, folds: 4}}\n");
  CHECK(folds.evaluation.inner_splits() == 4);
  CHECK_FALSE(with("evaluation: {selection: min_mean_error}\n").evaluation.validated());
  const Experiment halved =
      with("evaluation: {selection: {fraction: 0.4, halving: {repeats: 1, keep: 2}}}\n");
  CHECK(halved.evaluation.validated());
  CHECK(halved.evaluation.halving_keep == 2);
  CHECK(halved.evaluation.validation_fraction == 0.4);
  CHECK_THROWS_WITH(with("evaluation: {selection: {rule: min_mean_error, folds: 3}}\n"),
                    Catch::Contains("selection.folds") && Catch::Contains("rule: validation"));
  CHECK_THROWS_WITH(with("evaluation: {selection: {folds: 3, fraction: 0.2}}\n"),
                    Catch::Contains("not both"));
  CHECK_THROWS_WITH(with("evaluation: {selection: {fraction: 1.5}}\n"),
                    Catch::Contains("must lie in (0, 1)"));
  CHECK_THROWS_WITH(with("evaluation: {selection: {folds: 1}}\n"), Catch::Contains("folds"));
}

TEST_CASE("inner tasks follow the outer ones, which keep their ids, keys and seeds",
          "[selection][tasks]") {
  const auto oracle = expand_tasks(with("evaluation: {selection: min_mean_error}\n"));
  const auto valid = expand_tasks(with("evaluation: {selection: {folds: 3}}\n"));
  // LDA: 3 settings x 2 dims x 2 splits x 3 repeats x 3 folds; PCA (one setting) gets none.
  REQUIRE(valid.size() == oracle.size() + 3 * 2 * 2 * 3 * 3);
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    CHECK(valid[i].key == oracle[i].key);
    CHECK(valid[i].seed == oracle[i].seed);
    CHECK(valid[i].fold == -1);
  }
  std::set<std::uint64_t> seeds;
  for (std::size_t i = oracle.size(); i < valid.size(); ++i) {
    const Task& t = valid[i];
    CHECK(t.id == i);
    CHECK(t.fold >= 0);
    CHECK(t.key.find("|r" + std::to_string(t.repeat) + "|v" + std::to_string(t.fold) + "|LDA|") !=
          std::string::npos);
    CHECK(label_of_key(t.key) == "LDA");
    seeds.insert(t.seed);
  }
  CHECK(seeds.size() == valid.size() - oracle.size());  // every inner fit has its own seed
}

TEST_CASE("inner splits are stratified, disjoint and hold no test point", "[selection][data]") {
  Dataset ds;
  ds.name = "toy";
  ds.n_classes = 3;
  ds.y = arma::uvec{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
  ds.X.zeros(2, ds.y.n_elem);
  Partition outer;
  outer.train = arma::regspace<arma::uvec>(0, 2, ds.y.n_elem - 1);  // 3, 4 and 5 per class
  outer.test = arma::regspace<arma::uvec>(1, 2, ds.y.n_elem - 1);
  const std::set<arma::uword> train(outer.train.begin(), outer.train.end());

  const Partition f = inner_partition(ds, outer, 0, 0.25, 0, 9);
  CHECK(f.train.n_elem + f.test.n_elem == outer.train.n_elem);
  for (arma::uword j : f.test) CHECK(train.count(j) == 1);
  for (arma::uword j : f.train) CHECK(train.count(j) == 1);
  // llround(0.25 x 3, 4, 5) = 1, 1, 1 held out per class.
  for (arma::uword c = 0; c < 3; ++c) CHECK(arma::accu(ds.y.elem(f.test) == c) == 1);
  CHECK(arma::all(inner_partition(ds, outer, 0, 0.25, 0, 9).test == f.test));  // seeded
  CHECK_FALSE(arma::all(inner_partition(ds, outer, 0, 0.25, 0, 10).test == f.test));

  std::multiset<arma::uword> held;
  for (int fold = 0; fold < 3; ++fold) {
    const Partition p = inner_partition(ds, outer, 3, 0, fold, 9);
    held.insert(p.test.begin(), p.test.end());
    CHECK(p.train.n_elem + p.test.n_elem == outer.train.n_elem);
    CHECK(p.test.n_elem == 4);  // 12 points dealt to 3 folds in turn across classes
  }
  CHECK(held == std::multiset<arma::uword>(train.begin(), train.end()));  // each once
  CHECK_THROWS_AS(inner_partition(ds, outer, 20, 0, 19, 9), DataError);   // an empty fold
}

TEST_CASE("a run wants the inner tasks first, then the chosen setting's test-point task",
          "[selection][halving]") {
  const Experiment ex = with("evaluation: {selection: {folds: 2}}\n");
  const auto tasks = expand_tasks(ex);
  std::map<std::uint64_t, TaskResult> results;
  auto result = [&](std::uint64_t id) -> const TaskResult* {
    auto it = results.find(id);
    return it == results.end() ? nullptr : &it->second;
  };
  const auto first = wanted_tasks(ex, tasks, result);
  for (std::uint64_t id : first) {
    const Task& t = tasks[id];
    CHECK((t.fold >= 0 || ex.methods[t.method].label == "PCA"));
  }
  // Ridge 0.1 wins every partition's inner splits, except one fold of ridge 10 that failed.
  for (std::uint64_t id : first) {
    TaskResult r;
    r.task_id = id;
    const Task& t = tasks[id];
    const std::string ridge = t.setting.canonical();
    r.ok = !(ridge.find("ridge=10") != std::string::npos && t.fold == 1 && t.repeat == 0);
    r.knn_error = {ridge.find("ridge=0.1") != std::string::npos ? 0.2 : 0.1};
    if (ridge.find("ridge=10") == std::string::npos) r.knn_error = {0.3};
    if (ridge.find("ridge=0.1") != std::string::npos) r.knn_error = {0.2};
    results[id] = r;
  }
  const auto second = wanted_tasks(ex, tasks, result);
  std::size_t outer_lda = 0;
  for (std::uint64_t id : second) {
    const Task& t = tasks[id];
    if (t.fold >= 0 || ex.methods[t.method].label != "LDA") continue;
    ++outer_lda;
    // ridge 10 (0.1 inner error) where all its folds ran; ridge 0.1 (0.2) where one failed.
    CHECK(t.setting.canonical().find(t.repeat == 0 ? "ridge=0.1" : "ridge=10") !=
          std::string::npos);
  }
  CHECK(outer_lda == 2 * 2 * 3);  // one per dim, split and repeat
  CHECK(second.size() == first.size() + outer_lda);
  CHECK(planned_tasks(ex, tasks) == second.size());
}

TEST_CASE("choose_validated: lowest mean, failures out, ties by name", "[selection]") {
  const auto chosen = choose_validated({{"p", "b", true, 0.1},
                                        {"p", "b", true, 0.3},
                                        {"p", "a", true, 0.2},
                                        {"p", "c", false, 0.0},
                                        {"q", "z", true, 0.5},
                                        {"q", "y", true, 0.5},
                                        {"r", "x", false, 0.0}});
  CHECK(chosen.at("p") == "a");  // b's mean 0.2 ties a's: a comes first by name
  CHECK(chosen.at("q") == "y");
  CHECK(chosen.count("r") == 0);
}

TEST_CASE("normalised configs spell the selection rule out", "[selection][config]") {
  const std::string none = "seed: 1\nevaluation: {knn: [1]}\n";
  const std::string oracle = "seed: 1\nevaluation: {knn: [1], selection: min_mean_error}\n";
  const std::string valid = "seed: 1\nevaluation: {knn: [1], selection: {rule: validation}}\n";
  CHECK(normalised_config(none) == normalised_config(valid));
  CHECK(normalised_config(none) != normalised_config(oracle));
  // A file written before the rule was recorded ran under min_mean_error.
  CHECK(normalised_config(none, kSettingsVersion, "min_mean_error") == normalised_config(oracle));
  CHECK(normalised_config("seed: 1\n") == normalised_config("seed: 1\nevaluation: {}\n"));
}

// The plan and the dispatcher's order read these costs: an inner fit of a holdout method sees the
// inner training part; a transductive one keeps the partition's estimate.
TEST_CASE("task costs: inner fits at the inner split's size", "[selection][tasks]") {
  const Experiment ex = parse_experiment(
      "datasets: [{name: iris, source: bundled}]\n"
      "splits: {train_ratio: [0.3], repeats: 1}\n"
      "methods:\n"
      "  - {method: lda, label: LDA, dims: [2], grid: {ridge: [1.0e-6, 0.1]}}\n"
      "  - {method: umap, label: UMAP, dims: [2], protocol: transductive,\n"
      "     grid: {neighbours: [5, 10]}}\n"
      "evaluation: {selection: {folds: 3}}\n",
      "c.yaml");
  const DataShape train{450, 4, 3};
  const auto tasks = expand_tasks(ex, {train});
  const MethodInfo& lda = Registry::instance().get("lda");
  const MethodInfo& umap = Registry::instance().get("umap");
  DataShape inner = train;
  inner.n = 300;  // 2/3 of the partition's training points with 3 folds
  std::size_t inner_lda = 0;
  for (const Task& t : tasks) {
    INFO(t.key);
    const bool is_lda = t.method == 0;
    const DataShape& want = t.fold >= 0 && is_lda ? inner : train;
    CHECK(t.cost == Approx(cost_of(is_lda ? lda : umap, want, t.setting, 2)));
    inner_lda += t.fold >= 0 && is_lda;
  }
  CHECK(inner_lda == 2 * 3);
  CHECK(cost_of(lda, inner, tasks[0].setting, 2) < cost_of(lda, train, tasks[0].setting, 2));
}

// A transductive method beside holdout ones embeds the training and the test points: its cost is
// estimated on both, while the shapes check_dataset measures there count the training points
// only. The holdout method keeps the training shape; a config of transductive methods only
// already measures the joint shape, and nothing is added to it.
TEST_CASE("task costs: a transductive method in a mixed config counts the test points",
          "[selection][tasks]") {
  const std::string methods =
      "  - {method: umap, label: UMAP, dims: [2], protocol: transductive}\n";
  const std::string lda_line = "  - {method: lda, label: LDA, dims: [2]}\n";
  const std::string head =
      "datasets: [{name: iris, source: bundled}]\n"
      "splits: {train_ratio: [0.3, 0.6], repeats: 1}\n"
      "evaluation: {selection: min_mean_error}\n"
      "methods:\n";
  const Experiment mixed = parse_experiment(head + lda_line + methods, "m.yaml");
  const MethodInfo& lda = Registry::instance().get("lda");
  const MethodInfo& umap = Registry::instance().get("umap");
  const DataShape train{45, 4, 3}, full{150, 4, 3};
  const auto tasks = expand_tasks(mixed, {train}, {full});
  REQUIRE(tasks.size() == 4);
  for (const Task& t : tasks) {
    INFO(t.key);
    DataShape fit = train;
    fit.n = t.split_value == 0.3 ? 45 : 90;  // scaled with the split value
    if (t.method == 1) fit.n = 150;          // train + test = every point at either split
    CHECK(t.cost == Approx(cost_of(t.method == 0 ? lda : umap, fit, t.setting, 2)));
  }
  CHECK(tasks[1].cost > cost_of(umap, train, tasks[1].setting, 2));
  // Without the loaded shapes (the old call), the training shape as before.
  CHECK(expand_tasks(mixed, {train})[1].cost == Approx(cost_of(umap, train, tasks[1].setting, 2)));

  // test_per_class: the test points are that many of each class, not the rest of the data.
  const Experiment per = parse_experiment(
      "datasets: [{name: iris, source: bundled}]\n"
      "splits: {train_per_class: [10], test_per_class: 5, repeats: 1}\n"
      "evaluation: {selection: min_mean_error}\n"
      "methods:\n" +
          lda_line + methods,
      "p.yaml");
  const DataShape train30{30, 4, 3};
  DataShape joint = train30;
  joint.n = 30 + 15;
  const auto per_tasks = expand_tasks(per, {train30}, {full});
  CHECK(per_tasks[1].cost == Approx(cost_of(umap, joint, per_tasks[1].setting, 2)));

  // Transductive only: check_dataset's shape is already the joint one.
  const Experiment only = parse_experiment(head + methods, "t.yaml");
  const DataShape joint150{150, 4, 3};
  const auto only_tasks = expand_tasks(only, {joint150}, {full});
  CHECK(only_tasks[0].cost == Approx(cost_of(umap, joint150, only_tasks[0].setting, 2)));
}
