#pragma once
// The MPI master/worker loop. Rank 0 validates everything (config and data) before any work or any
// file is written, expands the tasks, hands them out longest first to whichever rank asks, and is
// the only writer of the results. With one rank it runs every task itself.
#include <memory>
#include <string>
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/core/registry.hpp"
#include "framework/sched/memory_check.hpp"
#include "framework/support/memory_size.hpp"

namespace drbench {

class TaskRunner;

// What rank 0's up-front check found: the experiment, the shape each method sees, and (when rank 0
// runs the tasks itself) the runner holding the data the check loaded.
struct CheckedRun {
  CheckedRun();
  ~CheckedRun();
  Experiment ex;
  std::vector<DataShape> shapes;
  std::unique_ptr<TaskRunner> runner;
  MemoryLimit memory_limit;       // what each task was held to
  MemoryPeak memory_peak;         // the largest task's need
  std::vector<DataShape> full;    // each dataset as loaded (the memory model's resident data)
  std::vector<LoadShape> loads;   // what loading each held, and its stored entries if sparse
  std::vector<NodeMemory> nodes;  // what the tasks were placed against
};

struct RunOptions {
  std::string config;
  std::string profile;
  std::string output;                     // overrides output.path when non-empty
  std::vector<ConfigOverride> overrides;  // command-line key=value settings
  // A slice of the config run into the same results file (--only, --dataset): method labels and
  // dataset names; empty means all. The file still describes the whole experiment.
  std::vector<std::string> only_methods, only_datasets;
  // --repeats: the partitions (repeat indices, from 0) to run; empty means all. A table's late
  // partitions can be run on their own after its first ones, into the same file.
  std::vector<int> only_repeats;
  bool force_new = false;
  bool retry_failed = false;  // --retry-failed: failed and timed-out tasks count as not done
  bool quiet = false;
  bool print_table = true;
  std::shared_ptr<CheckedRun> checked;  // made before MPI_Init (one rank): rank 0 skips its check
  // --memory-per-rank; bytes 0: the default, the node's memory over the ranks on it (one rank
  // when checked before MPI_Init; run_experiment asks MPI how many share each node).
  MemoryLimit memory;
  // --node-memory: what each node offers the ranks on it together (bytes 0: its physical memory
  // or cgroup limit, or --memory-per-rank times its ranks). A task above one rank's share runs
  // with other ranks of its node held back (framework/sched/placement.hpp).
  MemoryLimit node_memory;
  // The nodes of this run (run_experiment fills them from MPI); empty: one node of one rank.
  std::vector<NodeMemory> nodes;
};

// What one node of `ranks` ranks offers them together: --node-memory, else --memory-per-rank
// times its ranks, else `measured` (its memory).
double node_budget(const MemoryLimit& node_memory, const MemoryLimit& per_rank, int ranks,
                   double measured);
// One rank's share on a node of `ranks` ranks: --memory-per-rank, else the node's budget over
// its ranks, saying where it came from.
MemoryLimit rank_share(const MemoryLimit& node_memory, const MemoryLimit& per_rank, int ranks,
                       double measured);

// Exit status of a run in which some task failed (its error is recorded in the results file).
inline constexpr int kExitTasksFailed = 4;

// The experiment a run would execute (config, profile, --output), checked without the data.
// Throws ConfigError/Error.
Experiment load_for_run(const RunOptions& opt);
// load_for_run and then the check against the data and the memory model (every task within
// opt.memory), as rank 0 makes it. Rank 0 runs tasks too, so the datasets stay loaded in the
// returned runner. Throws.
std::shared_ptr<CheckedRun> check_run(const RunOptions& opt);

// Collective over MPI_COMM_WORLD (MPI must be initialised). Returns the process exit code: 0 when
// every task of the experiment succeeded, kExitTasksFailed when the file holds failed tasks (a
// summary goes to stderr even with quiet), 2 for invalid input (nothing written).
int run_experiment(const RunOptions& opt);

// Loads every dataset once and checks the experiment against the data (split feasibility,
// dimension limits); returns the shape each method will see in the smallest split. Throws.
// With `runner`, the datasets are loaded through its cache, so a rank that then runs the tasks
// itself (one rank) does not load them a second time. With `full`, each dataset's shape as loaded
// (n = every point, d before preprocessing), which the memory model counts as resident; with
// `loads`, what loading each held at its peak (the source's points before classes/max_points).
std::vector<DataShape> check_against_data(const Experiment& ex, TaskRunner* runner = nullptr,
                                          std::vector<DataShape>* full = nullptr,
                                          std::vector<LoadShape>* loads = nullptr);

// The memory checks of `drbench validate`, `run` and `plan` in the order they must run: the task
// list and generated datasets before any data is read, then check_against_data, then every task.
// Returns the shapes; throws ConfigError naming the key, the task and the fix.
// With `nodes`, a task above `limit` fits when some node takes it with other ranks held back
// (MemoryPeak::big lists them); `full` and `loads`, when given, receive each dataset's shape as
// loaded and what loading it held.
std::vector<DataShape> check_data_and_memory(const Experiment& ex, const MemoryLimit& limit,
                                             MemoryPeak& peak, TaskRunner* runner = nullptr,
                                             const std::vector<NodeMemory>& nodes = {},
                                             std::vector<DataShape>* full = nullptr,
                                             std::vector<LoadShape>* loads = nullptr);

}  // namespace drbench
