#pragma once
// Global-structure measures of the PaCMAP and TriMap papers, beside the rank-based ones of
// coranking.hpp (same vocabulary: `evaluation.quality`):
//   random triplet accuracy (Wang, Huang, Rudin & Shaposhnik, JMLR 2021): for each point i and
//     `per_point` random pairs (j, k) of other points, whether d(i, j) < d(i, k) holds alike in
//     the input and the embedding; the share of triplets that agree.
//   centroid triplet accuracy (same paper, as its authors' evaluation code computes it): the
//     class means in both spaces, the distances of every pair of classes, and over every pair of
//     those distances whether their order agrees; the share that agree.
//   global score (Amid & Warmuth 2019): how well the input is recovered linearly from the
//     embedding, against PCA of the same dimension: exp(-(L(Y) - L_PCA) / L_PCA), L(Y) the mean
//     squared residual of the least-squares map from the centred embedding to the centred input.
// Sampling is seeded and sequential, so values do not depend on threads or MPI ranks.
#include <armadillo>
#include <cstdint>

namespace drbench {

// 3 x (n * per_point) triplets (anchor, j, k): every point an anchor `per_point` times, j and k
// drawn uniformly from the other points with j != k (needs n >= 3).
arma::umat sample_random_triplets(arma::uword n, arma::uword per_point, std::uint64_t seed);

// Share of the triplets whose order agrees in both spaces (columns are points). per_anchor, when
// given, receives the share of each anchor's triplets (for a standard error), in anchor order.
double random_triplet_accuracy(const arma::mat& high, const arma::mat& low,
                               const arma::umat& triplets, arma::vec* per_anchor = nullptr);

// labels: one per point; at least three distinct classes (two give a single distance, no pair).
double centroid_triplet_accuracy(const arma::mat& high, const arma::mat& low,
                                 const arma::uvec& labels);

// Needs fewer embedding dimensions than the input's rank (else PCA reconstructs the input
// exactly and the score is undefined).
double global_score(const arma::mat& high, const arma::mat& low);

}  // namespace drbench
