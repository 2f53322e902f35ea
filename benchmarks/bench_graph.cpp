// Recall and speed of the approximate neighbour graph (HNSW) against the exact one, the
// measurement the bigdata issue asks for (goal: recall >= 0.99 at 15 neighbours on Fashion-MNIST
// 60,000 x 50-D). Not a Google Benchmark loop: one exact graph at 60,000 points takes seconds to
// minutes. The matrix comes from scripts/bench_graph.sh (Fashion-MNIST, [0, 1] pixels, PCA to 50).
//
//   bench_graph <matrix.f64> [k=15] [threads=1] [ef=100,200]
//
// matrix.f64: two little-endian uint64 (n, d) followed by n*d float64, point after point.
// Prints one line of JSON per graph: kind, ef_search, build and query seconds, recall.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "benchmarks/matrix_file.hpp"
#include "framework/neighbours/neighbour_graph.hpp"

int main(int argc, char** argv) {
  using namespace drbench;
  const arma::mat X = bench::matrix_argument(argc, argv, 2, "bench_graph",
                                             "<matrix.f64> [k=15] [threads=1] [ef=100,200]");
  arma::uword k = 15;
  unsigned threads = 1;
  std::vector<std::size_t> efs = {100, 200};
  for (const auto& [key, value] : bench::key_values(argc, argv, 2, "bench_graph")) {
    if (key == "k") {
      k = std::stoul(value);
    } else if (key == "threads") {
      threads = static_cast<unsigned>(std::stoul(value));
    } else if (key == "ef") {
      efs.clear();
      std::istringstream list(value);
      for (std::string v; std::getline(list, v, ',');) efs.push_back(std::stoul(v));
    } else {
      std::cerr << "bench_graph: unknown key '" << key << "' (fix: k=, threads=, ef=)\n";
      return 2;
    }
  }

  GraphOptions exact;
  exact.kind = GraphKind::exact;
  exact.threads = threads;
  const bench::Stopwatch exact_clock;
  const NeighbourGraph truth = neighbour_graph(X, k, exact);
  std::printf(
      "{\"n\": %llu, \"d\": %llu, \"k\": %llu, \"threads\": %u, \"kind\": \"exact\", "
      "\"seconds\": %.3f, \"recall\": 1}\n",
      static_cast<unsigned long long>(X.n_cols), static_cast<unsigned long long>(X.n_rows),
      static_cast<unsigned long long>(k), threads, exact_clock.wall());
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
    const bench::Stopwatch build_clock;
    const NeighbourIndex idx(X, k, q);
    const double b = build_clock.wall();
    const bench::Stopwatch query_clock;
    const NeighbourGraph g = idx.self_graph(k);
    const double query = query_clock.wall();
    std::printf(
        "{\"kind\": \"approximate\", \"ef_search\": %zu, \"build_seconds\": %.3f, "
        "\"query_seconds\": %.3f, \"recall\": %.5f}\n",
        q.ef_search, b, query, graph_recall(g, truth));
    std::fflush(stdout);
  }
  return 0;
}
