#pragma once
// Checks that need the shape of the data, which parsing alone does not know: a latent dimension
// above what a method allows on a dataset (C-1 for LDA, min(n-1, d) by default).
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/core/registry.hpp"
#include "framework/data/dataset.hpp"

namespace drbench {

// Shapes passed to validate_against_data and expand_tasks are DataShapes in the registry's sense:
// per dataset, what a method sees at the smallest split value (n = points it is fitted on,
// d after the dataset's preprocessing chain, n_classes). The scheduler measures them on the
// loaded data (check_against_data).

// `shapes[i]` belongs to ex.datasets[i]. Throws ConfigError at the method's dims line, e.g.
// "lda allows at most C-1 = 9 dimensions on usps (...)". Methods whose max_dim is uword(-1)
// (identity) accept any dims. A method with its own preprocess override is checked against the
// dataset chain's d as well.
void validate_against_data(const Experiment& ex, const std::vector<DataShape>& shapes);

// Checks of the experiment against one loaded dataset (ex.datasets[di]) that need its points:
// every split value's partition (a class with no training or, for per_class/ratio splits, no
// test points), kNN k above the training set (n-1 for leave-one-out), quality_k too large for the
// scored points, a method's `neighbours`/`k` not below the points it is fitted on. Throws
// ConfigError at the offending key's line. Returns the shape of the smallest fit (as
// validate_against_data wants it), d measured after the dataset's preprocessing.
DataShape check_dataset(const Experiment& ex, std::size_t di, const Dataset& ds);

// The methods' remarks (MethodInfo::advise) on the experiment's settings for these shapes, one
// "<label> on <dataset>: <remark>" per method label and dataset whose settings draw one (the
// first such setting's). Under the holdout protocol the shapes are given test points.
std::vector<std::string> setting_advice(const Experiment& ex, const std::vector<DataShape>& shapes);

// Under selection: min_mean_error, one remark naming the methods whose grid has more than one
// setting: their setting is chosen on the test error, so their reported errors are optimistic,
// and how to change it; empty otherwise.
std::string selection_advice(const Experiment& ex);

// A data_path that is not a directory, at its line (before any dataset is looked for there).
void check_data_path(const Experiment& ex);

// Estimated training shape at split value `value` from the shape at the smallest value: n grows
// in proportion to the value for train_per_class / train_ratio; own and all have one value.
DataShape scale_to_split(const SplitsSpec& splits, double value, const DataShape& smallest);

// Training shape a split value gives on a dataset whose whole shape is `full` (n = every point):
// per_class: min(value * C, n); ratio: round(value * n); own and all: n. Used for estimates when
// no measured shapes exist.
DataShape train_shape(const SplitsSpec& splits, double value, const DataShape& full);

}  // namespace drbench
