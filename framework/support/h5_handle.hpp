#pragma once
// HDF5 handles that close themselves, and a guard that silences HDF5's error-stack printing. In
// core because both the dataset reader (data) and the results file (results) open HDF5 files, and
// data sits below results: neither may take them from the other.
#include <hdf5.h>

#include <utility>

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

}  // namespace drbench::h5
