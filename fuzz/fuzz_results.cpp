// The results-file reader and the aggregation that turns it into tables, on arbitrary bytes.
#include "framework/core/error.hpp"
#include "framework/results/aggregate.hpp"
#include "framework/results/reader.hpp"
#include "framework/results/render.hpp"
#include "fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = drbench::fuzz::write_scratch(data, size, "-results.h5");
  try {
    const drbench::ResultsFile f = drbench::read_results(path, true);
    const drbench::Aggregate a = drbench::aggregate(f);
    (void)drbench::render_tables(a, "md");
    (void)drbench::to_long_csv(a, true);
  } catch (const drbench::Error&) {
  }
  return 0;
}
