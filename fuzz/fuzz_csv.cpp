// The CSV dataset reader and the dataset validator.
#include "framework/core/error.hpp"
#include "framework/data/dataset.hpp"
#include "framework/data/load.hpp"
#include "fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = drbench::fuzz::write_scratch(data, size, ".csv");
  try {
    drbench::validate_dataset(drbench::read_csv_dataset(path));
  } catch (const drbench::Error&) {
  }
  return 0;
}
