// Exact kNN evaluation at the sizes the experiments use: the oil data (12-D, 1000 vs 1000), a
// latent space (9-D, 5000 vs 5000) and raw USPS pixels (256-D, 7291 vs 2007); and the k-d tree
// against the blocked path. scikit-learn on the same shapes: scripts/bench_knn_sklearn.py.
// Run: OPENBLAS_NUM_THREADS=1 ./build/benchmarks/bench_knn
#include <benchmark/benchmark.h>

#include <filesystem>

#include "framework/data/load.hpp"

#include "framework/core/rng.hpp"
#include "framework/eval/knn.hpp"
#include "support/quality_reference.hpp"

namespace {

// Gaussian training and test points (one column each), then, when asked, labels uniform over ten
// classes, all drawn from one engine seeded `seed`.
struct Points {
  arma::mat train, test;
  arma::uvec ytrain, ytest;
};

arma::uvec uniform_labels(drbench::Rng& rng, arma::uword n) {
  arma::uvec y(n);
  for (auto& v : y) v = static_cast<arma::uword>(rng.uniform() * 10);
  return y;
}

Points gaussian_points(std::uint64_t seed, arma::uword d, arma::uword ntrain, arma::uword ntest,
                       bool with_labels) {
  drbench::Rng rng(seed);
  Points p;
  p.train = rng.randn(d, ntrain);
  p.test = rng.randn(d, ntest);
  if (with_labels) {
    p.ytrain = uniform_labels(rng, ntrain);
    p.ytest = uniform_labels(rng, ntest);
  }
  return p;
}

// The points of a benchmark whose arguments are (dim, training points, test points).
Points gaussian_points(std::uint64_t seed, const benchmark::State& state, bool with_labels) {
  return gaussian_points(seed, static_cast<arma::uword>(state.range(0)),
                         static_cast<arma::uword>(state.range(1)),
                         static_cast<arma::uword>(state.range(2)), with_labels);
}

void BM_KnnErrors(benchmark::State& state) {
  const Points p = gaussian_points(1, state, true);
  for (auto _ : state)
    benchmark::DoNotOptimize(drbench::knn_errors(p.train, p.ytrain, p.test, p.ytest, {1, 3, 5}));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * p.test.n_cols));
}
BENCHMARK(BM_KnnErrors)
    ->Args({12, 1000, 1000})
    ->Args({9, 5000, 5000})
    ->Args({256, 7291, 2007})
    ->Unit(benchmark::kMillisecond);

// 1-NN classification as the evaluation runs it (knn_errors with ks = {1}: the search, then the
// vote), on the Gaussian points of BM_KnnPath (seed 4) and the USPS principal scores of
// BM_KnnUspsPath; scikit-learn's KNeighborsClassifier(1): scripts/bench_knn_sklearn.py 5 ... 1.
void BM_Knn1(benchmark::State& state) {
  const Points p = gaussian_points(4, static_cast<arma::uword>(state.range(0)), 5000, 5000, true);
  for (auto _ : state)
    benchmark::DoNotOptimize(drbench::knn_errors(p.train, p.ytrain, p.test, p.ytest, {1}));
}
BENCHMARK(BM_Knn1)->Arg(9)->Unit(benchmark::kMillisecond);

// The neighbour searches side by side on the same data (k = 5): the k-d tree, the blocked BLAS
// path, and knn_indices, which picks between them. Args: dim, training points, test points.
// kPath: 0 blocked, 1 k-d tree, 2 knn_indices (the path it picks), 3 the float32 pre-filter.
arma::umat knn_path(int path, const arma::mat& train, const arma::mat& test) {
  if (path == 0) return drbench::knn_indices_blocked(train, test, 5);
  if (path == 1) return drbench::knn_indices_kdtree(train, test, 5);
  if (path == 3) return drbench::knn_indices_prefilter(train, test, 5);
  return drbench::knn_indices(train, test, 5);
}

template <int kPath>
void BM_KnnPath(benchmark::State& state) {
  const Points p = gaussian_points(4, state, false);
  for (auto _ : state) benchmark::DoNotOptimize(knn_path(kPath, p.train, p.test));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * p.test.n_cols));
}
void PathArgs(benchmark::internal::Benchmark* b) {
  for (int d : {2, 4, 6, 9, 12, 16, 20, 32}) b->Args({d, 5000, 5000});
  b->Args({12, 1000, 1000});
  b->Unit(benchmark::kMillisecond);
}
BENCHMARK_TEMPLATE(BM_KnnPath, 1)->Apply(PathArgs);
BENCHMARK_TEMPLATE(BM_KnnPath, 0)->Apply(PathArgs);
BENCHMARK_TEMPLATE(BM_KnnPath, 2)->Apply(PathArgs);
BENCHMARK_TEMPLATE(BM_KnnPath, 3)->Apply(PathArgs);

// The same two paths on a real embedding: USPS (all 9,298 points) projected on its leading
// principal axes, even columns as training points, odd ones as test points. Arg: dim.
template <int kPath>
void BM_KnnUspsPath(benchmark::State& state) {
  static arma::mat Z;  // 256 x n principal scores, computed once
  if (Z.is_empty()) {
    for (const auto& dir : drbench::data_search_path("")) {
      const auto file = std::filesystem::path(dir) / "usps.h5";
      if (!std::filesystem::exists(file)) continue;
      const drbench::Dataset ds = drbench::read_hdf5_dataset(file.string());
      const arma::mat C = ds.X.each_col() - arma::mean(ds.X, 1);
      arma::mat U;
      arma::vec s;
      arma::mat V;
      arma::svd_econ(U, s, V, C, "left");
      Z = U.t() * C;
      break;
    }
  }
  if (Z.is_empty()) {
    state.SkipWithError("usps.h5 not on the data path (set DRBENCH_DATA)");
    return;
  }
  const auto d = static_cast<arma::uword>(state.range(0));
  const arma::uvec even = arma::regspace<arma::uvec>(0, 2, Z.n_cols - 1);
  const arma::uvec odd = arma::regspace<arma::uvec>(1, 2, Z.n_cols - 1);
  const arma::mat train = Z.submat(arma::regspace<arma::uvec>(0, d - 1), even);
  const arma::mat test = Z.submat(arma::regspace<arma::uvec>(0, d - 1), odd);
  for (auto _ : state) benchmark::DoNotOptimize(knn_path(kPath, train, test));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * test.n_cols));
}
void UspsArgs(benchmark::internal::Benchmark* b) {
  for (int d : {2, 4, 6, 9, 12, 16, 20}) b->Arg(d);
  b->Unit(benchmark::kMillisecond);
}
BENCHMARK_TEMPLATE(BM_KnnUspsPath, 1)->Apply(UspsArgs);
BENCHMARK_TEMPLATE(BM_KnnUspsPath, 0)->Apply(UspsArgs);
BENCHMARK_TEMPLATE(BM_KnnUspsPath, 2)->Apply(UspsArgs);
BENCHMARK_TEMPLATE(BM_KnnUspsPath, 3)->Apply(UspsArgs);

void BM_KnnLoo(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  drbench::Rng rng(2);
  const arma::mat X = rng.randn(2, n);
  const arma::uvec y = uniform_labels(rng, n);
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
