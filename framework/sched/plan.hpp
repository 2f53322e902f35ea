#pragma once
// A discrete-event replay of the scheduler (framework/sched/dispatch.hpp) on predicted task times:
// the same longest-first order, guided self-scheduling chunks, requests sent when half a chunk is
// left, results batched with them, rank 0 as one server that spends `message_seconds` (+
// `result_seconds` per result) on each message and `commit_seconds` per group commit, and
// `latency_seconds` per message in each direction. Rank 0's own worker loses the time its
// dispatcher spends serving messages. Answers "how long, how efficient, how balanced" before a
// cluster is spent.
#include <cstdint>
#include <vector>

namespace drbench {

struct PlanParams {
  int ranks = 1;
  double latency_seconds = 20e-6;   // one message, one way
  double message_seconds = 10e-6;   // rank 0's work per message received
  double result_seconds = 5e-6;     // ... and per result in it (decode, store, journal record)
  double commit_seconds = 5e-3;     // one group commit (write + fsync)
  double commit_interval = 0.25;    // as DispatchOptions::commit_seconds
  double flush_seconds = 1.0;       // as DispatchOptions::flush_seconds
  std::size_t max_chunk = 256;
  double factor = 2.0;
  bool rank0_computes = true;
};

struct PlanResult {
  double wall_seconds = 0;    // first request to last commit
  double work_seconds = 0;    // sum of task times
  double efficiency = 0;      // work / (ranks x wall)
  std::vector<double> busy;   // per rank: seconds computing
  std::vector<std::size_t> tasks;  // per rank: tasks run
  std::size_t messages = 0;   // received by rank 0
  std::size_t commits = 0;
  double dispatcher_busy = 0;  // seconds rank 0 spent serving messages and committing
};

// order: task ids, longest first; seconds[id]: predicted time of each task.
PlanResult simulate_schedule(const std::vector<std::uint64_t>& order,
                             const std::vector<double>& seconds, const PlanParams& p);

}  // namespace drbench
