#pragma once
// A thin layer over the HDF5 C API for the results file: handles that close themselves, and the
// few shapes the schema uses (1-D columns, 2-D row-major matrices, UTF-8 strings, attributes).
// Every failure throws Error naming the file and the object.
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace drbench::h5 {

// Silences HDF5's own error-stack printing while alive: we report failures as Error messages that
// name the file, and an HDF5 stack dump on stderr would only bury them.
class Quiet {
 public:
  Quiet() {
    H5Eget_auto2(H5E_DEFAULT, &fn_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~Quiet() { H5Eset_auto2(H5E_DEFAULT, fn_, data_); }
  Quiet(const Quiet&) = delete;
  Quiet& operator=(const Quiet&) = delete;

 private:
  H5E_auto2_t fn_ = nullptr;
  void* data_ = nullptr;
};

class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, -1)), close_(o.close_) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, -1);
      close_ = o.close_;
    }
    return *this;
  }
  ~Handle() { reset(); }
  hid_t get() const { return id_; }
  operator hid_t() const { return id_; }
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = -1;
  }
  // Closes now and reports failure (a failed H5Fclose means the data did not reach the file).
  herr_t close() {
    herr_t rc = (id_ >= 0 && close_) ? close_(id_) : 0;
    id_ = -1;
    return rc;
  }

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

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
