// Quality measures on a 10,000-point test set, one thread: what drbench computed before the
// co-ranking pass (trustworthiness + continuity at one K, four kNN passes and two rank scans) and
// the co-ranking pass with every measure at K = 5, 10, 50 (trustworthiness, continuity, Q_NX,
// R_NX, LCMC, both MRREs, AUC_logK(R_NX), stress, Shepard correlation), side by side on the same
// data in the same run. Data: the Fashion-MNIST test set (10,000 x 784, pixels / 255) and its
// 2-D PCA projection; skipped when /usr/share/datasets/fashion-mnist is absent.
// Run: OPENBLAS_NUM_THREADS=1 ./build/benchmarks/bench_quality
#include <benchmark/benchmark.h>

#include <filesystem>

#include "framework/data/load.hpp"
#include "framework/eval/coranking.hpp"
#include "support/quality_reference.hpp"

namespace {

const char* kImages = "/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz";

struct Data {
  arma::mat high, low;
  bool ok = false;
};

const Data& data() {
  static Data d = [] {
    Data out;
    if (!std::filesystem::exists(kImages)) return out;
    out.high = drbench::read_idx_dataset(kImages, drbench::idx_labels_file(kImages)).X / 255.0;
    arma::mat centred = out.high.each_col() - arma::mean(out.high, 1);
    arma::mat U;
    arma::vec s;
    arma::mat V;
    arma::svd_econ(U, s, V, centred, "left");
    out.low = U.cols(0, 1).t() * centred;
    out.ok = true;
    return out;
  }();
  return d;
}

void BM_TrustworthinessContinuity(benchmark::State& state) {
  const Data& d = data();
  if (!d.ok) return state.SkipWithError("Fashion-MNIST not installed");
  for (auto _ : state) {
    benchmark::DoNotOptimize(drbench::trustworthiness(d.high, d.low, 10));
    benchmark::DoNotOptimize(drbench::continuity(d.high, d.low, 10));
  }
}
BENCHMARK(BM_TrustworthinessContinuity)->Unit(benchmark::kSecond)->Iterations(3);

void BM_CorankingAll(benchmark::State& state) {
  const Data& d = data();
  if (!d.ok) return state.SkipWithError("Fashion-MNIST not installed");
  drbench::QualityRequest req;
  for (const auto& m : drbench::quality_measures()) req.measures.push_back(m.name);
  req.ks = {5, 10, 50};
  req.sample = 10000;
  req.threads = 1;
  for (auto _ : state) benchmark::DoNotOptimize(drbench::quality_scores(d.high, d.low, req));
}
BENCHMARK(BM_CorankingAll)->Unit(benchmark::kSecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
