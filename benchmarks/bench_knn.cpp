// Exact kNN evaluation at the sizes the experiments use: the oil data (12-D, 1000 vs 1000), a
// latent space (9-D, 5000 vs 5000) and raw USPS pixels (256-D, 7291 vs 2007).
// Run: ./build/benchmarks/bench_knn (set OPENBLAS_NUM_THREADS to compare thread counts).
#include <benchmark/benchmark.h>

#include "framework/core/rng.hpp"
#include "framework/eval/knn.hpp"
#include "framework/eval/quality.hpp"

namespace {

void BM_KnnErrors(benchmark::State& state) {
  const auto d = static_cast<arma::uword>(state.range(0));
  const auto ntrain = static_cast<arma::uword>(state.range(1));
  const auto ntest = static_cast<arma::uword>(state.range(2));
  drbench::Rng rng(1);
  const arma::mat train = rng.randn(d, ntrain), test = rng.randn(d, ntest);
  arma::uvec ytrain(ntrain), ytest(ntest);
  for (auto& v : ytrain) v = static_cast<arma::uword>(rng.uniform() * 10);
  for (auto& v : ytest) v = static_cast<arma::uword>(rng.uniform() * 10);
  for (auto _ : state)
    benchmark::DoNotOptimize(drbench::knn_errors(train, ytrain, test, ytest, {1, 3, 5}));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * ntest));
}
BENCHMARK(BM_KnnErrors)
    ->Args({12, 1000, 1000})
    ->Args({9, 5000, 5000})
    ->Args({256, 7291, 2007})
    ->Unit(benchmark::kMillisecond);

void BM_KnnLoo(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  drbench::Rng rng(2);
  const arma::mat X = rng.randn(2, n);
  arma::uvec y(n);
  for (auto& v : y) v = static_cast<arma::uword>(rng.uniform() * 10);
  for (auto _ : state) benchmark::DoNotOptimize(drbench::knn_loo_errors(X, y, {1}));
}
BENCHMARK(BM_KnnLoo)->Arg(2000)->Arg(9298)->Unit(benchmark::kMillisecond);

void BM_Trustworthiness(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  drbench::Rng rng(3);
  const arma::mat high = rng.randn(50, n), low = rng.randn(2, n);
  for (auto _ : state) benchmark::DoNotOptimize(drbench::trustworthiness(high, low, 10));
}
BENCHMARK(BM_Trustworthiness)->Arg(1000)->Arg(3000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
