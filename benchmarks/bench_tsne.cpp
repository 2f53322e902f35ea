// Wall time of one t-SNE fit on a matrix written by scripts/bench_tsne_sklearn.py, which runs
// scikit-learn on the same matrix in the same session (side-by-side ratios on a shared machine).
// Not a Google Benchmark loop: one fit of Fashion-MNIST takes tens of seconds.
//
//   bench_tsne <matrix.f64> <exact|barnes_hut> [iterations=1000] [perplexity=30] [theta=0.5]
//
// matrix.f64: two little-endian uint64 (n, d) followed by n*d float64, point after point.
// Prints one line of JSON: n, d, seconds (fit, wall), cpu_seconds, optimiser_seconds (wall), kl.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>

#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/core/trace.hpp"

int main(int argc, char** argv) {
  using namespace drbench;
  if (argc < 3) {
    std::cerr << "usage: bench_tsne <matrix.f64> <exact|barnes_hut> [iterations] [perplexity] "
                 "[theta]\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::uint64_t n = 0, d = 0;
  if (!in.read(reinterpret_cast<char*>(&n), 8) || !in.read(reinterpret_cast<char*>(&d), 8)) {
    std::cerr << "bench_tsne: " << argv[1] << ": cannot read the (n, d) header\n";
    return 1;
  }
  arma::mat X(d, n);  // point after point in the file = one column per point
  if (!in.read(reinterpret_cast<char*>(X.memptr()), static_cast<std::streamsize>(8 * n * d))) {
    std::cerr << "bench_tsne: " << argv[1] << ": expected " << n * d << " float64 values\n";
    return 1;
  }
  ParamSet ps;
  ps.set("gradient", std::string(argv[2]));
  if (argc > 3) ps.set("iterations", static_cast<std::int64_t>(std::stoll(argv[3])));
  if (argc > 4) ps.set("perplexity", std::stod(argv[4]));
  if (argc > 5) ps.set("theta", std::stod(argv[5]));
  const MethodInfo& info = Registry::instance().get("tsne");
  auto m = info.make(info.complete(ps));
  Rng rng(1);
  Trace trace;
  FitInput fi{X, nullptr, 0, 2, rng, &trace};
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  m->fit(fi);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // CPU time of this one-thread process: the steadier figure on a shared machine.
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  std::printf(
      "{\"n\": %llu, \"d\": %llu, \"seconds\": %.3f, \"cpu_seconds\": %.3f, "
      "\"optimiser_seconds\": %.3f, "
      "\"kl\": %.5f}\n",
      static_cast<unsigned long long>(n), static_cast<unsigned long long>(d), secs, cpu,
      trace.rows.back().seconds, trace.rows.back().objective);
  return 0;
}
