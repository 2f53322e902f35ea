#include "framework/results/stats.hpp"

#include <cmath>
#include <limits>

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

TTestResult paired_ttest(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) throw Error("paired_ttest: samples of different lengths");
  TTestResult r;
  r.n = a.size();
  std::vector<double> d(r.n);
  for (std::size_t i = 0; i < r.n; ++i) d[i] = a[i] - b[i];
  r.mean_diff = mean(d);
  if (r.n < 2) {
    r.t = r.p = kNaN;
    return r;
  }
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

}  // namespace drbench
