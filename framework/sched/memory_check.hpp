#pragma once
// The memory model. What one rank needs for a task is the method's estimate for the task's shape
// and setting (its budget's memory_of: fit, out-of-sample map and scoring) plus what the rank holds
// whatever it runs: its copy of every dataset (loaded once, kept for the run), its cache of
// preprocessed partitions (at most TaskRunner::kSplitCacheBytes) and the expanded task list.
// `drbench validate`, `run` and `plan` hold every task to the limit one rank may use
// (framework/support/memory_size.hpp) before anything runs or is written.
#include <string>
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/core/registry.hpp"
#include "framework/plan/task.hpp"
#include "framework/sched/placement.hpp"
#include "framework/support/memory_size.hpp"

namespace drbench {

// One task in a rank's expanded list (key, setting, seeds) and, on rank 0, its place in the
// results store and the dispatch order: on a 200,000-task grid (iris, sammon) the peak resident
// size grew by 1.05 KB per task under `drbench validate` and 1.15 KB under rank 0 of `drbench
// run` (/usr/bin/time -v, against a one-task config); rounded up.
constexpr double kTaskListBytesPerTask = 1280;

// The process itself (code, libraries, MPI, HDF5, thread stacks): `drbench run` on a one-task
// iris config peaked at 33.9 MB (/usr/bin/time -v), `drbench validate` at 17.2 MB.
constexpr double kProcessBytes = 34.0 * (1 << 20);

// Tasks the experiment expands to, counted without expanding (saturates at ~1e300 rather than
// overflowing on a grid of many long axes).
double count_tasks(const Experiment& ex);

// Before any data is read: each generated dataset (sized from its parameters, as
// generated_bytes) and the task list must fit the limit. Throws ConfigError at the dataset's or
// the largest grid's line, naming the key and the fix.
void check_memory_before_data(const Experiment& ex, const MemoryLimit& limit);

// What loading one dataset held at its peak (Dataset::n_read, n_load_peak): the points its source
// gave before classes and max_points, and the most points alive at once (those and the kept copy).
// Zeros: loading held no more than the dataset as kept.
struct LoadShape {
  arma::uword n_read = 0, n_peak = 0;
  // Stored entries of a dataset kept sparse (Dataset::Xs): its size is counted from them, not
  // from n x d; 0 for dense points.
  double nnz = 0;
};

// The largest per-rank need of any task: the method's estimate plus what the rank holds resident.
// Loading a dataset can need more than any task (an HDF5 or CSV file is read in full before
// max_points keeps a small share; the IDX reader decodes only the kept images): then the rank's
// peak is the load's.
struct MemoryPeak {
  double bytes = 0;           // method + resident, or the load where that is more
  double method_bytes = 0;    // memory_of of that task
  double resident_bytes = 0;  // the process, datasets, partition cache and task list
  // The raw-dimension block a dimension-lowering preprocessing transforms before the method runs
  // (bytes = resident + the larger of it and the method's estimate).
  double preprocess_bytes = 0;
  std::string task;      // "dataset usps, split per_class=10, method lle {neighbours=12}, dim 2"
  std::size_t over = 0;  // tasks above the limit (0 when it passed)
  // The largest load: resident less the dataset's kept points plus what loading it held (the
  // source's points and the kept copy). bytes = max(the task peak, load_bytes).
  double load_bytes = 0;
  std::string load;  // "dataset fashion-mnist: 70000 points read in 784-D, 20000 kept"
  bool load_dominates() const { return load_bytes > 0 && load_bytes >= bytes; }
  // Tasks above one rank's share that a node takes with some of its other ranks held back
  // (framework/sched/placement.hpp), one entry per (dataset, split, setting, dim), largest first:
  // `bytes` beyond what every rank holds, `slots` on the node where it takes fewest.
  struct Big {
    std::string task;
    double bytes = 0;
    int slots = 0;
  };
  std::vector<Big> big;
  std::size_t big_tasks = 0;  // such tasks with repeats counted
};

// After the data check: loading each dataset and every task (repeats aside, which do not change
// the shape) against the limit. `shapes` as for expand_tasks; `full[i]`: dataset i as loaded (n =
// every point kept, d before preprocessing); `loads[i]`: what loading it held (empty: nothing
// beyond full). A load that does not fit is refused at the dataset's line, naming the read and the
// fixes; a task at the method's line naming the task, the estimate, the limit and the fixes.
// With `nodes`, a task above the limit is refused only when it fits no node with the node's other
// ranks held back; those that fit one are listed in MemoryPeak::big.
// Returns the peak when everything fits.
MemoryPeak check_memory(const Experiment& ex, const std::vector<DataShape>& shapes,
                        const std::vector<DataShape>& full, const MemoryLimit& limit,
                        const std::vector<LoadShape>& loads = {},
                        const std::vector<NodeMemory>& nodes = {});

// Each task's own bytes beyond what every rank holds (the method's estimate, or the raw block of
// a dimension-lowering preprocessing where larger), indexed by id: what the placement weighs.
// `shapes`, `full` and `loads` as for check_memory.
std::vector<double> task_memory(const Experiment& ex, const std::vector<Task>& tasks,
                                const std::vector<DataShape>& shapes,
                                const std::vector<DataShape>& full,
                                const std::vector<LoadShape>& loads = {});

}  // namespace drbench
