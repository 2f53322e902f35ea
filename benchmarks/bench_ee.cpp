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
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "benchmarks/matrix_file.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/core/trace.hpp"

int main(int argc, char** argv) {
  using namespace drbench;
  const arma::mat X = bench::matrix_argument(
      argc, argv, 3, "bench_ee", "<matrix.f64> <out_prefix> [method=ee] [key=value ...]");
  const std::uint64_t n = X.n_cols;
  std::string method = "ee";
  std::vector<std::pair<std::string, std::string>> kv;
  for (auto& arg : bench::key_values(argc, argv, 3, "bench_ee")) {
    if (arg.first == "method")
      method = arg.second;
    else
      kv.push_back(std::move(arg));
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
  const bench::Stopwatch clock;
  m->fit(fi);
  const double secs = clock.wall(), cpu = clock.cpu();
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
