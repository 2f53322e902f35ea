// Successive halving: which second-stage tasks run, how many tasks a run plans, and the config.
#include <catch2/catch.hpp>
#include <map>

#include "framework/config/experiment.hpp"
#include "framework/core/error.hpp"
#include "framework/sched/halving.hpp"

using namespace drbench;

namespace {

const std::string kBase =
    "datasets: [{name: iris, source: bundled}]\n"
    "splits: {train_ratio: [0.3, 0.6], repeats: 5}\n"
    "methods:\n"
    "  - {method: lda, label: LDA, dims: [1, 2], grid: {ridge: [1.0e-6, 0.1, 10]}}\n"
    "  - {method: pca, label: PCA, dims: [2]}\n";

}  // namespace

TEST_CASE("halving keeps the best settings of every cell for the later repeats", "[halving]") {
  const Experiment ex = parse_experiment(kBase +
                                             "evaluation: {knn: [1], selection: {rule: "
                                             "min_mean_error, halving: {repeats: 2, keep: 1}}}\n",
                                         "h.yaml");
  const std::vector<Task> tasks = expand_tasks(ex);
  REQUIRE(tasks.size() == 2 * 5 * (3 * 2 + 1));
  // LDA: reg 10 best everywhere except at ratio 0.6, dim 1, where reg 0.1 is; a failed first-stage
  // task of reg 1e-6 at ratio 0.3 puts it last whatever its other error.
  std::map<std::uint64_t, TaskResult> results;
  for (const auto& t : tasks) {
    if (!first_stage(ex, t)) continue;
    TaskResult r;
    r.ok = true;
    const std::string reg = t.setting.has("ridge") ? to_string(t.setting.values().at("ridge")) : "";
    double e = reg == "10" ? 0.1 : reg == "0.1" ? 0.2 : 0.3;
    if (t.split_value == 0.6 && t.dim == 1 && reg == "0.1") e = 0.05;
    if (ex.methods[t.method].label == "LDA" && reg == "1e-06" && t.split_value == 0.3) {
      e = 0.0;
      r.ok = t.repeat != 1;
    }
    r.knn_error = {e};
    results[t.id] = r;
  }
  const auto kept = halving_survivors(ex, tasks, [&](std::uint64_t id) -> const TaskResult* {
    auto it = results.find(id);
    return it == results.end() ? nullptr : &it->second;
  });
  std::size_t lda = 0, pca = 0;
  for (std::uint64_t id : kept) {
    const Task& t = tasks[id];
    CHECK(t.repeat >= 2);
    if (ex.methods[t.method].label == "PCA") {
      ++pca;
      continue;
    }
    ++lda;
    const std::string reg = to_string(t.setting.values().at("ridge"));
    CHECK(reg == (t.split_value == 0.6 && t.dim == 1 ? "0.1" : "10"));
  }
  CHECK(lda == 2 * 2 * 3);  // splits x dims x later repeats, one setting each
  CHECK(pca == 2 * 3);
  CHECK(halving_planned(ex, tasks) == 2 * 2 * (3 * 2 + 1) + kept.size());

  // Without a result the first stage counts as failed: nothing is chosen over a complete setting.
  const auto none = halving_survivors(ex, tasks, [](std::uint64_t) { return nullptr; });
  CHECK(none.size() == kept.size());

  // The plan's stages (`drbench plan`): the run's own first stage, then its survivors once the
  // first stage has results, else each cell's costliest settings.
  const ResultOf result_of = [&](std::uint64_t id) -> const TaskResult* {
    auto it = results.find(id);
    return it == results.end() ? nullptr : &it->second;
  };
  std::vector<double> seconds(tasks.size(), 1.0);
  for (const auto& t : tasks)
    if (t.setting.has("ridge") && to_string(t.setting.values().at("ridge")) == "1e-06")
      seconds[t.id] = 5.0;
  const RunStages done = run_stages(ex, tasks, seconds, result_of);
  REQUIRE(done.stages.size() == 2);
  CHECK(done.first_done);
  CHECK(done.stages[0] == wanted_tasks(ex, tasks, [](std::uint64_t) { return nullptr; }));
  CHECK(done.stages[0].size() == 2 * 2 * (3 * 2 + 1));
  CHECK(done.stages[1] == kept);
  const RunStages before = run_stages(ex, tasks, seconds, [](std::uint64_t) { return nullptr; });
  REQUIRE(before.stages.size() == 2);
  CHECK_FALSE(before.first_done);
  CHECK(before.stages[0] == done.stages[0]);
  CHECK(before.stages[1] == halving_costliest(ex, tasks, seconds));
  for (std::uint64_t id : before.stages[1])
    if (tasks[id].setting.has("ridge"))
      CHECK(to_string(tasks[id].setting.values().at("ridge")) == "1e-06");
}

TEST_CASE("halving is off by default and checked in the config", "[halving][config]") {
  const Experiment plain = parse_experiment(kBase, "c.yaml");
  CHECK_FALSE(halving_on(plain));
  const auto tasks = expand_tasks(plain);
  CHECK(halving_planned(plain, tasks) == tasks.size());
  CHECK(parse_experiment(kBase + "evaluation: {selection: min_mean_error}\n", "c.yaml")
            .evaluation.halving_repeats == 0);
  CHECK_THROWS_WITH(
      parse_experiment(kBase + "evaluation: {selection: {halving: {repeats: 5, keep: 1}}}\n",
                       "c.yaml"),
      Catch::Contains("halving.repeats") && Catch::Contains("splits.repeats is 5"));
  CHECK_THROWS_WITH(
      parse_experiment(kBase + "evaluation: {selection: {halving: {repeats: 2}}}\n", "c.yaml"),
      Catch::Contains("keep"));
  CHECK_THROWS_WITH(
      parse_experiment(kBase + "evaluation: {selection: {halving: {repeats: 2, kept: 1}}}\n",
                       "c.yaml"),
      Catch::Contains("kept"));
  CHECK_THROWS_AS(parse_experiment(kBase + "evaluation: {selection: best}\n", "c.yaml"),
                  ConfigError);
}
