#pragma once
// The statistics behind the tables: sample mean/std and the paired Student t-test, with the t
// distribution computed from the regularised incomplete beta function (no external library).
#include <cstddef>
#include <vector>

namespace drbench {

double mean(const std::vector<double>& v);        // NaN when empty
double sample_std(const std::vector<double>& v);  // n-1 denominator; NaN when n < 2

// Regularised incomplete beta I_x(a, b) for a, b > 0 and x in [0, 1].
double incomplete_beta(double a, double b, double x);

// P(T <= t) for Student's t with df > 0 degrees of freedom.
double student_t_cdf(double t, double df);

struct TTestResult {
  std::size_t n = 0;       // pairs used
  double t = 0.0;          // mean(a - b) / (sd(a - b) / sqrt(n))
  double p = 1.0;          // two-sided; NaN when n < 2
  double mean_diff = 0.0;  // mean(a - b); NaN when n = 0
};

// Paired two-sided t-test of a against b (same length, element i of both from the same
// partition), as scipy.stats.ttest_rel computes it.
TTestResult paired_ttest(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace drbench
