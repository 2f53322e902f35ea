// The IDX (MNIST-format) reader: the input is split in two at its first byte's proportion, the
// images file and the labels file.
#include "framework/core/error.hpp"
#include "framework/data/dataset.hpp"
#include "framework/data/load.hpp"
#include "fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t cut = 1 + (size - 1) * data[0] / 256;
  const std::string images = drbench::fuzz::write_scratch(data + 1, cut - 1, "-images-idx3-ubyte");
  const std::string labels =
      drbench::fuzz::write_scratch(data + cut, size - cut, "-labels-idx1-ubyte");
  try {
    drbench::validate_dataset(drbench::read_idx_dataset(images, labels));
  } catch (const drbench::Error&) {
  }
  return 0;
}
