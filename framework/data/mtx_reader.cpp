// MatrixMarket .mtx (plain or .gz, as scipy.io.mmwrite and 10x Genomics write them): coordinate
// (sparse; real, integer or pattern; general or symmetric) or array (dense, column-major). Rows
// are the points; 10x's matrix.mtx holds genes x cells and is named as transposed when its labels
// match the columns. The labels come from labels_path. A coordinate matrix stays sparse
// (Dataset::Xs); an array one is dense.
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/data/labels.hpp"
#include "framework/data/load.hpp"

namespace drbench {
namespace {

const std::string kMtxFix = "write it with scipy.io.mmwrite";

class Lines {
 public:
  explicit Lines(const std::string& path) : f_(gzopen(path.c_str(), "rb")) {}
  ~Lines() {
    if (f_) gzclose(f_);
  }
  Lines(const Lines&) = delete;
  Lines& operator=(const Lines&) = delete;
  bool ok() const { return f_ != nullptr; }
  // The next line (without its newline); false at the end. Throws on a damaged gzip stream.
  bool next(std::string& line, const std::string& path) {
    line.clear();
    char buf[4096];
    while (gzgets(f_, buf, sizeof buf)) {
      line += buf;
      if (!line.empty() && line.back() == '\n') {
        line.pop_back();
        ++no_;
        return true;
      }
    }
    int err = Z_OK;
    gzerror(f_, &err);
    if (err != Z_OK && err != Z_STREAM_END)
      throw DataError(path + ": compressed stream damaged or truncated after line " +
                      std::to_string(no_) + " (fix: " + kMtxFix + ", or gzip it again)");
    if (line.empty()) return false;
    ++no_;
    return true;
  }
  int number() const { return no_; }

 private:
  gzFile f_;
  int no_ = 0;
};

bool number(std::istringstream& in, double& v) {
  std::string tok;
  if (!(in >> tok)) return false;
  const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  return r.ec == std::errc() && r.ptr == tok.data() + tok.size();
}

}  // namespace

Dataset read_mtx_dataset(const std::string& path, const DataVars& vars) {
  if (!std::filesystem::is_regular_file(path))
    throw DataError(path + ": no such file (fix: check the path or the data path)");
  Lines in(path);
  if (!in.ok()) throw DataError(path + ": cannot open (fix: check its permissions)");
  std::string line;
  if (!in.next(line, path) || line.rfind("%%MatrixMarket", 0) != 0)
    throw DataError(path + ": no %%MatrixMarket header line (fix: " + kMtxFix + ")");
  std::istringstream h(line);
  std::string magic, object, format, field, symmetry;
  h >> magic >> object >> format >> field >> symmetry;
  for (auto* s : {&object, &format, &field, &symmetry})
    std::transform(s->begin(), s->end(), s->begin(), ::tolower);
  const bool coordinate = format == "coordinate";
  if (object != "matrix" || (!coordinate && format != "array") ||
      (field != "real" && field != "integer" && field != "double" && field != "pattern") ||
      (symmetry != "general" && (symmetry != "symmetric" || !coordinate)))
    throw DataError(path + ": '" + line +
                    "' is not supported (fix: a real, integer or pattern matrix, general (or "
                    "symmetric coordinate), coordinate or array: " +
                    kMtxFix + ")");
  while (in.next(line, path) && (line.empty() || line[0] == '%')) {
  }
  std::istringstream sz(line);
  double rows = 0, cols = 0, nnz = 0;
  if (!number(sz, rows) || !number(sz, cols) || (coordinate && !number(sz, nnz)) || rows < 0 ||
      cols < 0)
    throw DataError(path + ":" + std::to_string(in.number()) + ": bad size line '" + line +
                    "' (fix: " + kMtxFix + ")");
  if (!coordinate) check_densify(rows, cols, path);
  const auto n = static_cast<arma::uword>(rows), d = static_cast<arma::uword>(cols);
  Dataset ds;
  ds.source = path;
  // Coordinate entries as (feature, point) locations, gathered and then sorted into the sparse
  // matrix; symmetric files store one triangle, mirrored here.
  std::vector<arma::uword> loc;
  std::vector<double> val;
  if (coordinate) {
    if (nnz < 0 || nnz > rows * cols)
      throw DataError(path + ":" + std::to_string(in.number()) + ": bad size line '" + line +
                      "' (more entries than the matrix has) (fix: " + kMtxFix + ")");
  } else {
    ds.X.zeros(d, n);
  }
  const double expect = coordinate ? nnz : rows * cols;
  double got = 0;
  while (got < expect && in.next(line, path)) {
    if (line.empty() || line[0] == '%') continue;
    std::istringstream e(line);
    double i = 0, j = 0, v = 1;
    const bool ok = coordinate
                        ? number(e, i) && number(e, j) && (field == "pattern" || number(e, v))
                        : number(e, v);
    if (!ok || (coordinate && (i < 1 || i > rows || j < 1 || j > cols)))
      throw DataError(path + ":" + std::to_string(in.number()) + ": bad entry '" + line +
                      "' (fix: " + kMtxFix + ")");
    if (coordinate) {
      if (i != std::floor(i) || j != std::floor(j))
        throw DataError(path + ":" + std::to_string(in.number()) + ": bad entry '" + line +
                        "' (fix: " + kMtxFix + ")");
      loc.push_back(arma::uword(j) - 1);
      loc.push_back(arma::uword(i) - 1);
      val.push_back(v);
      if (symmetry == "symmetric" && i != j) {
        loc.push_back(arma::uword(i) - 1);
        loc.push_back(arma::uword(j) - 1);
        val.push_back(v);
      }
    } else {  // array: column-major, so entry k is row k % n of column k / n
      const auto k = static_cast<arma::uword>(got);
      ds.X(k / n, k % n) = v;
    }
    ++got;
  }
  if (got < expect)
    throw DataError(path + ": holds " + std::to_string(std::uint64_t(got)) + " of the " +
                    std::to_string(std::uint64_t(expect)) +
                    " entries its size line promises (file truncated; fix: " + kMtxFix + ")");
  if (coordinate) {
    // The triplets, the location matrix and the sorted matrix beside one another: about three
    // times the kept matrix (Dataset::n_load_peak, in points of the kept matrix).
    ds.n_load_peak = 3 * n;
    const arma::umat locations(loc.data(), 2, val.size(), false, true);
    const arma::vec values(val.data(), val.size(), false, true);
    // add_values: repeated coordinates sum (as scipy reads them); zeros are dropped.
    ds.Xs = arma::sp_mat(true, locations, values, d, n, true, true);
    if (n == 0) ds.Xs.reset();
  }
  if (vars.labels_path.empty())
    throw DataError(path +
                    ": a .mtx holds no labels (fix: labels_path: a text file with one "
                    "label per line, one line per row of the matrix)");
  set_labels(ds, read_labels_file(vars.labels_path), vars.labels_path,
             "labels_path: a file with one label per line, one line per row of the matrix");
  return ds;
}

}  // namespace drbench
