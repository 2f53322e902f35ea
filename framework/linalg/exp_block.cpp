#include "framework/linalg/exp_block.hpp"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace drbench {

namespace {

using v2d = double __attribute__((vector_size(16)));
using v2i = std::int64_t __attribute__((vector_size(16)));
using v4d = double __attribute__((vector_size(32)));
using v4i = std::int64_t __attribute__((vector_size(32)));

// exp(v) = 2^n exp(r), n = round(v / ln 2), r = v - n ln 2 in [-ln2/2, ln2/2]. n comes from the
// round-to-nearest of adding 1.5 * 2^52 (its low bits hold n), ln 2 is split so that n * kLn2Hi
// is exact (32 significant bits, |n| < 2^21), and exp(r) is its Taylor series to r^13 (truncation
// 4e-18 relative at |r| = ln2/2), summed as 1 + (r + r^2 q(r)) so that the rounding of the
// small terms stays below half an ulp of the result. 2^n goes straight into the exponent bits,
// valid while the result is normal: v outside [kLow, kHigh] is the caller's.
constexpr double kLog2e = 1.4426950408889634;
constexpr double kShift = 0x1.8p52;
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kLow = -708.0;   // n >= -1021: 2^n exp(r) >= 2^-1022 * 0.7, normal
constexpr double kHigh = 709.7;   // below log(DBL_MAX) = 709.78
constexpr double kZero = -746.0;  // exp rounds to +0 below -745.13

constexpr double inv_factorial(int k) {
  double f = 1.0;
  for (int i = 2; i <= k; ++i) f *= i;
  return 1.0 / f;
}

// By reference: a 32-byte vector passed by value outside an AVX function has an ABI of its own.
template <class V, class I>
[[gnu::always_inline]] inline void exp_lanes(const V& v, V& out) {
  const V t = v * kLog2e + kShift;
  const V n = t - kShift;
  const V r = (v - n * kLn2Hi) - n * kLn2Lo;
  const V r2 = r * r;
  // q(r) = sum_{k=2}^{13} r^(k-2) / k!, its even and odd halves in r^2: two short chains.
  V even = r2 * inv_factorial(12) + inv_factorial(10);
  even = even * r2 + inv_factorial(8);
  even = even * r2 + inv_factorial(6);
  even = even * r2 + inv_factorial(4);
  even = even * r2 + inv_factorial(2);
  V odd = r2 * inv_factorial(13) + inv_factorial(11);
  odd = odd * r2 + inv_factorial(9);
  odd = odd * r2 + inv_factorial(7);
  odd = odd * r2 + inv_factorial(5);
  odd = odd * r2 + inv_factorial(3);
  const V q = even + r * odd;
  const V e = 1.0 + (r + r2 * q);
  I bits = (I)e + ((I)t << 52);
  bits &= ~(I)(v < kZero);  // those lanes' n is out of range: +0 is exact there
  out = (V)bits;
}

// L results into y; the lanes exp_lanes cannot represent (subnormal results, overflow, NaN) from
// std::exp.
template <class V, class I, int L>
[[gnu::always_inline]] inline void block(const double* x, double* y, double scale) {
  V v;
  std::memcpy(&v, x, sizeof v);
  v *= scale;
  V e;
  exp_lanes<V, I>(v, e);
  const I slow = ~((v >= kLow) & (v <= kHigh)) & ~(v < kZero);
  I any = slow;
  for (int k = 1; k < L; ++k) any[0] |= slow[k];
  if (any[0]) [[unlikely]]
    for (int k = 0; k < L; ++k)
      if (slow[k]) e[k] = std::exp(v[k]);
  std::memcpy(y, &e, sizeof e);
}

// Runs of 4, each as one 4-lane or two 2-lane blocks: lane for lane the same operations, so both
// give the same bits. The tail goes through a zero-padded run of 4.
template <class V, class I, int L>
[[gnu::always_inline]] inline void run(const double* x, double* y, std::size_t n, double scale) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; k += L) block<V, I, L>(x + i + k, y + i + k, scale);
  if (i == n) return;
  double in[4] = {0.0, 0.0, 0.0, 0.0}, out[4];
  std::memcpy(in, x + i, (n - i) * sizeof(double));
  for (int k = 0; k < 4; k += L) block<V, I, L>(in + k, out + k, scale);
  std::memcpy(y + i, out, (n - i) * sizeof(double));
}

void run_sse2(const double* x, double* y, std::size_t n, double scale) {
  run<v2d, v2i, 2>(x, y, n, scale);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The portable build's baseline is SSE2; where the CPU has AVX2 the same code runs four lanes
// wide (2.2x the two-lane speed, docs/benchmarks.md). Only the width changes, not the operations:
// AVX2 here brings no fused multiply-add.
__attribute__((target("avx2"))) void run_avx2(const double* x, double* y, std::size_t n,
                                              double scale) {
  run<v4d, v4i, 4>(x, y, n, scale);
}
bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}
#else
void run_avx2(const double* x, double* y, std::size_t n, double scale) {
  run_sse2(x, y, n, scale);
}
bool has_avx2() {
  return false;
}
#endif

}  // namespace

namespace {
std::atomic<bool> forced_two_lanes{false};
}  // namespace

bool four_lanes() {
  return has_avx2() && !forced_two_lanes.load(std::memory_order_relaxed);
}

void force_two_lanes(bool on) {
  forced_two_lanes.store(on, std::memory_order_relaxed);
}

void exp_block(const double* x, double* y, std::size_t n, double scale) {
  if (four_lanes())
    run_avx2(x, y, n, scale);
  else
    run_sse2(x, y, n, scale);
}

}  // namespace drbench
