#pragma once
// The files between drbench and an external command (docs/external-methods.md). drbench writes
// input.h5; the command writes output.h5. Matrices are one row per point, as h5py and NumPy show
// them (drbench's d x n column-major storage is exactly that layout).
//
// input.h5:  /X_train (n x d), /y_train (n, int32, supervised methods only), /X_test (m x d, when
//            the method maps new points); attributes on / : format, seed, dim, n_classes,
//            threads, label, dataset, param_names, param_types; /params holds one attribute per
//            parameter (bool and int as int64, real as float64, choice as a string).
// output.h5: /Z_train (n x dim), /Z_test (m x dim, when X_test was given); optionally /trace with
//            1-D datasets objective (required there), grad_norm, seconds, step of equal length,
//            and an attribute optimizer on / .
#include <armadillo>
#include <cstdint>
#include <string>

#include "framework/core/params.hpp"
#include "framework/core/trace.hpp"

namespace drbench::external {

inline constexpr const char* kFormat = "drbench-external/1";

struct Input {
  const arma::mat* Xtrain = nullptr;   // d x n
  const arma::uvec* ytrain = nullptr;  // supervised only
  const arma::mat* Xtest = nullptr;    // d x m, or nullptr
  std::int64_t seed = 0;
  arma::uword dim = 0;
  std::size_t n_classes = 0;
  unsigned threads = 1;
  std::string label, dataset;
  ParamSet params;
};

void write_input(const std::string& file, const Input& in);

struct Output {
  arma::mat Ztrain;  // dim x n
  arma::mat Ztest;   // dim x m (empty when no test points were given)
  Trace trace;       // rows from /trace (empty when absent)
};

// Reads and checks output.h5 against what was asked: both matrices present with n (m) rows and
// dim columns, finite. Throws MethodError saying which dataset is missing or wrong and how.
Output read_output(const std::string& file, arma::uword n, arma::uword m, arma::uword dim,
                   bool want_test);

}  // namespace drbench::external
