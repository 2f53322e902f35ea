#pragma once
// Exact kNN by brute force in float32 with a proven error bound, then exact re-ranking in double:
// every training point whose float distance lies within twice the bound of the running k-th float
// distance is kept, and the kept ones are ranked by the exact double distance and the index, as the
// other paths rank (framework/neighbours/knn_search.hpp). The derivation of the bound is in
// knn_prefilter.cpp.
#include <armadillo>

namespace drbench {

// The vector kernel the float pass runs on; automatic picks the widest this CPU has. Tests force
// each one to check that all give the same neighbours.
enum class PrefilterIsa { automatic, avx512, avx2, portable };
bool prefilter_isa_available(PrefilterIsa isa);

// Whether the bound covers this data: every coordinate finite and at most 2^400 in magnitude, the
// training and test points not all at one spot (their spread about the training mean at least
// 2^-400), and fewer than 2^32 training points. Otherwise the caller takes another path, which
// then also decides what non-finite input gives.
bool knn_prefilter_covers(const arma::mat& train, const arma::mat& test);

// Writes columns `cols` of nn (all columns when empty), kmax x test.n_cols, nearest first. The
// caller has checked the arguments and knn_prefilter_covers. exclude_self: leave-one-out, test is
// train.
void knn_prefilter_into(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                        bool exclude_self, const arma::uvec& cols, arma::umat& nn,
                        PrefilterIsa isa = PrefilterIsa::automatic);

}  // namespace drbench
