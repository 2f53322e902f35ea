#pragma once
// One task, start to finish, on whichever rank got it: load (cached per rank), split, preprocess
// (fitted on the training part only; both cached per rank for each (dataset, split value, repeat)
// group, split_cache.hpp), fit, map the test points, score. Nothing here knows about MPI.
#include <map>
#include <string>
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/core/registry.hpp"
#include "framework/data/dataset.hpp"
#include "framework/plan/task.hpp"
#include "framework/results/task_result.hpp"
#include "framework/sched/split_cache.hpp"

namespace drbench {

// On a terminal: a fit running longer than a few seconds shows its iteration (of its loop's cap),
// objective and an ETA (check_task_deadline, support/time_limit.hpp) every few seconds on the
// progress line. Off by default.
void show_iteration_progress(bool on);

// A failed result of `t` with `error`, shaped as TaskRunner::run shapes its failures (NaN scores),
// for a task whose rank never returned it.
TaskResult failed_result(const Experiment& ex, const Task& t, std::string error);

// Whether method mi's tasks on a sparse dataset fit the sparse points themselves (FitInput::Xs)
// rather than densified ones: the method reads them (MethodInfo::sparse_input), its chain is empty
// (every step but a leading pca densifies, and a pca hands it dense points anyway), it fits under
// the transductive protocol (holdout maps dense test points) and the evaluation asks for no
// quality measure (they compare the input distances of dense points).
bool keeps_sparse(const Experiment& ex, std::size_t mi, const std::vector<PreprocStep>& chain);

class TaskRunner {
 public:
  TaskRunner(const Experiment& ex, std::vector<std::string> search_path)
      : ex_(ex), search_path_(std::move(search_path)) {}

  // Never throws for a problem of the task itself: the error is recorded in the result.
  // `threads`: the fit's and scoring's threads (0: the config's `threads`); a task placed with
  // other ranks of its node held back gets their cores too (framework/sched/placement.hpp).
  TaskResult run(const Task& t, int rank, int threads = 0);

  const Dataset& dataset(std::size_t i);
  // The partition of t's group, preprocessed by t's method's chain (fitted on the training part).
  std::shared_ptr<const PreparedSplit> prepared(const Task& t);
  const SplitCache& split_cache() const { return splits_; }

  // Per rank: a few groups of a large dataset (USPS: 19 MB each) fit; a sweep's tasks of one
  // group are spread over the run by the longest-first order, so more than one is worth keeping.
  static constexpr std::size_t kSplitCacheBytes = std::size_t(256) << 20;

 private:
  void run_inner(const Task& t, TaskResult& r);
  // "out of memory (needed about X GiB ...)": X is the method's memory_of for the shape it was
  // fitting, so a task that slipped past the up-front estimate says what it wanted.
  std::string out_of_memory_message(const Task& t) const;

  const Experiment& ex_;
  std::vector<std::string> search_path_;
  std::map<std::size_t, Dataset> cache_;
  SplitCache splits_{kSplitCacheBytes};
  DataShape fit_shape_;  // of the task in run(); n = 0 until its partition is prepared
};

// The seed of a dataset's own random choices (max_points subsampling, generators): shared by all
// ranks and tasks, so every rank sees the same points.
std::uint64_t dataset_seed(const Experiment& ex, std::size_t dataset_index);

}  // namespace drbench
