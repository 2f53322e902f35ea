#pragma once
// The statistics behind the tables: sample mean/std, the paired Student t-test with the t-based
// interval of the mean difference, the Wilcoxon signed-rank test and Holm's step-down
// correction, with the t distribution computed from the regularised incomplete beta function (no
// external library). Each matches scipy.stats on fixed numbers (tests/unit/test_stats.cpp).
#include <cstddef>
#include <limits>
#include <vector>

namespace drbench {

double mean(const std::vector<double>& v);        // NaN when empty
double sample_std(const std::vector<double>& v);  // n-1 denominator; NaN when n < 2

// Regularised incomplete beta I_x(a, b) for a, b > 0 and x in [0, 1].
double incomplete_beta(double a, double b, double x);

// P(T <= t) for Student's t with df > 0 degrees of freedom.
double student_t_cdf(double t, double df);

// The q quantile of Student's t with df > 0 degrees of freedom (0 < q < 1), by bisection on
// student_t_cdf to the last bits.
double student_t_quantile(double q, double df);

struct TTestResult {
  std::size_t n = 0;       // pairs used
  double t = 0.0;          // mean(a - b) / (sd(a - b) / sqrt(n)); the Wilcoxon test: its W
  double p = 1.0;          // two-sided; NaN when n < 2
  double mean_diff = 0.0;  // mean(a - b); NaN when n = 0
  // The 95 % interval of mean(a - b): mean_diff -/+ t_{0.975, n-1} sd(d) / sqrt(n) (the paired
  // t interval, whichever test made p); NaN when n < 2.
  double ci_low = std::numeric_limits<double>::quiet_NaN();
  double ci_high = std::numeric_limits<double>::quiet_NaN();
};

// Paired two-sided t-test of a against b (same length, element i of both from the same
// partition), as scipy.stats.ttest_rel computes it.
TTestResult paired_ttest(const std::vector<double>& a, const std::vector<double>& b);

// Two-sided Wilcoxon signed-rank test of a against b, as scipy.stats.wilcoxon(a, b) with its
// defaults (zero_method="wilcox", correction=False): zero differences are dropped; with no zero
// and no tie among |a - b| and at most 50 pairs the p-value is exact (the distribution of the
// positive rank sum, counted), otherwise it is the normal approximation with the tie correction
// of the variance, as method="approx" (scipy 1.10's default does the same for zeros, but for
// ties without zeros counts the exact distribution on a truncated rank sum). t holds W = min(R+,
// R-); n the pairs given; mean_diff and the interval are the paired t interval's. p is NaN when
// fewer than 2 pairs, and 1 when every difference is zero.
TTestResult wilcoxon_signed_rank(const std::vector<double>& a, const std::vector<double>& b);

// Holm's step-down adjusted p-values (as statsmodels' multipletests(method="holm")): sorted
// ascending, p_(i) * (m - i + 1), made non-decreasing, capped at 1; m counts the entries that
// are not NaN, and NaN entries stay NaN.
std::vector<double> holm_adjust(const std::vector<double>& p);

}  // namespace drbench
