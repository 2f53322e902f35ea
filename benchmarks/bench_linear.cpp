// Fit time of the linear projection methods on 2,000 USPS points (benchmarks/usps_2000.hpp), 9
// latent dimensions, to set against scikit-learn (scripts/bench_sklearn.py); docs/benchmarks.md
// has the figures and the command lines.
#include <benchmark/benchmark.h>

#include <string>

#include "benchmarks/usps_2000.hpp"
#include "framework/core/registry.hpp"

namespace {

using drbench::bench::Problem;

void fit(benchmark::State& state, const std::string& method, const drbench::ParamSet& given) {
  const Problem& p = drbench::bench::usps_2000();
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
