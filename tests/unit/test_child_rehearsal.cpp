// The child-process rehearsal that stands between a damaged file and a crash inside libhdf5.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>

#include "framework/core/error.hpp"
#include "framework/results/reader.hpp"
#include "framework/support/build_info.hpp"
#include "framework/support/child_rehearsal.hpp"

using drbench::DataError;
using drbench::rehearse_in_child;

TEST_CASE("a rehearsal returns when the child finishes, whatever the read threw", "[rehearsal]") {
  CHECK_NOTHROW(rehearse_in_child("f.h5", "the fix", [] {}));
  CHECK_NOTHROW(rehearse_in_child("f.h5", "the fix", [] { throw drbench::Error("refused"); }));
  CHECK_NOTHROW(rehearse_in_child("f.h5", "the fix", [] { throw 42; }));
}

TEST_CASE("a crash, an odd exit or a hang in the child becomes a DataError naming the file",
          "[rehearsal]") {
  SECTION("a signal") {
    CHECK_THROWS_AS(rehearse_in_child("f.h5", "the fix", [] { std::raise(SIGSEGV); }), DataError);
    CHECK_THROWS_WITH(rehearse_in_child("f.h5", "the fix", [] { std::raise(SIGSEGV); }),
                      Catch::Contains("f.h5") && Catch::Contains("signal 11") &&
                          Catch::Contains("(fix: the fix)"));
    CHECK_THROWS_WITH(rehearse_in_child("f.h5", "the fix", [] { std::abort(); }),
                      Catch::Contains("signal 6"));
  }
  SECTION("an exit status") {
    CHECK_THROWS_WITH(rehearse_in_child("f.h5", "the fix", [] { ::_exit(3); }),
                      Catch::Contains("exit status 3"));
  }
  SECTION("a hang") {
    drbench::RehearsalLimits quick;
    quick.base_seconds = 0.2;
    CHECK_THROWS_WITH(rehearse_in_child(
                          "f.h5", "the fix",
                          [] {
                            for (;;) ::pause();
                          },
                          quick),
                      Catch::Contains("did not finish within"));
  }
}

TEST_CASE("a results file that crashes libhdf5 1.10.8 is refused, not fatal",
          "[rehearsal][results]") {
  // fuzz/known/README.md: a string reference whose heap-object index is out of its collection;
  // libhdf5 reads through a wild pointer and segfaults even without sanitizers.
  const std::string file =
      std::string(drbench::source_dir()) + "/fuzz/known/results-libhdf5-heap-index.h5";
  CHECK_THROWS_WITH(drbench::read_results(file), Catch::Contains(file) &&
                                                     Catch::Contains("crashed the HDF5 library") &&
                                                     Catch::Contains("fix:"));
}
