// Fit times of the kernel and manifold methods on 2,000 USPS points (256-D, 10 classes), the
// size scripts/time_sklearn_nonlinear.py times scikit-learn on. Uses the shared USPS file when
// DRBENCH_DATA (or ../shared/datasets) has it, otherwise random data of the same shape.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <string>

#include "framework/core/registry.hpp"
#include "framework/data/load.hpp"

namespace {

struct UspsSubset {
  arma::mat X;
  arma::uvec y;
  explicit UspsSubset(arma::uword n, arma::uword stride) {
    for (const auto& dir : drbench::data_search_path("")) {
      const auto file = std::filesystem::path(dir) / "usps.h5";
      if (!std::filesystem::exists(file)) continue;
      const drbench::Dataset d = drbench::read_hdf5_dataset(file.string());
      // Every 4th point: USPS training rows are grouped by digit, so a prefix has few classes.
      const arma::uvec idx = arma::regspace<arma::uvec>(0, stride, stride * (n - 1));
      X = d.X.cols(idx);
      y = d.y(idx);
      return;
    }
    drbench::Rng rng(1);
    X = rng.randu(256, n) * 2.0 - 1.0;
    y = arma::regspace<arma::uvec>(0, n - 1);
    y.transform([](arma::uword v) { return v % 10; });
  }
};

const UspsSubset& data(arma::uword n) {
  static const UspsSubset small(2000, 4);
  static const UspsSubset large(7291, 1);  // the whole USPS training split
  return n == 2000 ? small : large;
}

void fit(benchmark::State& state, const std::string& name,
         std::map<std::string, drbench::ParamValue> given, arma::uword dim, arma::uword n = 2000) {
  const auto& info = drbench::Registry::instance().get(name);
  drbench::ParamSet ps;
  for (const auto& [k, v] : given) ps.set(k, v);
  const drbench::ParamSet full = info.complete(ps);
  const auto& d = data(n);
  for (auto _ : state) {
    auto m = info.make(full);
    drbench::Rng rng(7);
    drbench::FitInput in{
        d.X, info.supervised ? &d.y : nullptr, info.supervised ? 10u : 0u, dim, rng, nullptr};
    m->fit(in);
    benchmark::DoNotOptimize(m->embedding().memptr());
  }
}

}  // namespace

BENCHMARK_CAPTURE(fit, kpca, "kpca", {}, 2)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(fit, gda, "gda", {}, 2)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(fit, klpp, "klpp", {}, 2)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(fit, sklpp, "sklpp", {}, 2)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(fit, mds, "mds", {}, 2)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(fit, isomap, "isomap", {}, 2)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(fit, isomap_7291, "isomap", {}, 2, 7291)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(fit, lle, "lle", {}, 2)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(fit, laplacian_eigenmaps, "laplacian_eigenmaps", {}, 2)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(fit, sammon_100it, "sammon", {{"max_iter", std::int64_t(100)}}, 2)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

BENCHMARK_MAIN();
