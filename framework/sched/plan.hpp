#pragma once
// A discrete-event replay of the scheduler (framework/sched/dispatch.hpp) on predicted task times:
// the same order, guided self-scheduling chunks (rank 0's worker's too), requests sent when half a
// chunk is left, results batched with them, rank 0 as one server that spends `message_seconds` (+
// `result_seconds` per result) on each message and `commit_seconds` per group commit, and
// `latency_seconds` per message in each direction. Rank 0's own worker loses the time its
// dispatcher spends serving messages. Answers "how long, how efficient, how balanced" before a
// cluster is spent. Process start and rank 0's data check come first and add to the wall time.
#include <cstdint>
#include <vector>

namespace drbench {

// Process start and exit of a run (mpirun launch, MPI_Init, results file, MPI_Finalize): the
// fastest of five `mpirun -np 1 drbench run` on a one-task iris config (task and data check
// ~0.01 s) on the 2-core development machine; np 2 took 1.0 s (docs/cluster.md). A cluster
// launcher can take longer at 1,000 ranks: `drbench plan --start S`.
constexpr double kPlanStartSeconds = 0.8;

struct PlanParams {
  int ranks = 1;
  double latency_seconds = 20e-6;  // one message, one way
  double message_seconds = 10e-6;  // rank 0's work per message received
  double result_seconds = 5e-6;    // ... and per result in it (decode, store, journal record)
  double commit_seconds = 5e-3;    // one group commit (write + fsync)
  double commit_interval = 0.25;   // as DispatchOptions::commit_seconds
  double flush_seconds = 1.0;      // as DispatchOptions::flush_seconds
  std::size_t max_chunk = 256;
  double factor = 2.0;
  bool rank0_computes = true;
  // Before the first task: process start (mpirun/srun launch, MPI_Init) and rank 0's up-front
  // check of config and data, which every rank waits for. Added to the wall time once.
  double start_seconds = 0;
  double check_seconds = 0;
};

struct PlanResult {
  double wall_seconds = 0;         // launch to last commit (start + check + schedule)
  double work_seconds = 0;         // sum of task times
  double efficiency = 0;           // work / (ranks x wall)
  std::vector<double> busy;        // per rank: seconds computing
  std::vector<std::size_t> tasks;  // per rank: tasks run
  std::size_t messages = 0;        // received by rank 0
  std::size_t commits = 0;
  double dispatcher_busy = 0;  // seconds rank 0 spent serving messages and committing
};

// order: task ids in dispatch order (framework/sched/order.hpp); seconds[id]: predicted time of
// each task; group: as for dispatch() (optional).
PlanResult simulate_schedule(const std::vector<std::uint64_t>& order,
                             const std::vector<double>& seconds, const PlanParams& p,
                             const std::vector<std::uint32_t>& group = {});

}  // namespace drbench
