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

#include "framework/results/task_result.hpp"
#include "framework/plan/task.hpp"

namespace drbench {

bool halving_on(const Experiment& ex);
// A first-stage task (every task when halving is off).
bool first_stage(const Experiment& ex, const Task& t);

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

}  // namespace drbench
