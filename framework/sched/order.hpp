#pragma once
// The order rank 0 hands tasks out in. Longest first keeps a late giant from deciding the wall
// time, but a strict longest-first list scatters the tasks of one partition (every method and
// setting on one dataset x split value x repeat) across the whole sweep, so a rank's split cache
// (framework/sched/split_cache.hpp) has dropped the partition before its next task comes, and the
// partition and its preprocessing are redone for nearly every task. Where tasks are short beside
// preprocessing (the baselines of a table), that was two thirds of the work.
#include <cstdint>
#include <string>
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/plan/task.hpp"

namespace drbench {

// The preprocessing chain a task's method uses: its own override, else its dataset's.
const std::vector<PreprocStep>& task_preprocessing(const Experiment& ex, const Task& t);

// What a task's prepared partition is cached under: dataset, split seed (which names the split
// value and repeat), the inner split of an inner task, the preprocessing chain the method uses and
// its protocol.
std::string prepared_key(const Experiment& ex, const Task& t);

struct DispatchOrder {
  std::vector<std::uint64_t> ids;    // task ids, in the order they are handed out
  std::vector<std::uint32_t> group;  // per position: neighbours that share a partition share it
};

// `ids` in dispatch order for `nranks` ranks. Tasks costing more than 1/32 of one rank's share of
// the total (cost[id], any unit) go first, longest first: they decide how the run ends. The rest
// go partition by partition, partitions by their costliest task (then their total, then their
// first id), tasks inside one longest first, so a rank that takes consecutive tasks prepares each
// partition once. A long task's place is never later than under strict longest first by more
// than the short work ahead of it; a short one's costs the tail at most 1/32 of a share.
// A long task is a group of its own.
DispatchOrder dispatch_order(const Experiment& ex, const std::vector<Task>& tasks,
                             const std::vector<std::uint64_t>& ids, const std::vector<double>& cost,
                             int nranks);

}  // namespace drbench
