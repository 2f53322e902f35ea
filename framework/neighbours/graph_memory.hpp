#pragma once
// Peak-memory pieces of the sparse spectral methods (MethodInfo::memory of laplacian_eigenmaps,
// lle, isomap), in bytes, so each method's estimate is the sum of what it holds at its peak.
// Calibrated with /usr/bin/time -v on Fashion-MNIST (50-D after PCA, 5,000 to 60,000 points,
// benchmarks/bench_spectral.cpp); see docs/benchmarks.md.
#include <armadillo>
#include <string>

#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench {

// What the process holds before any fit: the libraries, OpenBLAS's buffers, MPI.
constexpr double kProcessBaseBytes = 8.0 * 1048576.0;

// The shared neighbour graph of n points in d dimensions with k neighbours (kind as the
// `neighbour_graph` setting resolves it): the HNSW index where approximate, the k x n index and
// distance arrays, and the symmetric sparse adjacency with its edge list while it is assembled.
inline double neighbour_graph_memory(arma::uword n, arma::uword d, arma::uword k,
                                     const std::string& kind) {
  const double nn = double(n), kk = double(k);
  const bool approx = use_approximate(n, d, k, parse_graph_kind(kind));
  // hnswlib: float vectors, 2M level-0 links (M = 16) and its per-element header.
  const double hnsw = approx ? nn * (4.0 * double(d) + 2.0 * 16 * 4 + 64.0) : 0.0;
  return hnsw + 16.0 * kk * nn + 100.0 * kk * nn;
}

// Thick-restart Lanczos (sparse_eigs.hpp) with a basis of `basis` vectors: the basis, the
// restart product and a few work vectors.
inline double lanczos_memory(arma::uword n, arma::uword basis) {
  return 8.0 * double(n) * (1.5 * double(basis) + 6.0);
}

}  // namespace drbench
