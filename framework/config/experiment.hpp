#pragma once
// The typed experiment a YAML config describes. Everything in here has been validated: the
// scheduler and the methods never see an unchecked value.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "framework/config/override.hpp"
#include "framework/core/params.hpp"
#include "framework/data/spec.hpp"

namespace drbench {

struct GridAxis {
  std::string param;
  std::vector<ParamValue> values;
  int line = 0;  // where the axis was declared
};

struct MethodSpec {
  std::string label;           // row name in tables (defaults to the method name)
  std::string method;          // registry name
  std::vector<GridAxis> grid;  // cartesian product of the axes; fixed values are 1-long axes
  std::vector<std::uint64_t>
      dims;  // {0} when the method ignores dims (identity) and none are given
  std::optional<std::vector<PreprocStep>> preprocess;  // overrides the dataset's chain
  int line = 0;
  int dims_line = 0;          // where dims was written (the method's line when absent)
  bool ignores_dims = false;  // the method's embedding has no latent dimension (identity)
  // How this method's tasks are fitted and scored: the entry's `protocol`, else
  // evaluation.protocol, with `auto` resolved (holdout where the method maps new points and the
  // split leaves test points, transductive otherwise).
  enum class Protocol { Holdout, Transductive } protocol = Protocol::Holdout;
  bool transductive() const { return protocol == Protocol::Transductive; }
};

// "holdout" or "transductive", as configs, results files and tables write it.
const char* protocol_name(MethodSpec::Protocol p);

struct EvaluationSpec {
  std::vector<int> knn{1};
  // Distance of the kNN classifier: euclidean, or cosine (1 - cosine similarity; ranked as the
  // Euclidean distance between unit-length embeddings).
  std::string knn_metric = "euclidean";
  // The protocol of every method entry that names none (MethodSpec::protocol holds each one's).
  // Unset keeps holdout, so configs from before per-method protocols expand to the same tasks.
  enum class Protocol { Holdout, Transductive, Auto } protocol = Protocol::Holdout;
  // How the reported setting is chosen per (dataset, method, split value, dim) cell:
  // MinMeanError (the oracle of the seed papers: the lowest mean test error over the partitions),
  // or Validation (per partition, the lowest error on inner splits of its training points; the
  // chosen setting is refitted on the whole training partition and scored on its test points once).
  // A config that states no selection gets Validation.
  enum class Selection { MinMeanError, Validation } selection = Selection::Validation;
  // Validation's inner splits of each training partition, stratified by class: `validation_folds`
  // folds (>= 2), or, when 0, one split holding out `validation_fraction` of each class.
  int validation_folds = 0;
  double validation_fraction = 0.25;
  // The inner splits a validated setting is scored on (1 for a fraction split).
  int inner_splits() const { return validation_folds > 0 ? validation_folds : 1; }
  bool validated() const { return selection == Selection::Validation; }
  // Successive halving (selection: {halving: {repeats: R, keep: K}}; 0 = off): every setting runs
  // on the first R repeats, and only the K best per cell (lowest mean error there) on the rest.
  int halving_repeats = 0, halving_keep = 0;
  // Extra measures, names from quality_measures() (framework/eval/coranking.hpp), computed in one
  // co-ranking pass; the per-K ones at every K of quality_k (ascending, distinct).
  std::vector<std::string> quality;
  std::vector<int> quality_k{10};
  // Exact co-ranking up to this many scored points; above, this many seeded random query points.
  int quality_sample = 10000;
  std::string ttest_reference;  // method label the paired t-tests compare against ("" = none)
  int line = 0, knn_line = 0, quality_k_line = 0;  // where evaluation, knn, quality_k were written
};

struct OutputSpec {
  std::string path;  // results HDF5 file (relative to the current directory)
  bool keep_embeddings = false;
  bool keep_traces = true;
};

struct Experiment {
  std::string name;
  std::string file;                       // the config's path, for error messages
  std::string text;                       // the effective YAML text (after a profile overlay)
  std::string profile;                    // "" or the profile applied
  std::vector<ConfigOverride> overrides;  // command-line key=value settings, in order
  std::string data_path;                  // config key data_path ("" when absent)
  int data_path_line = 0;                 // where it was written (it must exist: check_dataset)
  std::uint64_t seed = 0;
  // Threads per rank for drbench's own loops inside a task (FitInput::threads); blas_threads
  // follows it unless set. ranks x threads should not exceed the cores.
  int threads = 1;
  int blas_threads = 1;
  double max_task_seconds = 0.0;  // per-task time limit; 0 = none
  std::vector<DatasetSpec> datasets;
  SplitsSpec splits;
  std::vector<MethodSpec> methods;
  EvaluationSpec evaluation;
  OutputSpec output;
};

// The latent dims of method mi's tasks on dataset di: the dataset's `dims` where it gives them
// (a method that ignores dims keeps its {0}), else the method's own `dims`.
const std::vector<std::uint64_t>& task_dims(const Experiment& ex, std::size_t di, std::size_t mi);

// Parses and validates a config file; `profile` selects an overlay from its `profiles:` map.
// Throws ConfigError (file:line: key: problem (fix: ...)) on the first problem.
// `overrides`: command-line `key=value` settings applied after the profile (parse_overrides).
Experiment load_experiment(const std::string& path, const std::string& profile = "",
                           const std::vector<ConfigOverride>& overrides = {});
Experiment parse_experiment(const std::string& yaml_text, const std::string& file_name,
                            const std::string& profile = "",
                            const std::vector<ConfigOverride>& overrides = {});

// The experiment with comments, formatting, key order and the profiles map removed: two texts
// that configure the same experiment give the same string (resume compares these). A text
// written under an earlier settings version has its methods' renamed grid keys under their
// current names (MethodInfo::migrate_setting), so it matches the renamed config.
// evaluation.selection is written out in full ({rule: ..., ...}), a text stating none taking
// `default_rule`: a results file written before `selection: validation` existed was run under
// min_mean_error whatever its text says, later ones under validation.
std::string normalised_config(const std::string& yaml_text, int settings_version = kSettingsVersion,
                              const std::string& default_rule = "validation");
// The name of a selection rule as configs and results files write it.
std::string selection_name(EvaluationSpec::Selection s);

// Every setting of a method spec: the cartesian product of its grid, completed with defaults.
std::vector<ParamSet> expand_grid(const MethodSpec& spec);

}  // namespace drbench
