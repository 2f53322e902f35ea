#include <catch2/catch.hpp>

#include "framework/results/ranks.hpp"

using namespace drbench;

TEST_CASE("Friedman test equals scipy.stats.friedmanchisquare on the same ranks", "[ranks]") {
  // /usr/bin/python3: X = np.random.RandomState(3).rand(8, 5); R = rankdata(-row) per row;
  // stats.friedmanchisquare(*R.T) -> 3.9000000000000057, p 0.41970851118021446.
  std::vector<std::vector<double>> R = {{3, 2, 5, 4, 1}, {1, 4, 3, 5, 2}, {5, 3, 2, 4, 1},
                                        {1, 5, 2, 4, 3}, {4, 1, 3, 5, 2}, {2, 4, 5, 3, 1},
                                        {1, 4, 2, 3, 5}, {5, 1, 2, 3, 4}};
  FriedmanResult f = friedman(R);
  CHECK(f.chi2 == Approx(3.9000000000000057).epsilon(1e-12));
  CHECK(f.p == Approx(0.41970851118021446).epsilon(1e-10));
  // With ties (rows 0 and 3 changed): scipy's tie correction -> 4.103896103896122,
  // p 0.3921276087432545.
  R[0] = {1.5, 1.5, 3, 4, 5};
  R[3] = {2, 2, 2, 4.5, 4.5};
  f = friedman(R);
  CHECK(f.chi2 == Approx(4.103896103896122).epsilon(1e-12));
  CHECK(f.p == Approx(0.3921276087432545).epsilon(1e-10));
  // block_ranks gives scipy.stats.rankdata's average ranks, best first.
  CHECK(block_ranks({0.3, 0.1, 0.3, 0.2}, false) == std::vector<double>{3.5, 1, 3.5, 2});
  CHECK(block_ranks({0.3, 0.1, 0.3, 0.2}, true) == std::vector<double>{1.5, 4, 1.5, 3});
}

TEST_CASE("Demsar's worked example: Friedman, Iman-Davenport and the Nemenyi CD", "[ranks]") {
  // Demsar (JMLR 2006), section 3.2.4: four C4.5 variants on 14 datasets with mean ranks 3.143,
  // 2.000, 2.893, 1.964: chi2_F = 9.28, F_F = 3.69, CD = 2.569 sqrt(4 5 / (6 14)) = 1.25 at 0.05.
  // Rank rows with exactly those mean ranks (44, 28, 40.5, 27.5 over 14 blocks).
  std::vector<std::vector<double>> R;
  const std::vector<std::vector<double>> pattern = {
      {4, 2, 3, 1}, {4, 1, 3, 2},     {3, 2, 4, 1}, {4, 2, 3, 1}, {3, 1, 4, 2},
      {4, 2, 3, 1}, {3, 2, 2.5, 2.5}, {4, 1, 3, 2}, {1, 3, 2, 4}, {2, 3, 1, 4},
      {3, 2, 4, 1}, {4, 2, 3, 1},     {1, 3, 2, 4}, {4, 2, 3, 1}};
  for (const auto& r : pattern) R.push_back(r);
  FriedmanResult f = friedman(R);
  REQUIRE(f.mean_rank.size() == 4);
  CHECK(f.mean_rank[0] == Approx(44.0 / 14));
  CHECK(f.mean_rank[1] == Approx(28.0 / 14));
  CHECK(f.mean_rank[2] == Approx(40.5 / 14));
  CHECK(f.mean_rank[3] == Approx(27.5 / 14));
  // Demsar's statistics use no tie correction; ours (as scipy) divides by 1 - 6/(14 * 4 * 15)
  // for the one pair of tied ranks.
  const double c = 1 - 6.0 / (14 * 4 * 15);
  CHECK(f.chi2 * c == Approx(9.28).margin(0.005));
  CHECK(f.q_alpha == Approx(2.569).margin(0.0005));
  CHECK(f.cd == Approx(1.25).margin(0.005));
  CHECK(f.iman_davenport == Approx(3.69).margin(0.06));  // Demsar rounds chi2_F first
  // Demsar's Table 5 (q_0.05 and q_0.10 for k = 2..10), the studentised range over sqrt 2.
  const double q05[] = {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164};
  const double q10[] = {1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920};
  for (std::size_t k = 2; k <= 10; ++k) {
    INFO("k = " << k);
    CHECK(nemenyi_q(k, 0.05) == Approx(q05[k - 2]).margin(0.001));
    CHECK(nemenyi_q(k, 0.10) == Approx(q10[k - 2]).margin(0.001));
  }
  // chi-square and F tails against scipy.stats.chi2.sf / f.sf.
  CHECK(chi2_sf(9.28, 3) == Approx(0.025790724198756772).epsilon(1e-10));
  CHECK(chi2_sf(0.5, 1) == Approx(0.47950012218695337).epsilon(1e-10));
  CHECK(chi2_sf(30, 7) == Approx(9.495972508134177e-05).epsilon(1e-9));
}
