#pragma once
// Writing small HDF5 datasets for the data-reader tests.
#include <hdf5.h>

#include <catch2/catch.hpp>
#include <vector>

namespace drbench::testing {

// One contiguous dataset `name` of `type` with shape `dims` in `file`, from `data`.
inline void write_dataset(hid_t file, const char* name, hid_t type, std::vector<hsize_t> dims,
                          const void* data) {
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t d = H5Dcreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(d >= 0);
  REQUIRE(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
  H5Dclose(d);
  H5Sclose(space);
}

}  // namespace drbench::testing
