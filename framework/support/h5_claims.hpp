#pragma once
// A damaged HDF5 file can claim any shape; both readers (datasets and results) ask here before
// allocating what a dataset or attribute claims, so a 2 kB file cannot make them allocate 19 TB
// (two fuzzing finds, one per reader).
#include <hdf5.h>

#include <cstdint>
#include <string>

namespace drbench {

// Why `values` elements of `dset` cannot be in a file of `file_bytes` bytes, or "" when they can.
// Unfiltered (or checksum-only) data must be stored in full; compressed data is bounded by
// deflate's largest ratio (1032:1), and by the machine's memory as float64.
std::string h5_dataset_claim_problem(hid_t dset, long double values, std::uintmax_t file_bytes);

// The same for an attribute: its values live in the file's object headers.
std::string h5_attribute_claim_problem(hid_t attr, long double values, std::uintmax_t file_bytes);

}  // namespace drbench
