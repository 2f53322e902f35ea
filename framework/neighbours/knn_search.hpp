#pragma once
// Exact k-nearest-neighbour search. Squared distances are computed in blocks with one BLAS-3
// product per block; ties in distance break towards the lower training index, so results never
// depend on ordering inside a BLAS call. The classification by these neighbours (the kNN error)
// is evaluation's: framework/eval/knn.hpp.
#include <armadillo>
#include <vector>

namespace drbench {

// kmax x m matrix of training indices, nearest first, for each test column.
// exclude_self: test == train (same columns), and a point is not its own neighbour (leave-one-out).
// Three exact paths rank by the same directly summed squared distance with the same tie rule
// (lower index first), so the choice only changes speed:
// - an exact k-d tree (framework/neighbours/knn_search.cpp: 4-way nodes with their children's tight
// boxes,
//   leaves of 32 points scanned with vector instructions), up to kKdTreeMaxDim dimensions;
// - the float32 pre-filter (framework/neighbours/knn_prefilter.hpp): brute force in float with a
// proven
//   error bound, exact double re-ranking of the few survivors; up to kPrefilterMaxDim dimensions,
//   for finite data in the range its bound covers, on CPUs with AVX2 or AVX-512;
// - blocked BLAS distances, for everything else.
// Up to kKdTreeMaxDim the tree answers a probe of a few dozen queries first; when it scans more
// than a set share of the training set per query (isotropic data beyond a few dimensions; on
// embeddings, whose spread sits in a few leading coordinates, the tree lasts longer), the
// remaining queries go to the pre-filter, or to the blocked path where the pre-filter does not
// apply.
enum class KnnPath { kdtree, prefilter, blocked };
// path, when given, is set to the path that answered the queries after the probe.
arma::umat knn_indices(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                       bool exclude_self = false, KnnPath* path = nullptr);
constexpr arma::uword kKdTreeMaxDim = 20;
// The pre-filter beats blocked BLAS distances on one thread far beyond this (5,000 x 5,000
// Gaussian points: 21 vs 60 ms at 32-D, 36 vs 85 ms at 64-D, 170 vs 257 ms at 256-D), but BLAS
// can use several threads where the pre-filter uses one; 64 keeps the wide data on BLAS.
constexpr arma::uword kPrefilterMaxDim = 64;
// The paths, for tests and benchmarks. The blocked one picks kmax + 8 candidates by the BLAS
// expansion |a|^2 - 2a.b before ranking them exactly, so it can differ from the others only when
// more than 8 points lie within rounding of the k-th distance.
arma::umat knn_indices_kdtree(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                              bool exclude_self = false);
arma::umat knn_indices_blocked(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                               bool exclude_self = false);
// Data the pre-filter's bound does not cover (non-finite, beyond 2^400, all points at one spot)
// goes to the blocked path.
arma::umat knn_indices_prefilter(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                                 bool exclude_self = false);

}  // namespace drbench
