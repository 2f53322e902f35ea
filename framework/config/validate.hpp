#pragma once
// Checks that need the shape of the data, which parsing alone does not know: a latent dimension
// above what a method allows on a dataset (C-1 for LDA, min(n-1, d) by default).
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/core/registry.hpp"

namespace drbench {

// Training-set shape one split value gives on a dataset whose whole shape is `full` (n = every
// point, d after preprocessing, n_classes). per_class: min(value * C, n); ratio: round(value * n);
// own and all: n (an upper bound for own, whose training part is not known before loading).
DataShape train_shape(const SplitsSpec& splits, double value, const DataShape& full);

// `shapes[i]` is the whole shape of ex.datasets[i]. Throws ConfigError at the method's dims line,
// e.g. "lda allows at most C-1 = 9 dimensions on usps ...". Methods whose max_dim is uword(-1)
// (identity) accept any dims.
void validate_against_data(const Experiment& ex, const std::vector<DataShape>& shapes);

}  // namespace drbench
