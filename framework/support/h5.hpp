#pragma once
// A thin layer over the HDF5 C API for the results file: handles that close themselves, and the
// few shapes the schema uses (1-D columns, 2-D row-major matrices, UTF-8 strings, attributes).
// Every failure throws Error naming the file and the object.
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "framework/support/h5_handle.hpp"

namespace drbench::h5 {

// A file: `where` is its path, used in every error message.
struct File {
  Handle h;
  std::string where;
  std::uintmax_t bytes = 0;  // the file's size when opened: no claimed shape may exceed it
};

File create_file(const std::string& path);               // truncates
File open_file(const std::string& path, bool writable);  // throws when absent or not HDF5
bool is_hdf5(const std::string& path);

Handle create_group(const File& f, hid_t parent, const std::string& name);
Handle open_group(const File& f, hid_t parent, const std::string& name);
bool exists(hid_t parent, const std::string& path);  // every component of a/b/c
std::vector<std::string> children(const File& f, hid_t group);

// Attributes.
void attr_string(const File& f, hid_t obj, const std::string& name, const std::string& value);
void attr_strings(const File& f, hid_t obj, const std::string& name,
                  const std::vector<std::string>& values);
void attr_int(const File& f, hid_t obj, const std::string& name, std::int64_t value);
void attr_ints(const File& f, hid_t obj, const std::string& name,
               const std::vector<std::int64_t>& values);
bool has_attr(hid_t obj, const std::string& name);
std::string read_attr_string(const File& f, hid_t obj, const std::string& name);
std::vector<std::string> read_attr_strings(const File& f, hid_t obj, const std::string& name);
std::int64_t read_attr_int(const File& f, hid_t obj, const std::string& name);
std::vector<std::int64_t> read_attr_ints(const File& f, hid_t obj, const std::string& name);

// 1-D columns.
void write_f64(const File& f, hid_t g, const std::string& name, const std::vector<double>& v);
void write_u64(const File& f, hid_t g, const std::string& name,
               const std::vector<std::uint64_t>& v);
void write_i32(const File& f, hid_t g, const std::string& name, const std::vector<std::int32_t>& v);
void write_i8(const File& f, hid_t g, const std::string& name, const std::vector<std::int8_t>& v);
void write_strings(const File& f, hid_t g, const std::string& name,
                   const std::vector<std::string>& v);
void write_string(const File& f, hid_t g, const std::string& name, const std::string& v);  // scalar
// Any numeric column, converted by HDF5 to the requested memory type.
std::vector<double> read_f64(const File& f, hid_t g, const std::string& name);
std::vector<std::int64_t> read_i64(const File& f, hid_t g, const std::string& name);
std::vector<std::uint64_t> read_u64(const File& f, hid_t g, const std::string& name);
std::vector<std::string> read_strings(const File& f, hid_t g, const std::string& name);
std::string read_string(const File& f, hid_t g, const std::string& name);  // scalar

// 2-D datasets of doubles, rows x cols in row-major (C) order, as h5py shows them.
Handle write_matrix(const File& f, hid_t g, const std::string& name, std::uint64_t rows,
                    std::uint64_t cols, const double* data);
struct Matrix {
  std::uint64_t rows = 0, cols = 0;
  std::vector<double> data;  // row-major
};
Matrix read_matrix(const File& f, hid_t g, const std::string& name);

}  // namespace drbench::h5
