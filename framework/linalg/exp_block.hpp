#pragma once
// exp over a contiguous run, four elements at a time in GCC/Clang vector extensions: the
// portable (-march-free) build calls glibc's scalar exp once per element, which was a tenth of a
// sparse GP-LVM evaluation (the RBF cross-covariance, docs/benchmarks.md). The same operations
// run in the same order whatever the vector width the target gives them, so the results do not
// depend on -march (no fused multiply-add is formed from separate operations here: see
// exp_block.cpp's compile options).
#include <cstddef>

namespace drbench {

// y[i] = exp(scale * x[i]) for i < n, within 1 ulp of the correctly rounded value (measured
// against std::exp over [-745, 709] in test_exp_block.cpp); y may alias x. Arguments whose
// result would be subnormal, overflow, or NaN are handed to std::exp, so every double input
// gives std::exp's special values.
void exp_block(const double* x, double* y, std::size_t n, double scale = 1.0);

// Whether the four-lane (AVX2) paths run: the CPU's answer, unless force_two_lanes(true) asked
// for the portable two-lane paths (tests check that both give the same bits). Other vectorised
// passes (the stationary kernels' cross-gradient sweep) dispatch on this too.
bool four_lanes();
void force_two_lanes(bool on);

}  // namespace drbench
