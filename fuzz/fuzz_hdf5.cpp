// The HDF5 dataset reader (X, y, optional split) on arbitrary file bytes, as rank 0 reads a file
// that no manifest vouches for: rehearsed in a child process first, then read in-process.
#include "framework/core/error.hpp"
#include "framework/data/dataset.hpp"
#include "framework/data/load.hpp"
#include "fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = drbench::fuzz::write_scratch(data, size, ".h5");
  try {
    drbench::rehearse_hdf5_dataset(path);
    drbench::validate_dataset(drbench::read_hdf5_dataset(path));
  } catch (const drbench::Error&) {
  }
  return 0;
}
