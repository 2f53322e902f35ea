#pragma once
// What a dataset entry and the splits of a config say, as plain values: the data layer reads,
// preprocesses and splits by them without knowing the config that carried them.
#include <cctype>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "framework/core/params.hpp"

namespace drbench {

// One step of the preprocessing chain; each is fitted on the training part only.
struct PreprocStep {
  enum class Kind { Center, Standardize, MinMax, Pca, UnitNorm } kind = Kind::Center;
  bool per_feature = true;  // MinMax: per feature, or one global min/max (USPS [-1,1] -> [0,1])
  double variance = 0.0;    // Pca: keep this fraction of the training variance (0 < v <= 1) ...
  std::uint64_t components = 0;  // ... or this many components (exactly one of the two is set)
  std::string describe() const;  // "pca(variance=0.99)"
};

struct DatasetSpec {
  std::string name;  // label used in results and tables
  // Where the points come from: "file" (HDF5 on the data path, by name or path), "csv", "idx"
  // (pair of IDX files, e.g. Fashion-MNIST), "bundled" (iris, wine in datasets/), "generator".
  std::string source = "file";
  // "npy" (.npy/.npz), "mat", "h5ad", "mtx": the formats of numpy, MATLAB, AnnData, MatrixMarket.
  std::string path;  // file name or path for file/csv/idx ("" = <name>.h5 on the data path)
  // npz/mat: the arrays of the points and labels; h5ad: the matrix (X, obsm/NAME, layers/NAME)
  // and the obs column of the labels; labels_path: a text file of labels beside any of them.
  std::string var_x = "X", var_y = "y", matrix, labels, labels_path;
  std::string generator;  // swiss_roll, s_curve, gaussian_blobs, ...
  std::map<std::string, ParamValue> generator_params;
  std::uint64_t max_points = 0;  // 0 = all; otherwise a stratified, seeded subsample first
  std::vector<PreprocStep> preprocess;
  bool verify_checksum = true;
  // "classes": each class is one time-ordered sequence in file order (COIL-20's 72 poses per
  // object); "" keeps the file's own `sequence` column, if any.
  std::string sequences;
  // Keep only these labels (relabelled 0..k-1 in this order), e.g. USPS digits 0-4; empty = all.
  std::vector<std::uint64_t> classes;
  // The latent dims of every task on this dataset, replacing each method's `dims` here (a method
  // that ignores dims keeps dim 0); empty = the methods' own. A comparison that sets each data
  // set's dimension to its intrinsic dimension (drbench datasets --intrinsic-dim) writes it here.
  std::vector<std::uint64_t> dims;
  int line = 0;       // where it was declared, for errors raised later
  int dims_line = 0;  // where dims was written
};

// The source a file's extension names ("" when it names none): .h5/.hdf5 file, .csv[.gz] csv,
// .npy/.npz npy, .mat mat, .h5ad h5ad, .mtx[.gz] mtx.
inline std::string source_of_path(const std::string& path) {
  auto ends = [&](const std::string& e) {
    if (path.size() < e.size()) return false;
    for (std::size_t i = 0; i < e.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(path[path.size() - e.size() + i])) != e[i])
        return false;
    return true;
  };
  if (ends(".h5") || ends(".hdf5")) return "file";
  if (ends(".csv") || ends(".csv.gz")) return "csv";
  if (ends(".npy") || ends(".npz")) return "npy";
  if (ends(".mat")) return "mat";
  if (ends(".h5ad")) return "h5ad";
  if (ends(".mtx") || ends(".mtx.gz")) return "mtx";
  return "";
}

struct SplitsSpec {
  enum class Kind { PerClass, Ratio, Own, All } kind = Kind::PerClass;
  // PerClass: training points per class; Ratio: training fraction (stratified by class);
  // Own: the dataset's own split column (one value, 0); All: every point is used (transductive).
  std::vector<double> values;
  std::uint64_t test_per_class = 0;  // 0 = every remaining point is a test point
  int repeats = 1;
  std::uint64_t seed = 0;
  int line = 0;  // where splits: was declared
};

// "per_class", "ratio", "own", "all": the config's key and the results file's split_kind column.
inline std::string split_kind_name(SplitsSpec::Kind k) {
  switch (k) {
    case SplitsSpec::Kind::PerClass:
      return "per_class";
    case SplitsSpec::Kind::Ratio:
      return "ratio";
    case SplitsSpec::Kind::Own:
      return "own";
    case SplitsSpec::Kind::All:
      return "all";
  }
  return "unknown";
}

}  // namespace drbench
