#pragma once
// The problem every fit benchmark times: 2,000 USPS points (256-D, 10 classes), rows
// floor(i * N / 2000) of usps.h5 (the file groups rows by digit, so a stride keeps all ten
// classes). scripts/bench_sklearn.py takes the same rows. Without the file (no DRBENCH_DATA),
// random Gaussian classes of the same shape; the source is printed as the benchmark label.
#include <filesystem>
#include <string>

#include "framework/core/rng.hpp"
#include "framework/data/load.hpp"

namespace drbench::bench {

struct Problem {
  arma::mat X;
  arma::uvec y;
  std::size_t C = 10;
  std::string source;
};

inline Problem make_usps_2000() {
  Problem p;
  for (const auto& dir : data_search_path("")) {
    const auto file = std::filesystem::path(dir) / "usps.h5";
    if (!std::filesystem::exists(file)) continue;
    const Dataset ds = read_hdf5_dataset(file.string());
    arma::uvec rows(2000);
    for (arma::uword i = 0; i < 2000; ++i) rows(i) = i * ds.n() / 2000;
    p.X = ds.X.cols(rows);
    p.y = ds.y(rows);
    p.C = ds.n_classes;
    p.source = "usps.h5, 2000 strided rows x 256";
    return p;
  }
  Rng rng(2000);
  const arma::uword n = 2000, d = 256;
  const arma::mat centres = 2.0 * rng.randn(d, p.C);
  p.X.set_size(d, n);
  p.y.set_size(n);
  for (arma::uword i = 0; i < n; ++i) {
    p.y(i) = i % p.C;
    p.X.col(i) = centres.col(p.y(i)) + rng.randn(d, 1);
  }
  p.source = "random 10-class Gaussian data, 2000 x 256";
  return p;
}

inline const Problem& usps_2000() {
  static const Problem p = make_usps_2000();
  return p;
}

}  // namespace drbench::bench
