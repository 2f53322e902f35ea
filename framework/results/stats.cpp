#include "framework/results/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "framework/core/error.hpp"

namespace drbench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Continued fraction for I_x(a, b) (modified Lentz; Numerical Recipes, betacf). Converges fast
// for x < (a + 1) / (a + b + 2); the caller uses the symmetry I_x(a,b) = 1 - I_{1-x}(b,a)
// otherwise.
double beta_fraction(double a, double b, double x) {
  const double tiny = 1e-300, eps = 1e-16;
  double qab = a + b, qap = a + 1.0, qam = a - 1.0;
  double c = 1.0, d = 1.0 - qab * x / qap;
  if (std::fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 10000; ++m) {
    double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    double del = d * c;
    h *= del;
    if (std::fabs(del - 1.0) < eps) return h;
  }
  throw Error("incomplete_beta(" + std::to_string(a) + ", " + std::to_string(b) + ", " +
              std::to_string(x) + "): continued fraction did not converge");
}

}  // namespace

double mean(const std::vector<double>& v) {
  if (v.empty()) return kNaN;
  double s = 0.0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double sample_std(const std::vector<double>& v) {
  if (v.size() < 2) return kNaN;
  double m = mean(v), s = 0.0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

double incomplete_beta(double a, double b, double x) {
  if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0 && x <= 1.0))
    throw Error("incomplete_beta: need a > 0, b > 0 and 0 <= x <= 1");
  if (x == 0.0 || x == 1.0) return x;
  // log of x^a (1-x)^b / (a B(a, b))
  double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) +
                          b * std::log1p(-x));
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_fraction(a, b, x) / a;
  return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

double student_t_cdf(double t, double df) {
  if (!(df > 0.0)) throw Error("student_t_cdf: degrees of freedom must be > 0");
  if (std::isnan(t)) return kNaN;
  if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
  // P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2)
  double tail = 0.5 * incomplete_beta(0.5 * df, 0.5, df / (df + t * t));
  return t > 0 ? 1.0 - tail : tail;
}

double student_t_quantile(double q, double df) {
  if (!(q > 0.0 && q < 1.0)) throw Error("student_t_quantile: need 0 < q < 1");
  double lo = -1.0, hi = 1.0;
  while (student_t_cdf(lo, df) > q) lo *= 2.0;
  while (student_t_cdf(hi, df) < q) hi *= 2.0;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * std::max(1.0, std::fabs(lo)); ++i) {
    const double mid = 0.5 * (lo + hi);
    (student_t_cdf(mid, df) < q ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

namespace {

// The paired t interval of mean(d) at 95 %.
void mean_interval(const std::vector<double>& d, TTestResult& r) {
  r.mean_diff = mean(d);
  if (d.size() < 2) return;
  const double half = student_t_quantile(0.975, static_cast<double>(d.size() - 1)) * sample_std(d) /
                      std::sqrt(static_cast<double>(d.size()));
  r.ci_low = r.mean_diff - half;
  r.ci_high = r.mean_diff + half;
}

// What both paired tests start from: the differences a - b into d, their count and the 95 %
// interval of their mean into r. False, with the statistic and p NaN, when under two pairs leave
// nothing to test.
bool paired_differences(const std::vector<double>& a, const std::vector<double>& b, const char* who,
                        std::vector<double>& d, TTestResult& r) {
  if (a.size() != b.size()) throw Error(std::string(who) + ": samples of different lengths");
  d.resize(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
  r.n = d.size();
  mean_interval(d, r);
  if (r.n >= 2) return true;
  r.t = r.p = kNaN;
  return false;
}

}  // namespace

TTestResult paired_ttest(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> d;
  TTestResult r;
  if (!paired_differences(a, b, "paired_ttest", d, r)) return r;
  double m = r.mean_diff, s = sample_std(d);
  if (s == 0.0) {  // identical differences: no spread to test against
    r.t = m == 0.0 ? kNaN : std::copysign(std::numeric_limits<double>::infinity(), m);
    r.p = m == 0.0 ? 1.0 : 0.0;
    return r;
  }
  r.t = m / (s / std::sqrt(static_cast<double>(r.n)));
  // Two-sided tail straight from the beta function: 2 (1 - F(|t|)) would cancel for large |t|.
  double df = static_cast<double>(r.n - 1);
  r.p = incomplete_beta(0.5 * df, 0.5, df / (df + r.t * r.t));
  return r;
}

TTestResult wilcoxon_signed_rank(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> all;
  TTestResult r;
  if (!paired_differences(a, b, "wilcoxon_signed_rank", all, r)) return r;
  std::vector<double> d;
  for (double x : all)
    if (x != 0.0) d.push_back(x);
  const std::size_t n = d.size();
  if (n == 0) {  // scipy refuses; nothing separates the two
    r.t = 0.0;
    r.p = 1.0;
    return r;
  }
  // Ranks of |d|, ties sharing their mean rank.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t i, std::size_t j) { return std::fabs(d[i]) < std::fabs(d[j]); });
  std::vector<double> rank(n);
  double tie_term = 0.0;  // sum of t^3 - t over tie groups
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && std::fabs(d[order[j + 1]]) == std::fabs(d[order[i]])) ++j;
    const double t = static_cast<double>(j - i + 1);
    for (std::size_t q = i; q <= j; ++q) rank[order[q]] = 0.5 * static_cast<double>(i + j) + 1.0;
    tie_term += t * t * t - t;
    i = j + 1;
  }
  double r_plus = 0.0, r_minus = 0.0;
  for (std::size_t i = 0; i < n; ++i) (d[i] > 0 ? r_plus : r_minus) += rank[i];
  r.t = std::min(r_plus, r_minus);
  const double nn = static_cast<double>(n);
  if (n == all.size() && tie_term == 0.0 && n <= 50) {
    // Counts of the subsets of {1..n} by their sum: the null distribution of R+ (2^50 and every
    // count below it are exact in a double).
    const std::size_t top = n * (n + 1) / 2;
    std::vector<double> count(top + 1, 0.0);
    count[0] = 1.0;
    for (std::size_t k = 1; k <= n; ++k)
      for (std::size_t s = top; s >= k; --s) count[s] += count[s - k];
    const double total = std::ldexp(1.0, static_cast<int>(n));
    const auto rp = static_cast<std::size_t>(r_plus);
    if (rp == top / 2 && top % 2 == 0) {
      r.p = 1.0;
      return r;
    }
    double less = 0.0, greater = 0.0;
    for (std::size_t s = 0; s <= top; ++s) {
      if (s <= rp) less += count[s];
      if (s >= rp) greater += count[s];
    }
    r.p = std::min(1.0, 2.0 * std::min(less, greater) / total);
    return r;
  }
  const double mn = nn * (nn + 1.0) / 4.0;
  const double se = std::sqrt((nn * (nn + 1.0) * (2.0 * nn + 1.0) - 0.5 * tie_term) / 24.0);
  if (se == 0.0) {
    r.p = 1.0;
    return r;
  }
  const double z = (r.t - mn) / se;
  r.p = std::min(1.0, std::erfc(std::fabs(z) / std::sqrt(2.0)));  // 2 P(Z > |z|)
  return r;
}

std::vector<double> holm_adjust(const std::vector<double>& p) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!std::isnan(p[i])) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t i, std::size_t j) { return p[i] < p[j]; });
  std::vector<double> out(p.size(), kNaN);
  const double m = static_cast<double>(order.size());
  double running = 0.0;
  for (std::size_t r = 0; r < order.size(); ++r) {
    running = std::max(running, (m - static_cast<double>(r)) * p[order[r]]);
    out[order[r]] = std::min(1.0, running);
  }
  return out;
}

}  // namespace drbench
