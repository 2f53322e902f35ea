#pragma once
// Tasks: one (dataset, split value, repeat, method spec, setting, dim). Every rank expands the same
// config into the same list, so only task ids travel over MPI.
#include <armadillo>
#include <cstdint>
#include <string>
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/core/params.hpp"
#include "framework/core/registry.hpp"

namespace drbench {

struct Task {
  std::uint64_t id = 0;     // position in the expansion order (stable for a given config)
  std::string key;          // canonical identity, e.g. "usps|per_class=10|r3|pca|variance=..|d9"
  std::size_t dataset = 0;  // index into Experiment::datasets
  double split_value = 0.0;
  int repeat = 0;
  // Inner validation (selection: validation): the inner split of the training partition this task
  // is fitted and scored on; -1 for a task scored on the partition's test points.
  int fold = -1;
  std::size_t method = 0;  // index into Experiment::methods
  ParamSet setting;        // complete (defaults filled in)
  arma::uword dim = 0;
  std::uint64_t split_seed = 0;  // from config seed + dataset + split value + repeat
  std::uint64_t seed = 0;        // from config seed + key: the method's Rng seed
  double cost = 0.0;             // relative expected run time (longest first)
};

// Order: datasets x split values x repeats x methods x settings (expand_grid order) x dims.
// key = "<dataset>|<split>|r<repeat>|<label>|<setting canonical>|d<dim>" where <split> is
// per_class=<v>, ratio=<v>, own or all; repeats count from 0; dim 0 = the method ignores dims.
// split_seed = hash_seed(splits.seed, "<dataset>|<split>|r<repeat>") (shared by every method);
// seed = hash_seed(ex.seed, key with the setting's parameters under their settings-version-1
// names, MethodInfo::seed_setting): the key itself when no parameter of the method was renamed.
// Under selection: validation, every method with more than one setting also gets one inner task
// per (partition, setting, dim, inner split), after all the tasks above (their ids and keys are
// those of the same config under min_mean_error): key "<dataset>|<split>|r<repeat>|v<fold>|<label>|
// <setting canonical>|d<dim>", seeded the same way from that key.
std::vector<Task> expand_tasks(const Experiment& ex);
// As above, with each dataset's measured training shape at the smallest split value (as for
// validate_against_data, framework/config/validate.hpp) for the cost estimates, n scaled in
// proportion to larger split values; without shapes every dataset is taken to have 1000 points,
// d = 100 and 10 classes.
std::vector<Task> expand_tasks(const Experiment& ex, const std::vector<DataShape>& shapes);
// As above, with `full[i]` dataset i's shape as loaded (check_against_data's): a transductive
// method beside holdout methods embeds the test points with the training points, so its cost is
// estimated on both (`shapes` count the training points only there, check_dataset), as the
// memory model's fit shape counts them.
std::vector<Task> expand_tasks(const Experiment& ex, const std::vector<DataShape>& shapes,
                               const std::vector<DataShape>& full);

// The "<split>" field of a key: "per_class=10", "ratio=0.3", "own", "all".
std::string split_label(const SplitsSpec& splits, double value);

// The "<label>" and "<setting canonical>" fields of a key ("" when it has too few fields), and
// the key with its setting field replaced (a results file's keys migrated to renamed parameters).
std::string label_of_key(const std::string& key);
std::string setting_of_key(const std::string& key);
std::string key_with_setting(const std::string& key, const std::string& setting);

}  // namespace drbench
