#pragma once
// Reading a results file back (C++ side of docs/results-format.md).
#include <cstdint>
#include <string>
#include <vector>

#include "framework/results/task_result.hpp"

namespace drbench {

// One row of /tasks: what was run (from the config) and what came back.
struct TaskRow {
  TaskResult result;  // task_id, key, ok, error, timings, knn_error, quality, sizes, rank
  std::string dataset, split_kind, method, label, setting;
  // "holdout" or "transductive"; files from before /tasks/protocol read as the config-level
  // evaluation.protocol they were run with (config_protocol).
  std::string protocol;
  double split_value = 0.0;
  int repeat = 0;
  int fold = -1;  // inner validation split (selection: validation); -1: scored on the test points
  std::uint64_t dim = 0, seed = 0, split_seed = 0;
};

struct ResultsFile {
  std::string path;
  // Root attributes.
  std::string name, config, config_hash, profile, version, blas, host, started, finished;
  std::string ttest_reference;
  int halving_repeats = 0,
      halving_keep = 0;  // successive halving (0: every setting on every repeat)
  // The selection rule the run used (root attribute selection; files written before it existed
  // ran under min_mean_error, and `selection_recorded` is false), and validation's inner splits.
  std::string selection = "min_mean_error";
  bool selection_recorded = false;
  int validation_folds = 0;
  double validation_fraction = 0.0;
  int ranks = 1;
  // Parameter names of the settings as written (root attribute settings_version; 1 for files
  // from before it). read_results returns every setting and task key under the current names.
  int settings_version = 1;
  // The neighbour search its tasks were computed with (root attribute graph_version, 1 for files
  // from before it; kGraphVersion in framework/neighbours/graph_version.hpp says what each is).
  int graph_version = 1;
  std::uint64_t n_tasks = 0;  // tasks in the whole experiment (rows may be fewer)
  // Partitions per split value the config asked for (root attribute repeats; for older files,
  // the highest repeat index in the rows plus one).
  int repeats = 0;
  std::vector<std::string> datasets;  // config order
  std::vector<std::string> labels;    // config order
  std::vector<int> k;                 // columns of knn_error
  std::string knn_metric = "euclidean";
  // Columns of /tasks/quality: label ("rnx@10", "stress"), measure and K (0: none). Files from
  // before the co-ranking pass read as their measures at their one K.
  std::vector<std::string> quality_names, quality_measure;
  std::vector<int> quality_k;
  std::vector<bool> quality_higher;  // per column: higher values are better
  bool quality_higher_better(std::size_t j) const {
    return j < quality_higher.size() && quality_higher[j];
  }
  std::vector<TaskRow> tasks;       // finished tasks, sorted by id
  std::vector<std::string> tables;  // names under /tables
};

// The protocol every task of a file without /tasks/protocol ran under: its config's
// evaluation.protocol, holdout when the config names none (the only rule before per-method ones).
std::string config_protocol(const std::string& config_text);

// with_arrays: also load /embeddings and /traces into each row's result (can be large).
ResultsFile read_results(const std::string& path, bool with_arrays = false);
// Throws "the run was interrupted ... rerun to recover N tasks" when `path` is missing but its
// journal exists (a run killed before its first snapshot); returns otherwise.
void refuse_journal_only(const std::string& path);

// The text of /tables/<name>.
std::string read_table(const std::string& path, const std::string& name);

}  // namespace drbench
