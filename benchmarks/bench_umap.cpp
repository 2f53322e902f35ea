// One UMAP fit (and optionally a transform) on a matrix from a file, for the side-by-side run
// against umap-learn (benchmarks/umap_compare.py drives both). Not a Google Benchmark: one fit of
// a 20,000-point embedding is the measurement, timed here and under /usr/bin/time -v outside.
//
//   bench_umap IN.bin OUT.bin [key=value ...]   (any umap parameter; threads=T for FitInput)
//   bench_umap IN.bin OUT.bin method=pacmap ...  (any registered method)
//   bench_umap IN.bin OUT.bin test=NEW.bin ...    (also maps NEW.bin, written to OUT.bin.test)
//
// IN.bin: uint64 n, uint64 d, then n x d doubles, one point after another (d x n column-major,
// drbench's layout). OUT.bin: the same layout for the dim x n embedding.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "framework/core/registry.hpp"

using namespace drbench;

namespace {

arma::mat read_matrix(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::uint64_t n = 0, d = 0;
  f.read(reinterpret_cast<char*>(&n), 8);
  f.read(reinterpret_cast<char*>(&d), 8);
  arma::mat X(d, n);
  f.read(reinterpret_cast<char*>(X.memptr()), std::streamsize(8 * n * d));
  if (!f) throw std::runtime_error("cannot read " + path);
  return X;
}

void write_matrix(const std::string& path, const arma::mat& Y) {
  std::ofstream f(path, std::ios::binary);
  const std::uint64_t n = Y.n_cols, d = Y.n_rows;
  f.write(reinterpret_cast<const char*>(&n), 8);
  f.write(reinterpret_cast<const char*>(&d), 8);
  f.write(reinterpret_cast<const char*>(Y.memptr()), std::streamsize(8 * n * d));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: bench_umap IN.bin OUT.bin [method=umap] [dims=2] [threads=1] "
                 "[seed=1] [key=value ...]\n");
    return 2;
  }
  std::string method = "umap";
  arma::uword dims = 2;
  unsigned threads = 1;
  std::uint64_t seed = 1;
  std::string test;
  std::vector<std::pair<std::string, std::string>> given;
  for (int i = 3; i < argc; ++i) {
    const std::string a = argv[i];
    const auto eq = a.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "bench_umap: '%s' is not key=value\n", a.c_str());
      return 2;
    }
    const std::string k = a.substr(0, eq), v = a.substr(eq + 1);
    if (k == "method")
      method = v;
    else if (k == "dims")
      dims = std::stoul(v);
    else if (k == "threads")
      threads = unsigned(std::stoul(v));
    else if (k == "seed")
      seed = std::stoull(v);
    else if (k == "test")
      test = v;
    else
      given.emplace_back(k, v);
  }
  const MethodInfo& info = Registry::instance().get(method);
  ParamSet ps;
  for (const auto& [k, v] : given) {
    const ParamSpec* s = info.param(k);
    if (!s) {
      std::fprintf(stderr, "bench_umap: %s has no parameter '%s'\n", method.c_str(), k.c_str());
      return 2;
    }
    switch (s->type) {
      case ParamType::Int:
        ps.set(k, std::int64_t(std::stoll(v)));
        break;
      case ParamType::Real:
        ps.set(k, std::stod(v));
        break;
      case ParamType::Bool:
        ps.set(k, v == "true");
        break;
      case ParamType::Choice:
        ps.set(k, v);
        break;
    }
  }
  const ParamSet p = info.complete(ps);
  const arma::mat X = read_matrix(argv[1]);
  Rng rng(seed);
  Trace trace;
  FitInput in{X, nullptr, 0, dims, rng, &trace};
  in.threads = threads;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  auto m = info.fit(p, in);
  const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  write_matrix(argv[2], m->embedding());
  std::printf("method %s setting %s\nfit_seconds %.3f\nfit_cpu_seconds %.3f\n", method.c_str(),
              p.canonical().c_str(), secs, cpu);
  if (!test.empty()) {
    const arma::mat Xt = read_matrix(test);
    const auto t1 = std::chrono::steady_clock::now();
    const std::clock_t c1 = std::clock();
    write_matrix(std::string(argv[2]) + ".test", m->transform(Xt));
    std::printf("transform_seconds %.3f\ntransform_cpu_seconds %.3f\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count(),
                double(std::clock() - c1) / CLOCKS_PER_SEC);
  }
  for (const auto& [k, v] : trace.notes) std::printf("note %s %s\n", k.c_str(), v.c_str());
  if (!trace.rows.empty())
    std::printf("last_row iteration %d objective %.6g grad_norm %.3g seconds %.3f\n",
                trace.rows.back().iteration, trace.rows.back().objective,
                trace.rows.back().grad_norm, trace.rows.back().seconds);
  return 0;
}
