// MATLAB .mat files through Debian's libmatio: v5 and v7 (compressed v5) natively, v7.3 (an HDF5
// file behind a 512-byte header) through matio's HDF5 backend, which links the same serial libhdf5
// drbench does. matio presents every version as MATLAB does: column-major, dims as MATLAB shows
// them, so a v7.3 file (whose HDF5 datasets are stored transposed) needs no special case here.
// The points are the rows of the matrix (Deng Cai's fea is n x d); a matrix whose columns match
// the labels instead is named as transposed.
#include <matio.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "framework/core/error.hpp"
#include "framework/data/labels.hpp"
#include "framework/data/load.hpp"
#include "framework/support/h5_handle.hpp"

namespace drbench {
namespace {

struct MatCloser {
  void operator()(mat_t* m) const { Mat_Close(m); }
};
struct VarFreer {
  void operator()(matvar_t* v) const { Mat_VarFree(v); }
};
using MatVar = std::unique_ptr<matvar_t, VarFreer>;

template <typename T>
void copy_as_double(const void* data, std::size_t count, double* out) {
  const T* p = static_cast<const T*>(data);
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<double>(p[i]);
}

// Element i of a numeric array's data as a double, by its MATLAB class.
bool to_doubles(matio_classes c, const void* data, std::size_t count, double* out) {
  switch (c) {
    case MAT_C_DOUBLE:
      copy_as_double<double>(data, count, out);
      return true;
    case MAT_C_SINGLE:
      copy_as_double<float>(data, count, out);
      return true;
    case MAT_C_INT8:
      copy_as_double<std::int8_t>(data, count, out);
      return true;
    case MAT_C_UINT8:
      copy_as_double<std::uint8_t>(data, count, out);
      return true;
    case MAT_C_INT16:
      copy_as_double<std::int16_t>(data, count, out);
      return true;
    case MAT_C_UINT16:
      copy_as_double<std::uint16_t>(data, count, out);
      return true;
    case MAT_C_INT32:
      copy_as_double<std::int32_t>(data, count, out);
      return true;
    case MAT_C_UINT32:
      copy_as_double<std::uint32_t>(data, count, out);
      return true;
    case MAT_C_INT64:
      copy_as_double<std::int64_t>(data, count, out);
      return true;
    case MAT_C_UINT64:
      copy_as_double<std::uint64_t>(data, count, out);
      return true;
    default:
      return false;
  }
}

const std::string kMatFix =
    "store a real numeric matrix, e.g. fea = double(fea); save(file, 'fea', 'gnd')";

// The variable as MATLAB's rows x cols, column-major; a sparse one (a labels vector) is densified.
arma::mat read_matrix(const matvar_t* v, const std::string& what) {
  if (v->rank != 2)
    throw DataError(what + ": has " + std::to_string(v->rank) +
                    " dimensions (fix: reshape it to n x d, one point per row)");
  if (v->isComplex) throw DataError(what + ": is complex (fix: " + kMatFix + ")");
  const std::size_t rows = v->dims[0], cols = v->dims[1];
  arma::mat m(rows, cols, arma::fill::zeros);
  if (v->class_type == MAT_C_SPARSE) {
    check_densify(double(rows), double(cols), what);
    const auto* s = static_cast<const mat_sparse_t*>(v->data);
    if (v->data_type != MAT_T_DOUBLE || !s)
      throw DataError(what + ": sparse of a type other than double (fix: " + kMatFix + ")");
    const auto* val = static_cast<const double*>(s->data);
    for (std::size_t j = 0; j + 1 < std::size_t(s->njc) && j < cols; ++j)
      for (auto k = s->jc[j]; k < s->jc[j + 1] && k < s->nir; ++k) {
        if (std::size_t(s->ir[k]) >= rows)
          throw DataError(what + ": damaged sparse matrix (fix: " + kMatFix + ")");
        m(s->ir[k], j) = val[k];
      }
    return m;
  }
  if (!v->data && rows * cols > 0)
    throw DataError(what +
                    ": its data could not be read (file truncated or damaged; fix: save "
                    "it again)");
  if (!to_doubles(v->class_type, v->data, rows * cols, m.memptr()))
    throw DataError(what + ": is a MATLAB " +
                    (v->class_type == MAT_C_CELL     ? std::string("cell array")
                     : v->class_type == MAT_C_STRUCT ? std::string("struct")
                     : v->class_type == MAT_C_CHAR   ? std::string("char array")
                                                     : "class " + std::to_string(v->class_type)) +
                    ", not a numeric matrix (fix: " + kMatFix + ")");
  return m;
}

// A sparse variable (MATLAB's n x d, compressed columns) as Dataset::Xs, d x n, kept sparse: its
// transpose, which is the same entries read row by row.
arma::sp_mat read_sparse_points(const matvar_t* v, const std::string& what) {
  if (v->rank != 2)
    throw DataError(what + ": has " + std::to_string(v->rank) +
                    " dimensions (fix: reshape it to n x d, one point per row)");
  if (v->isComplex) throw DataError(what + ": is complex (fix: " + kMatFix + ")");
  const std::size_t rows = v->dims[0], cols = v->dims[1];
  const auto* s = static_cast<const mat_sparse_t*>(v->data);
  if (v->data_type != MAT_T_DOUBLE || !s)
    throw DataError(what + ": sparse of a type other than double (fix: " + kMatFix + ")");
  if (std::size_t(s->njc) != cols + 1 || s->jc[cols] > s->nir || s->jc[cols] > s->ndata)
    throw DataError(what + ": damaged sparse matrix (fix: " + kMatFix + ")");
  for (std::size_t j = 0; j < cols; ++j)
    if (s->jc[j + 1] < s->jc[j])
      throw DataError(what + ": damaged sparse matrix (fix: " + kMatFix + ")");
  const auto* val = static_cast<const double*>(s->data);
  const std::size_t nnz = s->jc[cols];
  arma::umat loc(2, nnz);
  arma::vec values(nnz);
  for (std::size_t j = 0; j < cols; ++j)
    for (auto k = s->jc[j]; k < s->jc[j + 1]; ++k) {
      if (std::size_t(s->ir[k]) >= rows)
        throw DataError(what + ": damaged sparse matrix (fix: " + kMatFix + ")");
      loc(0, k) = j;         // the feature
      loc(1, k) = s->ir[k];  // the point
      values(k) = val[k];
    }
  // Sorted by the batch constructor; a repeated (point, feature), which MATLAB never writes, sums
  // as scipy reads it; stored zeros are dropped.
  return arma::sp_mat(true, loc, values, cols, rows);
}

MatVar read_var(mat_t* mat, const std::string& file, const std::string& name, const char* key) {
  MatVar v(Mat_VarRead(mat, name.c_str()));
  if (v) return v;
  std::string have;
  Mat_Rewind(mat);
  while (matvar_t* info = Mat_VarReadNextInfo(mat)) {
    have += (have.empty() ? "" : ", ") + std::string(info->name ? info->name : "?");
    Mat_VarFree(info);
  }
  throw DataError(file + ": no variable '" + name + "' could be read (it holds " +
                  (have.empty() ? std::string("none readable") : have) +
                  "; a variable that should be there means a truncated file: save it again) "
                  "(fix: variables: {" +
                  key +
                  ": NAME}, e.g. {X: fea, y: gnd} for Deng Cai's "
                  "files)");
}

}  // namespace

Dataset read_mat_dataset(const std::string& file, const DataVars& vars) {
  if (!std::filesystem::is_regular_file(file))
    throw DataError(file + ": no such file (fix: check the path or the data path)");
  h5::Quiet quiet;  // v7.3: matio's HDF5 calls report through our messages, not HDF5's stack
  std::unique_ptr<mat_t, MatCloser> mat(Mat_Open(file.c_str(), MAT_ACC_RDONLY));
  if (!mat)
    throw DataError(file +
                    ": not a readable MATLAB .mat file (truncated, or not v5/v7/v7.3; "
                    "fix: save it again in MATLAB with save -v7 or -v7.3, or with "
                    "scipy.io.savemat)");
  Dataset ds;
  ds.source = file;
  const std::string xwhat = file + ": variable '" + vars.x + "'";
  const MatVar xv = read_var(mat.get(), file, vars.x, "X");
  if (xv->class_type == MAT_C_SPARSE)
    ds.Xs = read_sparse_points(xv.get(), xwhat);  // kept sparse: see Dataset::Xs
  else
    ds.X = read_matrix(xv.get(), xwhat).t();
  // matio's copy, MATLAB's column order as doubles (or the entries' locations), the transpose.
  ds.n_load_peak = 3 * ds.n();
  if (!vars.labels_path.empty()) {
    set_labels(ds, read_labels_file(vars.labels_path), vars.labels_path,
               "labels_path: a file with one label per line, in the order of the points");
    return ds;
  }
  const std::string ywhat = file + ": variable '" + vars.y + "'";
  const arma::mat y = read_matrix(read_var(mat.get(), file, vars.y, "y").get(), ywhat);
  if (y.n_rows != 1 && y.n_cols != 1)
    throw DataError(ywhat + ": labels must be a vector, found " + std::to_string(y.n_rows) + " x " +
                    std::to_string(y.n_cols) + " (fix: one label per point, gnd(:))");
  RawLabels labels;
  labels.num.assign(y.begin(), y.end());
  set_labels(ds, labels, ywhat, "variables: {y: NAME} names the labels variable");
  return ds;
}

}  // namespace drbench
