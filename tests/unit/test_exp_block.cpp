#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "framework/linalg/exp_block.hpp"

using namespace drbench;

namespace {

// Distance in units in the last place between two finite doubles of the same sign.
std::int64_t ulps(double a, double b) {
  std::int64_t ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  return ia > ib ? ia - ib : ib - ia;
}

}  // namespace

TEST_CASE("exp_block is within 1 ulp of std::exp and gives its special values",
          "[linalg][exp_block]") {
  std::mt19937_64 gen(7);
  std::vector<double> x;
  // The whole double range that matters (results from 0 through subnormal to overflow), the
  // RBF kernel's range -s/2 densely, and the edges of the fast path.
  std::uniform_real_distribution<double> wide(-760.0, 715.0), rbf(-40.0, 0.0), small(-1e-3, 1e-3);
  for (int i = 0; i < 200000; ++i) x.push_back(wide(gen));
  for (int i = 0; i < 200000; ++i) x.push_back(rbf(gen));
  for (int i = 0; i < 20000; ++i) x.push_back(small(gen));
  const double inf = std::numeric_limits<double>::infinity();
  for (double v : {0.0,
                   -0.0,
                   1e-300,
                   -1e-300,
                   1.0,
                   -1.0,
                   -708.0,
                   -708.0001,
                   -745.1,
                   -745.2,
                   -746.0,
                   -746.1,
                   709.7,
                   709.70001,
                   709.78,
                   709.8,
                   1e6,
                   -1e6,
                   inf,
                   -inf,
                   std::numeric_limits<double>::quiet_NaN(),
                   std::log(2.0) / 2,
                   -std::log(2.0) / 2})
    x.push_back(v);
  std::vector<double> y(x.size());
  exp_block(x.data(), y.data(), x.size());
  std::int64_t worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double ref = std::exp(x[i]);
    if (std::isnan(ref)) {
      CHECK(std::isnan(y[i]));
      continue;
    }
    if (ref == 0.0 || std::isinf(ref) || ref < std::numeric_limits<double>::min()) {
      CHECK(y[i] == ref);  // std::exp's own answer there
      continue;
    }
    worst = std::max(worst, ulps(ref, y[i]));
  }
  CHECK(worst <= 1);
}

TEST_CASE("exp_block: scale, aliasing, every tail length, and both widths give the same bits",
          "[linalg][exp_block]") {
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> s(0.0, 100.0);
  for (std::size_t n = 0; n <= 13; ++n) {
    std::vector<double> x(n), y(n), z(n), ref(n);
    for (auto& v : x) v = s(gen);
    for (std::size_t i = 0; i < n; ++i) ref[i] = std::exp(-0.5 * x[i]);
    exp_block(x.data(), y.data(), n, -0.5);
    force_two_lanes(true);
    exp_block(x.data(), z.data(), n, -0.5);
    force_two_lanes(false);
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(ulps(y[i], ref[i]) <= 1);
      CHECK(y[i] == z[i]);
    }
    exp_block(x.data(), x.data(), n, -0.5);  // in place
    for (std::size_t i = 0; i < n; ++i) CHECK(x[i] == y[i]);
  }
}
