// HDF5 datasets in the shared layout: X (n x d, row-major, any numeric type), y (n, integer),
// optional split (n, integer). Row-major n x d is exactly Armadillo's column-major d x n, so X is
// read straight into the matrix with HDF5 converting the element type.
#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/data/load.hpp"
#include "framework/support/h5_claims.hpp"
#include "framework/support/h5_handle.hpp"

namespace drbench {
namespace {

using h5::Handle;

std::vector<hsize_t> shape_of(hid_t dset) {
  Handle space(H5Dget_space(dset), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  std::vector<hsize_t> dims(rank > 0 ? rank : 0);
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

void check_claimed_size(hid_t dset, const std::string& path, const char* key,
                        const std::vector<hsize_t>& dims) {
  long double values = 1;
  std::string shape;
  for (hsize_t v : dims) {
    values *= static_cast<long double>(v);
    shape += (shape.empty() ? "" : " x ") + std::to_string(v);
  }
  std::error_code ec;
  const auto file_bytes = std::filesystem::file_size(path, ec);
  const std::string problem = h5_dataset_claim_problem(dset, values, ec ? 0 : file_bytes);
  if (!problem.empty())
    throw DataError(path + ": '" + key + "' (" + shape + ") " + problem +
                    " (file damaged or truncated; fix: rewrite it with h5py, or subsample it)");
}

bool numeric(hid_t dset) {
  Handle type(H5Dget_type(dset), H5Tclose);
  const H5T_class_t c = H5Tget_class(type.get());
  return c == H5T_INTEGER || c == H5T_FLOAT;
}

// x_cols: the columns of X, so a y that matches them instead of the rows is named as a transposed
// X.
std::vector<long long> read_integers(hid_t file, const std::string& path, const char* key,
                                     hsize_t n, hsize_t x_cols = 0) {
  Handle d(H5Dopen2(file, key, H5P_DEFAULT), H5Dclose);
  if (d.get() < 0)
    throw DataError(path + ": cannot open dataset '" + key + "' (fix: rewrite the file with h5py)");
  const auto dims = shape_of(d.get());
  hsize_t len = 1;
  for (hsize_t v : dims) len *= v;
  if (dims.empty() || dims.size() > 2 || (dims.size() == 2 && dims[1] != 1 && dims[0] != 1) ||
      len != n) {
    if (x_cols > 0 && len == x_cols && x_cols != n)
      throw DataError(path + ": X looks transposed: it has " + std::to_string(n) + " rows of " +
                      std::to_string(x_cols) + " values, and '" + key + "' has " +
                      std::to_string(len) + " entries, one per column (fix: store X as n rows " +
                      "(points) x d columns (features), e.g. X.T in numpy)");
    throw DataError(path + ": '" + key + "' must hold one entry per row of X (" +
                    std::to_string(n) + "), found " + std::to_string(len) +
                    " (fix: write it as a length-n vector)");
  }
  check_claimed_size(d.get(), path, key, dims);
  Handle type(H5Dget_type(d.get()), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_INTEGER)
    throw DataError(path + ": '" + key + "' must be an integer dataset (fix: store it as int32)");
  std::vector<long long> v(n);
  if (H5Dread(d.get(), H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
    throw DataError(path + ": reading '" + key +
                    "' failed (file damaged? fix: rewrite it with h5py)");
  return v;
}

// Optional `sequence` (id per row) and `order` (time index per row): the points are put in
// (sequence, order) order so that each sequence is stored in time order, which the sorted
// partitions then keep.
void read_time_order(hid_t file, const std::string& path, Dataset& ds) {
  const bool has_seq = H5Lexists(file, "sequence", H5P_DEFAULT) > 0;
  const bool has_order = H5Lexists(file, "order", H5P_DEFAULT) > 0;
  if (!has_seq && !has_order) return;
  const arma::uword n = ds.X.n_cols;
  std::vector<long long> seq(n, 0), order(n);
  if (has_seq) seq = read_integers(file, path, "sequence", n);
  for (arma::uword j = 0; j < n; ++j) order[j] = static_cast<long long>(j);
  if (has_order) order = read_integers(file, path, "order", n);
  for (arma::uword j = 0; j < n; ++j)
    if (seq[j] < 0)
      throw DataError(path + ": sequence[" + std::to_string(j) + "] = " + std::to_string(seq[j]) +
                      " is negative (fix: sequence ids must be >= 0)");
  std::vector<arma::uword> idx(n);
  for (arma::uword j = 0; j < n; ++j) idx[j] = j;
  std::stable_sort(idx.begin(), idx.end(), [&](arma::uword a, arma::uword b) {
    return seq[a] != seq[b] ? seq[a] < seq[b] : order[a] < order[b];
  });
  const arma::uvec perm(idx);
  ds.X = ds.X.cols(perm).eval();
  ds.y = ds.y(perm).eval();
  if (!ds.split.is_empty()) ds.split = ds.split(perm).eval();
  ds.sequence.set_size(n);
  for (arma::uword j = 0; j < n; ++j) ds.sequence(j) = static_cast<arma::uword>(seq[idx[j]]);
}

}  // namespace

Dataset read_hdf5_dataset(const std::string& path) {
  h5::Quiet quiet;
  if (std::filesystem::is_directory(path))
    throw DataError(path +
                    ": is a directory, not an HDF5 dataset (fix: give the .h5 file in it, "
                    "e.g. path: " +
                    (std::filesystem::path(path) / "NAME.h5").string() + ")");
  if (!std::filesystem::is_regular_file(path))
    throw DataError(path + ": no such file (fix: check the path or the data path)");
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw DataError(path +
                    ": not a readable HDF5 file (fix: check the path, or that the file is "
                    "not truncated; regenerate it with h5py)");
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (file.get() < 0)
    throw DataError(
        path +
        ": cannot open HDF5 file read-only (fix: check its permissions, or rewrite it with h5py)");
  for (const char* key : {"X", "y"})
    if (H5Lexists(file.get(), key, H5P_DEFAULT) <= 0)
      throw DataError(path + ": no dataset '" + key +
                      "' (fix: the layout is X (n x d samples in rows), y (n labels 0..C-1), "
                      "optional split; docs/data.md)");

  Dataset ds;
  ds.source = path;
  {
    Handle x(H5Dopen2(file.get(), "X", H5P_DEFAULT), H5Dclose);
    if (x.get() < 0)
      throw DataError(path + ": cannot open dataset 'X' (fix: rewrite the file with h5py)");
    const auto dims = shape_of(x.get());
    if (dims.size() != 2)
      throw DataError(
          path + ": 'X' has rank " + std::to_string(dims.size()) +
          "; expected a 2-D array n x d, one sample per row (fix: reshape images to rows)");
    if (!numeric(x.get()))
      throw DataError(path + ": 'X' is not numeric (fix: store float64 or an integer type)");
    check_claimed_size(x.get(), path, "X", dims);
    ds.X.set_size(dims[1], dims[0]);
    if (ds.X.n_elem > 0 &&
        H5Dread(x.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, ds.X.memptr()) < 0)
      throw DataError(path +
                      ": reading 'X' failed (file damaged, or a compression filter missing; fix: "
                      "rewrite it with h5py)");
  }
  const auto y = read_integers(file.get(), path, "y", ds.X.n_cols, ds.X.n_rows);
  ds.y.set_size(y.size());
  long long ymax = -1;
  for (std::size_t j = 0; j < y.size(); ++j) {
    if (y[j] < 0)
      throw DataError(path + ": label y[" + std::to_string(j) + "] = " + std::to_string(y[j]) +
                      " is negative (fix: labels must be 0..C-1)");
    ds.y(j) = static_cast<arma::uword>(y[j]);
    ymax = std::max(ymax, y[j]);
  }
  ds.n_classes = static_cast<std::size_t>(ymax + 1);
  if (H5Lexists(file.get(), "split", H5P_DEFAULT) > 0) {
    const auto s = read_integers(file.get(), path, "split", ds.X.n_cols);
    ds.split.set_size(s.size());
    for (std::size_t j = 0; j < s.size(); ++j) {
      if (s[j] < 0 || s[j] > 2)
        throw DataError(path + ": split[" + std::to_string(j) + "] = " + std::to_string(s[j]) +
                        " (fix: 0 = train, 1 = test, 2 = validation)");
      ds.split(j) = s[j];
    }
  }
  read_time_order(file.get(), path, ds);
  return ds;
}

}  // namespace drbench
