// Fit time of the linear projection methods on a USPS-sized problem (2,000 points, 256-D, 10
// classes, 9 latent dimensions), to set against scikit-learn (scripts/time_sklearn_linear.py).
// Uses the USPS file from the data path when it is there (DRBENCH_DATA), random Gaussian classes
// of the same shape otherwise; the data source is printed in the benchmark context.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/data/load.hpp"

namespace {

struct Problem {
  arma::mat X;
  arma::uvec y;
  std::size_t C = 10;
  std::string source;
};

// Rows floor(i * N / 2000) of USPS (the file groups its training rows by digit, so a stride
// keeps all ten classes); scripts/time_sklearn_linear.py takes the same rows.
bool load_usps(Problem& p) {
  for (const auto& dir : drbench::data_search_path("")) {
    const auto file = std::filesystem::path(dir) / "usps.h5";
    if (!std::filesystem::exists(file)) continue;
    const drbench::Dataset ds = drbench::read_hdf5_dataset(file.string());
    arma::uvec rows(2000);
    for (arma::uword i = 0; i < 2000; ++i) rows(i) = i * ds.n() / 2000;
    p.X = ds.X.cols(rows);
    p.y = ds.y(rows);
    p.C = ds.n_classes;
    p.source = "usps.h5, 2000 strided rows x 256";
    return true;
  }
  return false;
}

Problem make_problem() {
  Problem p;
  if (load_usps(p)) return p;
  drbench::Rng rng(2000);
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

const Problem& problem() {
  static const Problem p = make_problem();
  return p;
}

void fit(benchmark::State& state, const std::string& method, const drbench::ParamSet& given) {
  const Problem& p = problem();
  const drbench::MethodInfo& info = drbench::Registry::instance().get(method);
  const drbench::ParamSet params = info.complete(given);
  const arma::uword dim = 9;
  for (auto _ : state) {
    auto m = info.make(params);
    drbench::Rng rng(1);
    m->fit(drbench::FitInput{p.X, info.supervised ? &p.y : nullptr, p.C, dim, rng, nullptr});
    benchmark::DoNotOptimize(m->embedding().memptr());
  }
  state.SetLabel(p.source);
}

drbench::ParamSet none() {
  return drbench::ParamSet();
}

drbench::ParamSet with(const std::string& key, drbench::ParamValue v) {
  drbench::ParamSet p;
  p.set(key, std::move(v));
  return p;
}

}  // namespace

BENCHMARK_CAPTURE(fit, pca, std::string("pca"), none())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, lda, std::string("lda"), none())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, ppca, std::string("ppca"), none())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, lpp, std::string("lpp"), none())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, slpp, std::string("slpp"), none())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, ip, std::string("ip"), none())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, ip_sr, std::string("ip_sr"), none())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, oip, std::string("oip"), none())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, soip_nz10, std::string("soip"), with("nonzeros", std::int64_t(10)))
    ->Unit(benchmark::kMillisecond);
// 2,000 points in 256-D is DCV's large-sample case: S_w has no exact null space, so directions
// with eigenvalue below 0.9 x the largest are taken as null.
BENCHMARK_CAPTURE(fit, dcv, std::string("dcv"), with("null_tol", 0.9))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, mmpa, std::string("mmpa"), none())->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
