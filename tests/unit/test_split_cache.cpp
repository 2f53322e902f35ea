// Work done once per (dataset, split value, repeat) group: the partition and the fitted
// preprocessing are computed once per rank and reused by every task of the group, with the same
// results as computing them per task, and the cache keeps to its byte budget.
#include <catch2/catch.hpp>

#include "framework/config/experiment.hpp"
#include "framework/sched/run_task.hpp"
#include "framework/sched/split_cache.hpp"
#include "framework/plan/task.hpp"

using namespace drbench;

namespace {

PreparedSplit block(arma::uword n) {
  PreparedSplit p;
  p.Xfit = arma::mat(10, n, arma::fill::ones);  // 80 n bytes
  return p;
}

const char* kGroups = R"(seed: 3
datasets:
  - name: iris
    source: bundled
    preprocess: [{standardize: {}}]
splits: {train_ratio: [0.3, 0.5], repeats: 2}
methods:
  - {method: pca, dims: [2]}
  - {method: lda, dims: [2]}
  - {method: pca, label: raw, dims: [2], preprocess: []}
evaluation: {knn: [1]}
output: {path: unused.h5, keep_embeddings: true}
)";

}  // namespace

TEST_CASE("split cache: least recently used entries leave first, within the byte budget",
          "[sched][split_cache]") {
  SplitCache c(2000);
  c.insert("a", block(10));  // 800 bytes
  c.insert("b", block(10));
  CHECK(c.size() == 2);
  REQUIRE(c.find("a"));      // a is now the most recent
  c.insert("c", block(10));  // 2400 > 2000: b goes
  CHECK(c.size() == 2);
  CHECK(c.find("b") == nullptr);
  CHECK(c.find("a"));
  CHECK(c.find("c"));
  CHECK(c.bytes() == 1600);
  // An entry larger than the budget is kept alone: the task in hand needs it.
  c.insert("big", block(100));
  CHECK(c.size() == 1);
  CHECK(c.find("big"));
  CHECK(c.hits() == 4);
  CHECK(c.misses() == 1);
}

TEST_CASE("task runner: one partition and preprocessing per group, results unchanged",
          "[sched][split_cache]") {
  const Experiment ex = parse_experiment(kGroups, "groups.yaml");
  const std::vector<Task> tasks = expand_tasks(ex);
  REQUIRE(tasks.size() == 12);  // 2 values x 2 repeats x 3 methods
  // Groups: 4 (value, repeat) pairs x 2 chains (the dataset's, and 'raw' with none).
  TaskRunner shared(ex, {});
  std::vector<TaskResult> first;
  for (const Task& t : tasks) first.push_back(shared.run(t, 0));
  CHECK(shared.split_cache().misses() == 8);
  CHECK(shared.split_cache().hits() == 4);
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    INFO(tasks[i].key);
    REQUIRE(first[i].ok);
    REQUIRE(first[i].embedding_test.n_elem > 0);  // kept, so the comparison below means something
    // A fresh runner per task computes everything anew: the same numbers to the bit.
    TaskRunner alone(ex, {});
    const TaskResult r = alone.run(tasks[i], 0);
    CHECK(r.knn_error == first[i].knn_error);
    CHECK(r.n_train == first[i].n_train);
    CHECK(r.n_test == first[i].n_test);
    CHECK(arma::approx_equal(r.embedding_train, first[i].embedding_train, "absdiff", 0.0));
    CHECK(arma::approx_equal(r.embedding_test, first[i].embedding_test, "absdiff", 0.0));
  }
}
