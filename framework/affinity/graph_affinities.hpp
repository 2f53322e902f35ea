#pragma once
// Entropic affinities on the shared neighbour graph (framework/linalg/neighbour_graph.hpp): the
// sparse counterpart of joint_affinities for methods that run at sizes where the n x n matrix
// cannot be held. Each point's row is calibrated over its k graph neighbours only (the mass beyond
// 3 x perplexity neighbours is negligible, van der Maaten 2014), so the graph's kind (exact or
// HNSW) and k decide the support; the calibration is the one of calibrate_row.
#include <armadillo>

#include "framework/affinity/perplexity.hpp"
#include "framework/linalg/neighbour_graph.hpp"

namespace drbench {

// Column i holds p_{.|i} over g's neighbours of i. Throws MethodError unless
// 1 <= perplexity <= k. `threads` split the rows (each is calibrated alone: any count gives the
// same bits).
arma::sp_mat graph_conditional_affinities(const NeighbourGraph& g, double perplexity,
                                          unsigned threads = 1, const PerplexityOptions& opt = {});

// (P_c + P_c^T) / (2n): symmetric, zero diagonal, summing to one.
arma::sp_mat graph_joint_affinities(const NeighbourGraph& g, double perplexity,
                                    unsigned threads = 1, const PerplexityOptions& opt = {});

}  // namespace drbench
