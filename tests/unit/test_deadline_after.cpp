#include <catch2/catch.hpp>
#include <cmath>

#include "framework/support/time_limit.hpp"

using namespace drbench;
using Clock = std::chrono::steady_clock;

TEST_CASE("deadline_after saturates instead of wrapping into the past", "[time_limit]") {
  const auto now = Clock::now();
  const auto d = deadline_after(now, 2.5);
  CHECK(std::chrono::duration<double>(d - now).count() == Approx(2.5));
  for (double huge : {1e10, 1e18, 1e300, HUGE_VAL, std::nan("")}) {
    INFO(huge);
    CHECK(deadline_after(now, huge) == Clock::time_point::max());
  }
  // Just inside the clock's range the sum is kept (and lies in the future).
  CHECK(deadline_after(now, 1e9) > now);
  CHECK(deadline_after(now, 1e9) < Clock::time_point::max());
}
