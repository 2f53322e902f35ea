#pragma once
// One task, start to finish, on whichever rank got it: load (cached per rank), split, preprocess
// (fitted on the training part only), fit, map the test points, score. Nothing here knows about MPI.
#include <map>
#include <string>
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/data/dataset.hpp"
#include "framework/results/task_result.hpp"
#include "framework/sched/task.hpp"

namespace drbench {

class TaskRunner {
 public:
  TaskRunner(const Experiment& ex, std::vector<std::string> search_path)
      : ex_(ex), search_path_(std::move(search_path)) {}

  // Never throws for a problem of the task itself: the error is recorded in the result.
  TaskResult run(const Task& t, int rank);

  const Dataset& dataset(std::size_t i);

 private:
  void run_inner(const Task& t, TaskResult& r);

  const Experiment& ex_;
  std::vector<std::string> search_path_;
  std::map<std::size_t, Dataset> cache_;
};

// The seed of a dataset's own random choices (max_points subsampling, generators): shared by all
// ranks and tasks, so every rank sees the same points.
std::uint64_t dataset_seed(const Experiment& ex, std::size_t dataset_index);

}  // namespace drbench
