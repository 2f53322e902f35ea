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
arma::umat knn_indices(const arma::mat& train, const arma::mat& test, arma::uword kmax,
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
