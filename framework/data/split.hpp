#pragma once
// Train/test partitions. A partition's seed derives from the config seed, the dataset and the
// split value and repeat only, so every method in a sweep sees the same partitions (which the
// paired t-tests need) whatever the rank that runs it.
#include <armadillo>
#include <cstdint>

#include "framework/data/spec.hpp"
#include "framework/data/dataset.hpp"

namespace drbench {

struct Partition {
  arma::uvec train;  // sorted indices into the dataset's columns
  arma::uvec test;
};

// `value` is one entry of SplitsSpec::values (count per class, ratio) and ignored for Own/All.
// Throws DataError when a class has too few points for the request.
Partition make_partition(const Dataset& ds, const SplitsSpec& spec, double value,
                         std::uint64_t seed);

}  // namespace drbench
