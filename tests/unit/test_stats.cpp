// The table statistics against scipy.stats 1.10 on fixed numbers; every expected value below was
// printed by /usr/bin/python3 with the scipy call named beside it.
#include <catch2/catch.hpp>
#include <cmath>
#include <tuple>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/results/stats.hpp"

using namespace drbench;

TEST_CASE("Student t quantile matches scipy.stats.t.ppf", "[stats]") {
  // stats.t.ppf(0.975, df), stats.t.ppf(0.1, df)
  CHECK(student_t_quantile(0.975, 1) == Approx(12.706204736432095).epsilon(1e-10));
  CHECK(student_t_quantile(0.975, 2) == Approx(4.302652729911275).epsilon(1e-10));
  CHECK(student_t_quantile(0.975, 4) == Approx(2.7764451051977987).epsilon(1e-10));
  CHECK(student_t_quantile(0.975, 19) == Approx(2.093024054408263).epsilon(1e-10));
  CHECK(student_t_quantile(0.1, 1) == Approx(-3.077683537207806).epsilon(1e-10));
  CHECK(student_t_quantile(0.1, 19) == Approx(-1.3277282090267981).epsilon(1e-10));
  CHECK_THROWS_AS(student_t_quantile(1.0, 3), Error);
}

TEST_CASE("paired t interval matches scipy's ttest_rel(...).confidence_interval()", "[stats]") {
  // stats.ttest_rel(a, b).confidence_interval(0.95) -> (-0.0047770126736714005,
  // 0.036777012673671394)
  const auto r = paired_ttest({0.12, 0.15, 0.11, 0.14, 0.13}, {0.10, 0.14, 0.12, 0.11, 0.10});
  CHECK(r.mean_diff == Approx(0.016).epsilon(1e-12));
  CHECK(r.ci_low == Approx(-0.0047770126736714005).epsilon(1e-9));
  CHECK(r.ci_high == Approx(0.036777012673671394).epsilon(1e-9));
  const auto one = paired_ttest({0.1}, {0.2});
  CHECK(std::isnan(one.ci_low));
  CHECK(std::isnan(one.ci_high));
  const auto constant = paired_ttest({0.5, 0.75}, {0.25, 0.5});  // no spread: a point interval
  CHECK(constant.ci_low == Approx(0.25));
  CHECK(constant.ci_high == Approx(0.25));
}

TEST_CASE("Wilcoxon signed-rank test matches scipy.stats.wilcoxon", "[stats]") {
  // Exact (no zeros, no ties, n <= 50): stats.wilcoxon(x, y) with its defaults.
  auto r = wilcoxon_signed_rank({0.31, 0.28, 0.35, 0.30, 0.27}, {0.25, 0.29, 0.26, 0.21, 0.20});
  CHECK(r.n == 5);
  CHECK(r.t == 1.0);
  CHECK(r.p == Approx(0.125).epsilon(1e-12));
  r = wilcoxon_signed_rank({1.9, 2.2, 3.1, 0.4, 1.7, 2.8, 2.05, 1.0},
                           {1.0, 2.5, 1.2, 0.1, 1.8, 1.3, 2.0, 0.35});
  CHECK(r.t == 5.0);
  CHECK(r.p == Approx(0.078125).epsilon(1e-12));
  r = wilcoxon_signed_rank({6, 5, 4, 3, 2, 1}, {0, 0, 0, 0, 0, 0});
  CHECK(r.t == 0.0);
  CHECK(r.p == Approx(0.03125).epsilon(1e-12));
  // np.sin(1.7 * np.arange(1, n + 1) + 0.3) + 0.1 against zeros: n = 20 exact, n = 55 (over 50)
  // the normal approximation.
  for (auto [n, w, p] : {std::tuple<int, double, double>{20, 79.0, 0.34881019592285156},
                         std::tuple<int, double, double>{55, 632.0, 0.2475831442661932}}) {
    std::vector<double> x, zero(static_cast<std::size_t>(n), 0.0);
    for (int i = 1; i <= n; ++i) x.push_back(std::sin(1.7 * i + 0.3) + 0.1);
    r = wilcoxon_signed_rank(x, zero);
    CHECK(r.t == w);
    CHECK(r.p == Approx(p).epsilon(1e-10));
  }
  // Zeros (dropped, zero_method="wilcox") and ties: the normal approximation with the tie
  // correction, as scipy switches to it for zeros: stats.wilcoxon(x, y) -> 2.5,
  // 0.1755543027732298.
  r = wilcoxon_signed_rank({1, 2, 3, 4, 5, 6, 7, 8}, {1, 1, 3, 2, 2, 6, 9, 3});
  CHECK(r.n == 8);
  CHECK(r.t == 2.5);
  CHECK(r.p == Approx(0.1755543027732298).epsilon(1e-10));
  // Ties without zeros: the normal approximation too, stats.wilcoxon(x, y, method="approx") ->
  // 1.5, 0.03268804300883124 (scipy 1.10's default "exact" would count a truncated rank sum).
  r = wilcoxon_signed_rank({3, 5, 7, 9, 2, 8, 4}, {1, 3, 5, 6, 3, 5, 3});
  CHECK(r.t == 1.5);
  CHECK(r.p == Approx(0.03268804300883124).epsilon(1e-10));
  // Every difference zero: nothing separates them; fewer than two pairs: no test.
  CHECK(wilcoxon_signed_rank({1, 2, 3}, {1, 2, 3}).p == 1.0);
  CHECK(std::isnan(wilcoxon_signed_rank({1}, {2}).p));
  // The interval is the paired t interval whichever test ran.
  r = wilcoxon_signed_rank({0.12, 0.15, 0.11, 0.14, 0.13}, {0.10, 0.14, 0.12, 0.11, 0.10});
  CHECK(r.ci_low == Approx(-0.0047770126736714005).epsilon(1e-9));
  CHECK_THROWS_AS(wilcoxon_signed_rank({1, 2}, {1}), Error);
}

TEST_CASE("Holm's step-down adjustment", "[stats]") {
  // By hand (statsmodels multipletests(p, method="holm") gives the same): sorted 0.005 x 4 =
  // 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> raised to 0.06; NaN not counted.
  const double nan = std::nan("");
  auto h = holm_adjust({0.01, 0.04, 0.03, 0.005, nan});
  CHECK(h[0] == Approx(0.03));
  CHECK(h[1] == Approx(0.06));
  CHECK(h[2] == Approx(0.06));
  CHECK(h[3] == Approx(0.02));
  CHECK(std::isnan(h[4]));
  h = holm_adjust({0.5, 0.6});  // capped at 1
  CHECK(h[0] == 1.0);
  CHECK(h[1] == 1.0);
  CHECK(holm_adjust({0.2})[0] == Approx(0.2));  // one comparison: unchanged
  CHECK(holm_adjust({}).empty());
}
