#pragma once
// The results file and its journal. Only rank 0 writes. Each finished task is appended to
// <path>.journal and fsync'd at once (a kill -9 loses nothing finished); the HDF5 file itself is
// rewritten whole to a temporary name and renamed over the old one, so it is never half-written.
// Rerunning the same command reads both and skips what is done.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/results/task_result.hpp"
#include "framework/sched/task.hpp"

namespace drbench {

struct RunInfo {
  std::string version, blas, host, started;  // written as root attributes
  int ranks = 1;
};

class ResultsStore {
 public:
  // Opens (or starts) the store for this experiment. When an existing file or journal was made by
  // a different config text and !force_new, throws Error naming both and suggesting --force-new.
  ResultsStore(const Experiment& ex, const std::vector<Task>& tasks, const RunInfo& info,
               bool force_new);
  ~ResultsStore();

  bool done(std::uint64_t task_id) const { return results_.count(task_id) != 0; }
  std::size_t n_done() const { return results_.size(); }
  void add(const TaskResult& r);          // journal + fsync; snapshots the HDF5 every few seconds
  void write_hdf5();                      // full rewrite, atomic rename; removes the journal when complete

 private:
  const Experiment& ex_;
  const std::vector<Task>& tasks_;
  RunInfo info_;
  std::map<std::uint64_t, TaskResult> results_;
  std::string journal_path_;
  int journal_fd_ = -1;
  double last_snapshot_ = 0.0;
};

}  // namespace drbench
