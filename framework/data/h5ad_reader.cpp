// AnnData .h5ad files (anndata >= 0.8 on-disk layout, an HDF5 file): X dense (n x d, cells in rows)
// or sparse (a group with encoding-type csr_matrix/csc_matrix, a shape attribute and data/indices/
// indptr; the older h5sparse_format/h5sparse_shape attributes are read too); obs columns as
// datasets (numbers or strings) or categorical groups (codes + categories, code -1 = missing);
// obsm/NAME and layers/NAME as other matrices (`matrix: obsm/X_pca`). Sparse matrices stay sparse
// (Dataset::Xs): preprocessing decides where they are densified.
#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/data/labels.hpp"
#include "framework/data/load.hpp"
#include "framework/support/h5_claims.hpp"
#include "framework/support/h5_handle.hpp"

namespace drbench {
namespace {

using h5::Handle;

struct H5adFile {
  std::string path;
  hid_t id;
  std::uintmax_t bytes;
};

const std::string kWriteFix = "write it with anndata (adata.write_h5ad) or h5py in that layout";

bool exists(hid_t loc, const std::string& name) {
  // Each part of a path must exist before the next is asked for.
  std::string part;
  for (std::size_t p = 0; p != std::string::npos;) {
    const auto e = name.find('/', p);
    part = name.substr(0, e);
    if (H5Lexists(loc, part.c_str(), H5P_DEFAULT) <= 0) return false;
    p = e == std::string::npos ? e : e + 1;
  }
  return true;
}

bool is_group(hid_t loc, const std::string& name) {
  H5O_info_t info;
  return H5Oget_info_by_name2(loc, name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) >= 0 &&
         info.type == H5O_TYPE_GROUP;
}

std::string attr_string(hid_t obj, const char* name) {
  if (H5Aexists(obj, name) <= 0) return "";
  Handle a(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  Handle t(H5Aget_type(a), H5Tclose);
  if (H5Tget_class(t) != H5T_STRING) return "";
  Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_cset(mem, H5Tget_cset(t));  // h5py writes UTF-8; HDF5 converts no character set
  if (H5Tis_variable_str(t) > 0) {
    H5Tset_size(mem, H5T_VARIABLE);
    char* s = nullptr;
    if (H5Aread(a, mem, &s) < 0 || !s) return "";
    std::string out(s);
    H5free_memory(s);
    return out;
  }
  const std::size_t n = H5Tget_size(t);
  H5Tset_size(mem, n + 1);
  std::string buf(n + 1, '\0');
  if (H5Aread(a, mem, buf.data()) < 0) return "";
  return buf.c_str();
}

std::vector<long long> attr_ints(hid_t obj, const char* name) {
  if (H5Aexists(obj, name) <= 0) return {};
  Handle a(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  Handle sp(H5Aget_space(a), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(sp);
  if (n <= 0 || n > 16) return {};
  std::vector<long long> v(static_cast<std::size_t>(n));
  if (H5Aread(a, H5T_NATIVE_LLONG, v.data()) < 0) return {};
  return v;
}

Handle open_dataset(const H5adFile& f, hid_t loc, const std::string& name, const std::string& what,
                    std::vector<hsize_t>& dims) {
  Handle d(H5Dopen2(loc, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (d.get() < 0)
    throw DataError(f.path + ": '" + what + "' is not a dataset (fix: " + kWriteFix + ")");
  Handle sp(H5Dget_space(d), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(sp);
  dims.assign(rank > 0 ? rank : 0, 0);
  if (rank > 0) H5Sget_simple_extent_dims(sp, dims.data(), nullptr);
  long double count = 1;
  for (auto v : dims) count *= static_cast<long double>(v);
  const std::string problem = h5_dataset_claim_problem(d, count, f.bytes);
  if (!problem.empty())
    throw DataError(f.path + ": '" + what + "' " + problem +
                    " (file damaged or truncated; fix: " + kWriteFix + ")");
  return d;
}

std::vector<double> read_numbers(const H5adFile& f, hid_t loc, const std::string& name,
                                 const std::string& what, std::vector<hsize_t>& dims) {
  Handle d = open_dataset(f, loc, name, what, dims);
  Handle t(H5Dget_type(d), H5Tclose);
  const H5T_class_t c = H5Tget_class(t);
  if (c != H5T_INTEGER && c != H5T_FLOAT && c != H5T_ENUM)
    throw DataError(f.path + ": '" + what +
                    "' is not numeric (fix: store float32/float64 or "
                    "integers)");
  std::size_t count = 1;
  for (auto v : dims) count *= v;
  std::vector<double> out(count);
  if (count > 0 && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
    throw DataError(f.path + ": reading '" + what +
                    "' failed (file truncated or damaged, or a compression filter this HDF5 "
                    "lacks; fix: " +
                    kWriteFix + " using gzip or no compression)");
  return out;
}

std::vector<std::string> read_strings(const H5adFile& f, hid_t loc, const std::string& name,
                                      const std::string& what) {
  std::vector<hsize_t> dims;
  Handle d = open_dataset(f, loc, name, what, dims);
  Handle t(H5Dget_type(d), H5Tclose);
  std::size_t count = 1;
  for (auto v : dims) count *= v;
  std::vector<std::string> out(count);
  Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_cset(mem, H5Tget_cset(t));
  const std::string fail = f.path + ": reading '" + what + "' failed (fix: " + kWriteFix + ")";
  if (H5Tis_variable_str(t) > 0) {
    H5Tset_size(mem, H5T_VARIABLE);
    std::vector<char*> s(count, nullptr);
    if (count > 0 && H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, s.data()) < 0)
      throw DataError(fail);
    for (std::size_t i = 0; i < count; ++i) out[i] = s[i] ? s[i] : "";
    Handle sp(H5Dget_space(d), H5Sclose);
    H5Dvlen_reclaim(mem, sp, H5P_DEFAULT, s.data());
    return out;
  }
  const std::size_t len = H5Tget_size(t);
  H5Tset_size(mem, len);
  H5Tset_strpad(mem, H5T_STR_NULLPAD);
  std::string buf(count * len, '\0');
  if (count > 0 && H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()) < 0)
    throw DataError(fail);
  for (std::size_t i = 0; i < count; ++i) out[i] = std::string(buf.data() + i * len, len).c_str();
  return out;
}

// A CSR or CSC matrix kept sparse (d x n, one column per cell); held: what reading held, in
// cells' worth of the kept matrix (Dataset::n_load_peak): scipy's arrays as doubles and the
// sorted copy beside the matrix, and for CSC the transposed copy.
arma::sp_mat read_sparse(const H5adFile& f, hid_t g, const std::string& key, bool csr,
                         const std::vector<long long>& shape, arma::uword& held) {
  const std::string what = f.path + ": '" + key + "'";
  if (shape.size() != 2 || shape[0] < 0 || shape[1] < 0)
    throw DataError(what +
                    ": a sparse matrix without a 2-entry shape attribute (fix: " + kWriteFix + ")");
  const auto n = static_cast<arma::uword>(shape[0]), d = static_cast<arma::uword>(shape[1]);
  std::vector<hsize_t> dims;
  const auto data = read_numbers(f, g, "data", key + "/data", dims);
  const auto indices = read_numbers(f, g, "indices", key + "/indices", dims);
  const auto indptr = read_numbers(f, g, "indptr", key + "/indptr", dims);
  const arma::uword outer = csr ? n : d, inner = csr ? d : n;
  const std::string damaged = what + ": damaged " + (csr ? "CSR" : "CSC") +
                              " matrix: indptr must hold " + std::to_string(outer + 1) +
                              " rising offsets into data/indices, and indices lie in 0.." +
                              std::to_string(inner) + " (fix: " + kWriteFix + ")";
  held = csr ? 3 * n : 4 * n;
  arma::sp_mat m = compressed_to_sparse(outer, inner, indptr, indices, data, damaged);
  if (csr) return m;  // CSR cells x genes is CSC genes x cells
  return m.t();
}

// held: the most points' worth of memory reading held (Dataset::n_load_peak).
// Into ds.X, or ds.Xs for a sparse matrix.
void read_points(const H5adFile& f, const std::string& key, Dataset& ds) {
  arma::uword& held = ds.n_load_peak;
  if (!exists(f.id, key))
    throw DataError(f.path + ": no '" + key +
                    "' (fix: matrix: X, or an embedding such as obsm/X_pca, or layers/NAME)");
  if (is_group(f.id, key)) {
    Handle g(H5Gopen2(f.id, key.c_str(), H5P_DEFAULT), H5Gclose);
    std::string enc = attr_string(g, "encoding-type");
    auto shape = attr_ints(g, "shape");
    if (enc.empty()) {  // anndata < 0.8
      enc = attr_string(g, "h5sparse_format") + "_matrix";
      shape = attr_ints(g, "h5sparse_shape");
    }
    if (enc != "csr_matrix" && enc != "csc_matrix")
      throw DataError(f.path + ": '" + key + "' is a group of encoding '" + enc +
                      "', neither a dense array nor csr_matrix/csc_matrix (fix: " + kWriteFix +
                      ")");
    ds.Xs = read_sparse(f, g, key, enc == "csr_matrix", shape, held);
    if (ds.Xs.n_cols == 0) ds.Xs.reset();  // no cells: refused as such by validate_dataset
    return;
  }
  std::vector<hsize_t> dims;
  auto v = read_numbers(f, f.id, key, key, dims);
  if (dims.size() != 2)
    throw DataError(f.path + ": '" + key + "' has " + std::to_string(dims.size()) +
                    " dimensions; expected cells x features (fix: " + kWriteFix + ")");
  held = 2 * dims[0];                            // the values read, and the matrix copied from them
  ds.X = arma::mat(v.data(), dims[1], dims[0]);  // row-major n x d is column-major d x n
}

RawLabels read_obs_column(const H5adFile& f, const std::string& column) {
  const std::string key = "obs/" + column;
  if (!exists(f.id, key)) {
    std::string have;
    if (exists(f.id, "obs")) {
      if (!is_group(f.id, "obs"))
        throw DataError(f.path +
                        ": obs is one table (anndata < 0.7), not a group of columns "
                        "(fix: read and rewrite the file with a current anndata)");
      Handle obs(H5Gopen2(f.id, "obs", H5P_DEFAULT), H5Gclose);
      H5Literate(
          obs, H5_INDEX_NAME, H5_ITER_INC, nullptr,
          [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
            auto& s = *static_cast<std::string*>(out);
            if (name[0] != '_') s += (s.empty() ? "" : ", ") + std::string(name);
            return 0;
          },
          &have);
    }
    throw DataError(f.path + ": no obs column '" + column + "' (obs has: " +
                    (have.empty() ? "none" : have) + ") (fix: labels: one of them)");
  }
  RawLabels out;
  std::vector<hsize_t> dims;
  if (is_group(f.id, key)) {  // categorical: codes index categories, -1 is missing
    Handle g(H5Gopen2(f.id, key.c_str(), H5P_DEFAULT), H5Gclose);
    const auto codes = read_numbers(f, g, "codes", key + "/codes", dims);
    const auto cats = read_strings(f, g, "categories", key + "/categories");
    out.text = true;
    for (std::size_t j = 0; j < codes.size(); ++j) {
      if (codes[j] < 0 || codes[j] >= double(cats.size()))
        throw DataError(f.path + ": obs column '" + column + "' has no category for cell " +
                        std::to_string(j) + " (code " + std::to_string(long(codes[j])) +
                        ": missing) (fix: drop or label those cells before loading)");
      out.name.push_back(cats[static_cast<std::size_t>(codes[j])]);
    }
    return out;
  }
  Handle d(H5Dopen2(f.id, key.c_str(), H5P_DEFAULT), H5Dclose);
  Handle t(H5Dget_type(d), H5Tclose);
  if (H5Tget_class(t) == H5T_STRING) {
    out.text = true;
    out.name = read_strings(f, f.id, key, key);
  } else {
    out.num = read_numbers(f, f.id, key, key, dims);
  }
  return out;
}

}  // namespace

Dataset read_h5ad_dataset(const std::string& path, const DataVars& vars) {
  h5::Quiet quiet;
  if (!std::filesystem::is_regular_file(path))
    throw DataError(path + ": no such file (fix: check the path or the data path)");
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw DataError(path + ": not a readable HDF5/.h5ad file (truncated or another format; fix: " +
                    kWriteFix + ")");
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (file.get() < 0)
    throw DataError(
        path +
        ": cannot open the .h5ad file (truncated or damaged?) (fix: check its permissions, or " +
        kWriteFix + ")");
  std::error_code ec;
  const H5adFile f{path, file.get(), std::filesystem::file_size(path, ec)};
  Dataset ds;
  ds.source = path;
  read_points(f, vars.matrix.empty() ? "X" : vars.matrix, ds);
  if (!vars.labels_path.empty()) {
    set_labels(ds, read_labels_file(vars.labels_path), vars.labels_path,
               "labels_path: a file with one label per line, in the order of the cells");
  } else if (!vars.obs_labels.empty()) {
    set_labels(ds, read_obs_column(f, vars.obs_labels),
               path + ": obs column '" + vars.obs_labels + "'",
               "labels: names an obs column with one value per cell");
  } else {
    throw DataError(path +
                    ": an .h5ad needs labels for kNN evaluation (fix: labels: an obs "
                    "column such as cell_type, or labels_path: a file of labels)");
  }
  return ds;
}

}  // namespace drbench
