// Wall time of one t-SNE fit on a matrix written by scripts/bench_tsne_sklearn.py, which runs
// scikit-learn on the same matrix in the same session (side-by-side ratios on a shared machine).
// Not a Google Benchmark loop: one fit of Fashion-MNIST takes tens of seconds.
//
//   bench_tsne <matrix.f64> <exact|barnes_hut|fft|auto> [iterations=1000] [perplexity=30]
//              [theta=0.5] [dims=2] [embedding.f64]
//
// benchmarks/tsne_auto.sh runs it over n, dims and gradient to place `auto`'s switch point.
//
// matrix.f64: two little-endian uint64 (n, d) followed by n*d float64, point after point.
// embedding.f64, when given, receives the embedding in the same format (one column per point):
// comparing two builds' files to the bit shows whether a change kept the results.
// Prints one line of JSON: n, d, seconds (fit, wall), cpu_seconds, optimiser_seconds (wall), kl.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

#include "benchmarks/matrix_file.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/core/trace.hpp"

int main(int argc, char** argv) {
  using namespace drbench;
  const arma::mat X =
      bench::matrix_argument(argc, argv, 3, "bench_tsne",
                             "<matrix.f64> <exact|barnes_hut|fft|auto> [iterations] "
                             "[perplexity] [theta] [dims] [embedding.f64]");
  const std::uint64_t n = X.n_cols, d = X.n_rows;
  ParamSet ps;
  ps.set("gradient", std::string(argv[2]));
  if (argc > 3) ps.set("iterations", static_cast<std::int64_t>(std::stoll(argv[3])));
  if (argc > 4) ps.set("perplexity", std::stod(argv[4]));
  if (argc > 5) ps.set("theta", std::stod(argv[5]));
  const arma::uword dims = argc > 6 ? std::stoul(argv[6]) : 2;
  const MethodInfo& info = Registry::instance().get("tsne");
  auto m = info.make(info.complete(ps));
  Rng rng(1);
  Trace trace;
  FitInput fi{X, nullptr, 0, dims, rng, &trace};
  const bench::Stopwatch clock;
  m->fit(fi);
  const double secs = clock.wall(), cpu = clock.cpu();
  if (argc > 7) bench::write_matrix(argv[7], m->embedding());
  std::printf(
      "{\"n\": %llu, \"d\": %llu, \"seconds\": %.3f, \"cpu_seconds\": %.3f, "
      "\"optimiser_seconds\": %.3f, "
      "\"kl\": %.5f}\n",
      static_cast<unsigned long long>(n), static_cast<unsigned long long>(d), secs, cpu,
      trace.rows.back().seconds, trace.rows.back().objective);
  return 0;
}
