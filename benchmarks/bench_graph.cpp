// Recall and speed of the approximate neighbour graph (HNSW) against the exact one, the
// measurement the bigdata issue asks for (goal: recall >= 0.99 at 15 neighbours on Fashion-MNIST
// 60,000 x 50-D). Not a Google Benchmark loop: one exact graph at 60,000 points takes seconds to
// minutes. The matrix comes from scripts/bench_graph.sh (Fashion-MNIST, [0, 1] pixels, PCA to 50).
//
//   bench_graph <matrix.f64> [k=15] [threads=1] [ef=100,200]
//
// matrix.f64: two little-endian uint64 (n, d) followed by n*d float64, point after point.
// Prints one line of JSON per graph: kind, ef_search, build and query seconds, recall.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "framework/linalg/neighbour_graph.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace drbench;
  if (argc < 2) {
    std::cerr << "usage: bench_graph <matrix.f64> [k=15] [threads=1] [ef=100,200]\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::uint64_t n = 0, d = 0;
  if (!in.read(reinterpret_cast<char*>(&n), 8) || !in.read(reinterpret_cast<char*>(&d), 8)) {
    std::cerr << "bench_graph: " << argv[1] << ": cannot read the (n, d) header\n";
    return 1;
  }
  arma::mat X(d, n);
  if (!in.read(reinterpret_cast<char*>(X.memptr()), static_cast<std::streamsize>(8 * n * d))) {
    std::cerr << "bench_graph: " << argv[1] << ": expected " << n * d << " float64 values\n";
    return 1;
  }
  arma::uword k = 15;
  unsigned threads = 1;
  std::vector<std::size_t> efs = {100, 200};
  for (int a = 2; a < argc; ++a) {
    const std::string s = argv[a];
    const auto eq = s.find('=');
    const std::string key = s.substr(0, eq),
                      value = eq == std::string::npos ? "" : s.substr(eq + 1);
    if (key == "k") {
      k = std::stoul(value);
    } else if (key == "threads") {
      threads = static_cast<unsigned>(std::stoul(value));
    } else if (key == "ef") {
      efs.clear();
      std::istringstream list(value);
      for (std::string v; std::getline(list, v, ',');) efs.push_back(std::stoul(v));
    } else {
      std::cerr << "bench_graph: unknown argument '" << s << "' (fix: k=, threads=, ef=)\n";
      return 2;
    }
  }

  GraphOptions exact;
  exact.kind = GraphKind::exact;
  exact.threads = threads;
  auto t0 = std::chrono::steady_clock::now();
  const NeighbourGraph truth = neighbour_graph(X, k, exact);
  std::printf(
      "{\"n\": %llu, \"d\": %llu, \"k\": %llu, \"threads\": %u, \"kind\": \"exact\", "
      "\"seconds\": %.3f, \"recall\": 1}\n",
      static_cast<unsigned long long>(n), static_cast<unsigned long long>(d),
      static_cast<unsigned long long>(k), threads, seconds_since(t0));
  std::fflush(stdout);

  GraphOptions approx;
  approx.kind = GraphKind::approximate;
  approx.threads = threads;
  approx.seed = 1;
  // ef_search is fixed when an index is made, so each value builds its own (the build time is
  // then measured once per value too).
  for (std::size_t ef : efs) {
    GraphOptions q = approx;
    q.ef_search = std::max<std::size_t>(ef, k + 1);
    t0 = std::chrono::steady_clock::now();
    const NeighbourIndex idx(X, k, q);
    const double b = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    const NeighbourGraph g = idx.self_graph(k);
    const double query = seconds_since(t0);
    std::printf(
        "{\"kind\": \"approximate\", \"ef_search\": %zu, \"build_seconds\": %.3f, "
        "\"query_seconds\": %.3f, \"recall\": %.5f}\n",
        q.ef_search, b, query, graph_recall(g, truth));
    std::fflush(stdout);
  }
  return 0;
}
