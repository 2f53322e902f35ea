#pragma once
// A loaded dataset: one column per point (mlpack/Armadillo convention), labels 0..C-1, and the
// source's own train/test split when it defines one.
#include <armadillo>
#include <cstddef>
#include <string>

namespace drbench {

struct Dataset {
  std::string name;
  arma::mat X;  // d x n (empty when the points are sparse)
  // The points of a sparse source (AnnData CSR/CSC, MatrixMarket coordinate), d x n, kept sparse:
  // a preprocessing chain that starts with pca (after any unit_norm) runs on it, anything else
  // densifies each partition's columns (framework/data/preprocess.hpp). Empty for dense sources.
  arma::sp_mat Xs;
  arma::uvec y;      // n labels in 0..n_classes-1
  arma::ivec split;  // n entries (0 train, 1 test, 2 validation) or empty
  std::size_t n_classes = 0;
  // Sequence id of each point (HDF5 `sequence`, or `sequences: classes` in the config); the
  // points of a sequence are stored in time order (an HDF5 `order` column is applied at load).
  // Empty when the data have no time order.
  arma::uvec sequence;
  std::string source;  // resolved file path, or the generator with its parameters
  std::string sha256;  // verified checksum of the file ("" for generated/bundled data)
  // What loading held, for the memory model's load transient (framework/sched/memory_check.hpp):
  // the points the source gave before classes and max_points, and the most points alive at once
  // (those and the copy that classes or max_points keep). 0 where load_dataset did not make it.
  arma::uword n_read = 0, n_load_peak = 0;

  bool sparse() const { return Xs.n_cols > 0 && X.is_empty(); }
  arma::uword n() const { return sparse() ? Xs.n_cols : X.n_cols; }
  arma::uword d() const { return sparse() ? Xs.n_rows : X.n_rows; }
};

// Refuses NaN/Inf, label/sample count mismatch, labels outside 0..C-1 and empty classes, naming
// the dataset and the offending column so the user can find it in their file.
void validate_dataset(const Dataset& ds);

}  // namespace drbench
