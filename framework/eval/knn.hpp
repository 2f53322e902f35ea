#pragma once
// k-nearest-neighbour classification error, the papers' measure: the neighbours come from the exact
// search of framework/neighbours/knn_search.hpp; ties in the vote go to the class of the nearest
// tied neighbour.
#include <armadillo>
#include <string>
#include <vector>

#include "framework/neighbours/knn_search.hpp"

namespace drbench {

// Predicted labels with k neighbours, from the index matrix above.
arma::uvec knn_vote(const arma::umat& nn, const arma::uvec& ytrain, arma::uword k);

// Error rate (fraction in [0,1]) for each k in ks.
std::vector<double> knn_errors(const arma::mat& train, const arma::uvec& ytrain,
                               const arma::mat& test, const arma::uvec& ytest,
                               const std::vector<int>& ks);
std::vector<double> knn_loo_errors(const arma::mat& X, const arma::uvec& y,
                                   const std::vector<int>& ks);

// The same under the kNN metric (`evaluation.knn_metric`): "euclidean" votes by Euclidean distance
// between the embedded points, "cosine" by the angle between them (Euclidean distance between
// unit-length columns ranks alike; a zero column stays zero). Any other name is refused.
std::vector<double> knn_errors(const arma::mat& train, const arma::uvec& ytrain,
                               const arma::mat& test, const arma::uvec& ytest,
                               const std::vector<int>& ks, const std::string& metric);
std::vector<double> knn_loo_errors(const arma::mat& X, const arma::uvec& y,
                                   const std::vector<int>& ks, const std::string& metric);

}  // namespace drbench
