#pragma once
// Successive halving as a selection rule (evaluation.selection: {halving: {repeats: R, keep: K}}):
// every setting of a cell (dataset, method label, split value, dim) runs on the first R repeats;
// only the K settings with the lowest mean error there (first k of evaluation.knn) run on the
// remaining repeats, and the tables choose among those. A setting with a failed first-stage task
// ranks after every complete one. The second stage depends only on first-stage results, which do
// not depend on ranks or order, so neither does the set of tasks that runs.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "framework/plan/task.hpp"
#include "framework/results/task_result.hpp"

namespace drbench {

bool halving_on(const Experiment& ex);
// A first-stage task (every task when halving is off).
bool first_stage(const Experiment& ex, const Task& t);
// A task whose error takes part in choosing a setting: every task under min_mean_error, the inner
// tasks under validation (successive halving then works on the inner error).
bool selecting(const Experiment& ex, const Task& t);

using ResultOf = std::function<const TaskResult*(std::uint64_t id)>;

// The ids (ascending) the run wants, given the results so far: under min_mean_error every task,
// or with halving the first stage, then its survivors once it is complete. Under validation the
// inner tasks (halved the same way) and the test-point tasks of methods with one setting, then,
// for each partition of a cell whose inner tasks are all done, the test-point task of the setting
// choose_validated picks. A run dispatches what is wanted and not done until that is nothing.
std::vector<std::uint64_t> wanted_tasks(const Experiment& ex, const std::vector<Task>& tasks,
                                        const ResultOf& result);

// How many tasks the run does in all (halving_planned, plus under validation one test-point task
// per partition of each cell with several settings).
std::size_t planned_tasks(const Experiment& ex, const std::vector<Task>& tasks);

// For plans, before any result exists: the tasks after wanted_tasks' first answer, each choice
// taken as the costliest setting (an upper bound on the later work).
std::vector<std::uint64_t> later_costliest(const Experiment& ex, const std::vector<Task>& tasks,
                                           const std::vector<double>& seconds);

// Ids of the second-stage tasks to run, given the finished first-stage results (`result` returns
// nullptr for a task without one).
std::vector<std::uint64_t> halving_survivors(
    const Experiment& ex, const std::vector<Task>& tasks,
    const std::function<const TaskResult*(std::uint64_t id)>& result);

// How many tasks the experiment runs in all: every first-stage task plus min(K, settings) per cell
// on each remaining repeat (the whole expansion when halving is off).
std::size_t halving_planned(const Experiment& ex, const std::vector<Task>& tasks);

// For plans, before any result exists: second-stage ids keeping, per cell, the K settings whose
// first-stage tasks cost most (an upper bound on the second stage's work).
std::vector<std::uint64_t> halving_costliest(const Experiment& ex, const std::vector<Task>& tasks,
                                             const std::vector<double>& seconds);

// The stages a run goes through, in order, for plans: the first is what the run wants before any
// result (wanted_tasks with none); under halving or validation a later stage follows. When
// `result` has every first-stage task and only halving chooses, the later stage is what the run
// itself would want next (wanted_tasks with those results, less the first stage); otherwise each
// later choice is taken as its costliest setting (an upper bound on the later work).
struct RunStages {
  std::vector<std::vector<std::uint64_t>> stages;
  bool first_done = false;  // every first-stage task has a result
};
RunStages run_stages(const Experiment& ex, const std::vector<Task>& tasks,
                     const std::vector<double>& seconds, const ResultOf& result);

}  // namespace drbench
