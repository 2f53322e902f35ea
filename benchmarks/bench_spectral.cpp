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
  if (argc < 3) {
    std::cerr << "usage: bench_spectral <matrix.f64> <method> [dims=2] [key=value ...]\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::uint64_t n = 0, d = 0;
  if (!in.read(reinterpret_cast<char*>(&n), 8) || !in.read(reinterpret_cast<char*>(&d), 8)) {
    std::cerr << "bench_spectral: " << argv[1] << ": cannot read the (n, d) header\n";
    return 1;
  }
  arma::mat X(d, n);  // point after point in the file = one column per point
  if (!in.read(reinterpret_cast<char*>(X.memptr()), static_cast<std::streamsize>(8 * n * d))) {
    std::cerr << "bench_spectral: " << argv[1] << ": expected " << n * d << " float64 values\n";
    return 1;
  }
  arma::uword dims = 2;
  bool estimate_only = false;
  ParamSet ps;
  for (int a = 3; a < argc; ++a) {
    const std::string kv = argv[a];
    const auto eq = kv.find('=');
    if (eq == std::string::npos) {
      std::cerr << "bench_spectral: '" << kv << "' is not key=value\n";
      return 2;
    }
    if (kv.substr(0, eq) == "dims")
      dims = std::stoul(kv.substr(eq + 1));
    else if (kv == "estimate=only")
      estimate_only = true;
    else
      ps.set(kv.substr(0, eq), parse_value(kv.substr(eq + 1)));
  }
  const MethodInfo& info = Registry::instance().get(argv[2]);
  const ParamSet p = info.complete(ps);
  if (estimate_only) {
    std::printf("{\"n\": %llu, \"d\": %llu, \"estimate_mib\": %.1f}\n",
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(d),
                info.memory_of(DataShape{n, d, 0}, p, dims) / 1048576.0);
    return 0;
  }
  Rng rng(1);
  Trace trace;
  FitInput fi{X, nullptr, 0, dims, rng, &trace};
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  auto m = info.fit(p, fi);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // CPU seconds too: on a machine shared with other jobs the wall time mostly measures them.
  const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  const arma::mat Y = m->embedding();
  std::printf(
      "{\"n\": %llu, \"d\": %llu, \"seconds\": %.3f, \"cpu_seconds\": %.3f, "
      "\"finite\": %s, \"estimate_mib\": %.1f",
      static_cast<unsigned long long>(n), static_cast<unsigned long long>(d), secs, cpu,
      Y.is_finite() ? "true" : "false", info.memory_of(DataShape{n, d, 0}, p, dims) / 1048576.0);
  for (const auto& [k, v] : trace.notes) std::printf(", \"%s\": \"%s\"", k.c_str(), v.c_str());
  std::printf("}\n");
  return 0;
}
