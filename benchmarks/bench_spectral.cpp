// Wall time of one fit of a spectral method (laplacian_eigenmaps, lle, isomap) on a matrix written
// by scripts/bench_spectral_sklearn.py, which runs scikit-learn on the same matrix in the same
// session (side-by-side ratios on a shared machine; peak memory from /usr/bin/time -v there).
// Not a Google Benchmark loop: one fit at 60,000 points takes minutes.
//
//   bench_spectral <matrix.f64> <method> [dims=2] [estimate=only] [key=value ...]
//
// estimate=only prints the method's memory estimate for the file's shape without fitting.
// matrix.f64: two little-endian uint64 (n, d) followed by n*d float64, point after point.
// key=value: method parameters (integers, reals or words), e.g. neighbours=10 landmarks=1000.
// Prints one line of JSON: n, d, seconds (fit), and the method's trace notes.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

#include "benchmarks/matrix_file.hpp"
#include "framework/budget/budget.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/core/trace.hpp"

namespace {

drbench::ParamValue parse_value(const std::string& s) {
  try {
    std::size_t used = 0;
    const long long i = std::stoll(s, &used);
    if (used == s.size()) return static_cast<std::int64_t>(i);
    const double d = std::stod(s, &used);
    if (used == s.size()) return d;
  } catch (const std::exception&) {
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace drbench;
  const arma::mat X = bench::matrix_argument(argc, argv, 3, "bench_spectral",
                                             "<matrix.f64> <method> [dims=2] [key=value ...]");
  const std::uint64_t n = X.n_cols, d = X.n_rows;
  arma::uword dims = 2;
  bool estimate_only = false;
  ParamSet ps;
  for (const auto& [key, value] : bench::key_values(argc, argv, 3, "bench_spectral")) {
    if (key == "dims")
      dims = std::stoul(value);
    else if (key == "estimate" && value == "only")
      estimate_only = true;
    else
      ps.set(key, parse_value(value));
  }
  const MethodInfo& info = Registry::instance().get(argv[2]);
  const ParamSet p = info.complete(ps);
  if (estimate_only) {
    std::printf("{\"n\": %llu, \"d\": %llu, \"estimate_mib\": %.1f}\n",
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(d),
                memory_of(info, DataShape{n, d, 0}, p, dims) / 1048576.0);
    return 0;
  }
  Rng rng(1);
  Trace trace;
  FitInput fi{X, nullptr, 0, dims, rng, &trace};
  const bench::Stopwatch clock;
  auto m = info.fit(p, fi);
  const double secs = clock.wall(), cpu = clock.cpu();
  const arma::mat Y = m->embedding();
  std::printf(
      "{\"n\": %llu, \"d\": %llu, \"seconds\": %.3f, \"cpu_seconds\": %.3f, "
      "\"finite\": %s, \"estimate_mib\": %.1f",
      static_cast<unsigned long long>(n), static_cast<unsigned long long>(d), secs, cpu,
      Y.is_finite() ? "true" : "false", memory_of(info, DataShape{n, d, 0}, p, dims) / 1048576.0);
  for (const auto& [k, v] : trace.notes) std::printf(", \"%s\": \"%s\"", k.c_str(), v.c_str());
  std::printf("}\n");
  return 0;
}
