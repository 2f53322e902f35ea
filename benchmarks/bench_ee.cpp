// One linear-time fit of a neighbour embedding (ee by default) on a matrix written as for
// bench_tsne, with its per-iteration trace: for trying optimiser settings on the same points
// without the config pipeline. Side-by-side timings against t-SNE come from
// benchmarks/ee_linear_fmnist.sh, not from this program.
//
//   bench_ee <matrix.f64> <out_prefix> [method=ee] [key=value ...]
//
// matrix.f64: two little-endian uint64 (n, d) followed by n*d float64, point after point.
// Writes <out_prefix>.emb (n x dim float64, point after point) and <out_prefix>.trace.csv
// (iteration, objective, gradient norm, seconds, step), and prints one line of JSON: n, seconds
// (fit, wall), cpu_seconds, iterations, objective and the trace's notes. Values are parsed by the
// type the method declares for the key.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/core/trace.hpp"

int main(int argc, char** argv) {
  using namespace drbench;
  if (argc < 3) {
    std::cerr << "usage: bench_ee <matrix.f64> <out_prefix> [method=ee] [key=value ...]\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::uint64_t n = 0, d = 0;
  if (!in.read(reinterpret_cast<char*>(&n), 8) || !in.read(reinterpret_cast<char*>(&d), 8)) {
    std::cerr << "bench_ee: " << argv[1] << ": cannot read the (n, d) header\n";
    return 1;
  }
  arma::mat X(d, n);
  if (!in.read(reinterpret_cast<char*>(X.memptr()), static_cast<std::streamsize>(8 * n * d))) {
    std::cerr << "bench_ee: " << argv[1] << ": expected " << n * d << " float64 values\n";
    return 1;
  }
  std::string method = "ee";
  std::vector<std::pair<std::string, std::string>> kv;
  for (int a = 3; a < argc; ++a) {
    const std::string s = argv[a];
    const auto eq = s.find('=');
    if (eq == std::string::npos) {
      std::cerr << "bench_ee: expected key=value, got " << s << "\n";
      return 2;
    }
    if (s.substr(0, eq) == "method")
      method = s.substr(eq + 1);
    else
      kv.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  const MethodInfo& info = Registry::instance().get(method);
  ParamSet ps;
  for (const auto& [k, v] : kv) {
    const ParamSpec* spec = nullptr;
    for (const auto& p : info.params)
      if (p.name == k) spec = &p;
    if (!spec) {
      std::cerr << "bench_ee: " << method << " has no parameter " << k << "\n";
      return 2;
    }
    switch (spec->type) {
      case ParamType::Int:
        ps.set(k, static_cast<std::int64_t>(std::stoll(v)));
        break;
      case ParamType::Real:
        ps.set(k, std::stod(v));
        break;
      case ParamType::Bool:
        ps.set(k, v == "true" || v == "1");
        break;
      case ParamType::Choice:
        ps.set(k, v);
        break;
    }
  }
  auto m = info.make(info.complete(ps));
  Rng rng(1);
  Trace trace;
  const arma::uword dim = 2;
  FitInput fi{X, nullptr, 0, dim, rng, &trace};
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  m->fit(fi);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const arma::mat Y = m->embedding();
  const std::string prefix = argv[2];
  std::ofstream emb(prefix + ".emb", std::ios::binary);
  emb.write(reinterpret_cast<const char*>(Y.memptr()), static_cast<std::streamsize>(8 * Y.n_elem));
  std::ofstream tr(prefix + ".trace.csv");
  tr << "iteration,objective,grad_norm,seconds,step\n";
  tr.precision(12);
  for (const auto& r : trace.rows)
    tr << r.iteration << ',' << r.objective << ',' << r.grad_norm << ',' << r.seconds << ','
       << r.step << '\n';
  std::printf(
      "{\"n\": %llu, \"seconds\": %.3f, \"cpu_seconds\": %.3f, \"iterations\": %d, "
      "\"objective\": %.10g",
      static_cast<unsigned long long>(n), secs, cpu,
      trace.rows.empty() ? 0 : trace.rows.back().iteration,
      trace.rows.empty() ? 0.0 : trace.rows.back().objective);
  for (const auto& [k, v] : trace.notes) std::printf(", \"%s\": \"%s\"", k.c_str(), v.c_str());
  std::printf("}\n");
  return 0;
}
