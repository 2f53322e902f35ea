#pragma once
// Train/test partitions. A partition's seed derives from the config seed, the dataset and the
// split value and repeat only, so every method in a sweep sees the same partitions (which the
// paired t-tests need) whatever the rank that runs it.
#include <armadillo>
#include <cstdint>

#include "framework/data/dataset.hpp"
#include "framework/data/spec.hpp"

namespace drbench {

struct Partition {
  arma::uvec train;  // sorted indices into the dataset's columns
  arma::uvec test;
};

// `value` is one entry of SplitsSpec::values (count per class, ratio) and ignored for Own/All.
// Throws DataError when a class has too few points for the request.
Partition make_partition(const Dataset& ds, const SplitsSpec& spec, double value,
                         std::uint64_t seed);

// Inner validation split `fold` of a partition's training points (selection: validation),
// stratified by class: with folds >= 2, each class's points (in a seeded order) are dealt to the
// folds in turn and fold `fold` is held out; with folds 0, llround(fraction x class size) points of
// each class (fewer where the class would keep none) are held out. Returns the inner training and
// held-out points as train and test; the partition's test points are in neither. Throws DataError
// when a side would be empty.
Partition inner_partition(const Dataset& ds, const Partition& outer, int folds, double fraction,
                          int fold, std::uint64_t seed);

}  // namespace drbench
