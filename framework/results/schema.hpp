#pragma once
// Writing the results file (layout documented in docs/results-format.md). The store calls this
// for every snapshot; it always writes a complete file.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/neighbours/graph_version.hpp"
#include "framework/plan/task.hpp"
#include "framework/results/task_result.hpp"

namespace drbench {

struct RunInfo {
  std::string version, blas, host, started;  // written as root attributes
  int ranks = 1;
  // The neighbour search the file's tasks were computed with (kGraphVersion, or the version of
  // the file a resume carries on; root attribute graph_version).
  int graph_version = kGraphVersion;
};

// Hex text of a 64-bit FNV-1a/splitmix hash of the effective config text (root attr config_hash).
std::string config_hash(const std::string& text);

// Writes the whole results file at `file` (not atomically: callers go through replace_atomically).
// Rows: every entry of `results` (keyed by task id, which indexes `tasks`), in id order.
// `finished` is the root attribute of that name ("" while the run is incomplete).
void write_results_file(const std::string& file, const Experiment& ex,
                        const std::vector<Task>& tasks, const RunInfo& info,
                        const std::map<std::uint64_t, TaskResult>& results,
                        const std::string& finished);

}  // namespace drbench
