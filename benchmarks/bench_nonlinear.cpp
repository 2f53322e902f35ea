// Fit times of the kernel and manifold methods on 2,000 USPS points (benchmarks/usps_2000.hpp),
// 2 latent dimensions, to set against scikit-learn (scripts/bench_sklearn.py); docs/benchmarks.md
// has the figures and the command lines. isomap_7291 times the whole USPS training split.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <string>

#include "benchmarks/usps_2000.hpp"
#include "framework/core/registry.hpp"

namespace {

using drbench::bench::Problem;

// The first 7,291 rows of usps.h5 (its training split), or random data of that shape.
Problem make_usps_train() {
  Problem p;
  for (const auto& dir : drbench::data_search_path("")) {
    const auto file = std::filesystem::path(dir) / "usps.h5";
    if (!std::filesystem::exists(file)) continue;
    const drbench::Dataset d = drbench::read_hdf5_dataset(file.string());
    p.X = d.X.cols(0, 7290);
    p.y = d.y.head(7291);
    p.source = "usps.h5, first 7291 rows x 256";
    return p;
  }
  drbench::Rng rng(1);
  p.X = rng.randu(256, 7291) * 2.0 - 1.0;
  p.y = arma::regspace<arma::uvec>(0, 7290);
  p.y.transform([](arma::uword v) { return v % 10; });
  p.source = "random uniform data, 7291 x 256";
  return p;
}

const Problem& data(arma::uword n) {
  if (n == 2000) return drbench::bench::usps_2000();
  static const Problem large = make_usps_train();
  return large;
}

void fit(benchmark::State& state, const std::string& name,
         std::map<std::string, drbench::ParamValue> given, arma::uword dim, arma::uword n = 2000) {
  const auto& info = drbench::Registry::instance().get(name);
  drbench::ParamSet ps;
  for (const auto& [k, v] : given) ps.set(k, v);
  const drbench::ParamSet full = info.complete(ps);
  const Problem& d = data(n);
  for (auto _ : state) {
    auto m = info.make(full);
    drbench::Rng rng(7);
    drbench::FitInput in{
        d.X, info.supervised ? &d.y : nullptr, info.supervised ? d.C : 0u, dim, rng, nullptr};
    m->fit(in);
    benchmark::DoNotOptimize(m->embedding().memptr());
  }
  state.SetLabel(d.source);
}

}  // namespace

// Sub-second fits repeat until Google Benchmark's minimum time; the slow ones run once.
BENCHMARK_CAPTURE(fit, kpca, "kpca", {}, 2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, gda, "gda", {}, 2)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(fit, klpp, "klpp", {}, 2)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(fit, sklpp, "sklpp", {}, 2)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(fit, mds, "mds", {}, 2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, isomap, "isomap", {}, 2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, isomap_7291, "isomap", {}, 2, 7291)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(fit, lle, "lle", {}, 2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, laplacian_eigenmaps, "laplacian_eigenmaps", {}, 2)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(fit, sammon_100it, "sammon", {{"iterations", std::int64_t(100)}}, 2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
// Default settings (up to 500 iterations, stops at a relative decrease below 1e-9).
BENCHMARK_CAPTURE(fit, sammon, "sammon", {}, 2)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
