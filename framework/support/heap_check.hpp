#pragma once
// Variable-length strings live in HDF5 "global heap collections", the one structure of the format
// that carries no checksum. libhdf5 1.10 loops forever on a collection whose free-space record
// has size 0 (found by fuzz/fuzz_results), so every collection is walked here, before the library
// is allowed to read a string from the file.
#include <string>

namespace drbench::h5 {

// Throws Error naming `path` and the byte offset when a collection does not parse; a file without
// damaged collections (every file drbench writes) passes in one linear scan.
void check_global_heaps(const std::string& path);

}  // namespace drbench::h5
