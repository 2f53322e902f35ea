#pragma once
// The exact distance and order every kNN path ranks by (framework/neighbours/knn_search.cpp,
// knn_prefilter.cpp). Only for translation units compiled with -ffp-contract=off (see
// CMakeLists.txt): a fused multiply-add would change the bits, and then the paths could break ties
// differently.
#include <armadillo>

namespace drbench::knn_detail {
namespace {

struct Cand {
  double d;
  arma::uword i;
  bool operator<(const Cand& o) const { return d < o.d || (d == o.d && i < o.i); }
};

// Summed in coordinate order: the k-d tree's vector kernels sum in the same order, lane by lane.
inline double sq_dist(const double* p, const double* q, arma::uword dim) {
  double acc = 0;
  for (arma::uword r = 0; r < dim; ++r) acc += (p[r] - q[r]) * (p[r] - q[r]);
  return acc;
}

}  // namespace
}  // namespace drbench::knn_detail
