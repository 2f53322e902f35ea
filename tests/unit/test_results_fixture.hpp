#pragma once
// A hand-built experiment, task list and results for the results-layer tests (the config parser
// and the task expansion are tested on their own; these tests must not depend on them).
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/core/rng.hpp"
#include "framework/plan/task.hpp"
#include "framework/results/schema.hpp"
#include "framework/results/store.hpp"
#include "framework/results/task_result.hpp"

namespace drbench::testing {

// A fresh directory under the system temp dir, removed with everything in it at scope exit.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() /
           ("drbench-results-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

// The run metadata a results file carries as root attributes.
inline RunInfo toy_run_info(std::string version, std::string started, std::string blas = "",
                            std::string host = "", int ranks = 1) {
  return RunInfo{std::move(version), std::move(blas), std::move(host), std::move(started), ranks};
}

inline ParamSet setting(double gamma) {
  ParamSet p;
  p.set("gamma", gamma);
  p.set("kernel", std::string("rbf"));
  return p;
}

// Two datasets, two split values, `repeats` repeats, methods "PCA" (pca, one setting) and
// "KDA" (kda, gammas), dims.
inline Experiment toy_experiment(const std::string& output, int repeats = 2,
                                 std::vector<double> gammas = {0.5, 2.0},
                                 std::vector<std::uint64_t> dims = {2}) {
  Experiment ex;
  ex.name = "toy";
  ex.file = "configs/toy.yaml";
  ex.text = "name: toy\nseed: 7\nsplits: {per_class: [5, 10], repeats: " + std::to_string(repeats) +
            "}\n";
  ex.seed = 7;
  ex.datasets.resize(2);
  ex.datasets[0].name = "usps";
  ex.datasets[1].name = "wine";
  ex.splits.kind = SplitsSpec::Kind::PerClass;
  ex.splits.values = {5, 10};
  ex.splits.repeats = repeats;
  ex.methods.resize(2);
  ex.methods[0].label = "PCA";
  ex.methods[0].method = "pca";
  ex.methods[0].dims = dims;
  ex.methods[1].label = "KDA";
  ex.methods[1].method = "kda";
  ex.methods[1].dims = dims;
  GridAxis axis{"gamma", {}};
  for (double g : gammas) axis.values.emplace_back(g);
  ex.methods[1].grid.push_back(axis);
  ex.evaluation.knn = {1, 3};
  ex.evaluation.quality = {"trustworthiness"};
  ex.evaluation.ttest_reference = "KDA";
  ex.output.path = output;
  return ex;
}

// Same order as the config: dataset, split value, repeat, method, setting, dim.
inline std::vector<Task> toy_tasks(const Experiment& ex, std::vector<double> gammas = {0.5, 2.0}) {
  std::vector<Task> tasks;
  for (std::size_t d = 0; d < ex.datasets.size(); ++d)
    for (double sv : ex.splits.values)
      for (int rep = 0; rep < ex.splits.repeats; ++rep)
        for (std::size_t m = 0; m < ex.methods.size(); ++m) {
          std::vector<ParamSet> settings;
          if (m == 0)
            settings.push_back(ParamSet());
          else
            for (double g : gammas) settings.push_back(setting(g));
          for (const auto& s : settings)
            for (auto dim : ex.methods[m].dims) {
              const std::string split_id = ex.datasets[d].name +
                                           "|per_class=" + std::to_string(static_cast<int>(sv)) +
                                           "|r" + std::to_string(rep);
              const std::string key = split_id + "|" + ex.methods[m].label + "|" + s.canonical() +
                                      "|d" + std::to_string(dim);
              tasks.push_back(Task{.id = tasks.size(),
                                   .key = key,
                                   .dataset = d,
                                   .split_value = sv,
                                   .repeat = rep,
                                   .method = m,
                                   .setting = s,
                                   .dim = dim,
                                   .split_seed = hash_seed(ex.seed, split_id),
                                   .seed = hash_seed(ex.seed, key)});
            }
        }
  return tasks;
}

inline TaskResult toy_result(const Task& t, double err1, double err3, bool ok = true) {
  TaskResult r;
  r.task_id = t.id;
  r.key = t.key;
  r.ok = ok;
  if (ok) {
    r.knn_error = {err1, err3};
    r.quality = {0.9};
    r.quality_se = {0.015625};
    r.quality_queries = 80;
  } else {
    r.error = "MethodError: scatter matrix is singular (fix: raise 'gamma')";
  }
  r.fit_seconds = 0.25 + t.id;
  r.transform_seconds = 0.125;
  r.eval_seconds = 0.0625;
  r.n_train = 20;
  r.n_test = 80;
  r.input_dim = 256;
  r.rank = 1 + static_cast<int>(t.id % 3);
  return r;
}

// toy_result(t, 0.125, 0.375) with a trace by `optimizer` whose first row is iteration 0,
// objective 3, gradient norm 1, at 0 s, step 0.5: the trace tests add their own rows.
inline TaskResult traced_toy_result(const Task& t, const std::string& optimizer) {
  TaskResult r = toy_result(t, 0.125, 0.375);
  r.trace.optimizer = optimizer;
  r.trace.log(0, 3.0, 1.0, 0.0, 0.5);
  return r;
}

// A results file for `ex` holding result_of(task) for each task it gives one for (nullopt: the
// task did not run), written as a snapshot with default run metadata.
template <class F>
void write_results(const Experiment& ex, const std::vector<Task>& tasks, F&& result_of) {
  ResultsStore store(ex, tasks, RunInfo{}, false);
  for (const Task& t : tasks)
    if (const std::optional<TaskResult> r = result_of(t)) store.add(*r);
  store.write_hdf5();
}

// What an interrupted run leaves: tasks[0] in the results file, tasks[1] only in its journal.
inline void write_snapshot_and_journal(const Experiment& ex, const std::vector<Task>& tasks,
                                       const RunInfo& info) {
  ResultsStore store(ex, tasks, info, false);
  store.add(toy_result(tasks[0], 0.5, 0.25));
  store.write_hdf5();
  store.set_snapshot_interval(1e9);
  store.add(toy_result(tasks[1], 0.5, 0.25));  // journal only
  store.commit();
}

}  // namespace drbench::testing
