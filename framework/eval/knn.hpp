#pragma once
// Exact k-nearest-neighbour classification. Squared distances are computed in blocks with one
// BLAS-3 product per block; ties in distance break towards the lower training index and ties in
// the vote towards the class of the nearest tied neighbour, so results never depend on ordering
// inside a BLAS call.
#include <armadillo>
#include <vector>

namespace drbench {

// kmax x m matrix of training indices, nearest first, for each test column.
// exclude_self: test == train (same columns), and a point is not its own neighbour (leave-one-out).
// Up to kKdTreeMaxDim dimensions an exact k-d tree answers (framework/eval/knn.cpp: 4-way nodes
// with their children's tight boxes, leaves of 32 points scanned with vector instructions), unless
// a probe of a few hundred queries finds it scanning so much of the training set that blocked
// BLAS distances are cheaper (isotropic data beyond about 10-D; embeddings, whose spread sits in
// a few leading coordinates, stay on the tree up to 20-D). Above kKdTreeMaxDim: blocked. All
// paths rank by the same directly summed squared distance with the same tie rule, so the choice
// only changes speed.
// used_blocked, when given, is set to whether the blocked path answered (part of) the queries.
arma::umat knn_indices(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                       bool exclude_self = false, bool* used_blocked = nullptr);
constexpr arma::uword kKdTreeMaxDim = 20;
// The two paths, for tests and benchmarks. The blocked one picks kmax + 8 candidates by the BLAS
// expansion |a|^2 - 2a.b before ranking them exactly, so it can differ from the tree only when
// more than 8 points lie within rounding of the k-th distance.
arma::umat knn_indices_kdtree(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                              bool exclude_self = false);
arma::umat knn_indices_blocked(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                               bool exclude_self = false);

// Predicted labels with k neighbours, from the index matrix above.
arma::uvec knn_vote(const arma::umat& nn, const arma::uvec& ytrain, arma::uword k);

// Error rate (fraction in [0,1]) for each k in ks.
std::vector<double> knn_errors(const arma::mat& train, const arma::uvec& ytrain,
                               const arma::mat& test, const arma::uvec& ytest,
                               const std::vector<int>& ks);
std::vector<double> knn_loo_errors(const arma::mat& X, const arma::uvec& y,
                                   const std::vector<int>& ks);

}  // namespace drbench
