#pragma once
// Input affinities at a chosen perplexity, shared by t-SNE, tSNE-GPLVM and the neighbour-embedding
// family: p_{j|i} = exp(-beta_i d_ij^2) / sum_{k != i} exp(-beta_i d_ik^2), with the precision
// beta_i of point i found by bisection so that the entropy of row i (natural log) equals
// ln(perplexity). Dense for small N, sparse over the 3 x perplexity nearest neighbours for large N
// (van der Maaten 2014), where the mass beyond them is negligible.
#include <armadillo>

#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench {

struct PerplexityOptions {
  double tol = 1e-5;    // |H_i - ln(perplexity)| at which the bisection stops
  int max_steps = 200;  // bisection cap per point
};

// Calibrates one row in place. d: squared distances of point i to its candidates, already shifted
// so that the smallest candidate distance is 0 (the shift cancels in the normalised row and keeps
// exp() from underflowing everywhere); `self` is the index in d of the point itself (its weight
// is forced to 0), or d.n_elem when d holds other points only. On return p holds the normalised
// row; the precision beta is returned.
double calibrate_row(const arma::vec& d, arma::uword self, double perplexity, arma::vec& p,
                     const PerplexityOptions& opt = {});

// Entropy (natural log) of a normalised row, 0 ln 0 = 0: what calibration drives to ln(perp).
double row_entropy(const arma::vec& p);

// n x n conditional affinities of the columns of X (d x n): column i holds p_{.|i}. Throws
// MethodError unless 1 <= perplexity <= n - 1.
arma::mat conditional_affinities(const arma::mat& X, double perplexity,
                                 const PerplexityOptions& opt = {});

// Joint affinities P = (P_c + P_c^T) / (2n): symmetric, zero diagonal, summing to one.
arma::mat joint_affinities(const arma::mat& X, double perplexity,
                           const PerplexityOptions& opt = {});

// Sparse conditional affinities over each point's `neighbours` nearest others (exact kNN, ties to
// the lower index): column i holds p_{.|i}. neighbours <= 0 takes min(n - 1, 3 x perplexity).
// Throws MethodError unless 1 <= perplexity <= neighbours <= n - 1.
arma::sp_mat sparse_conditional_affinities(const arma::mat& X, double perplexity,
                                           int neighbours = 0, const PerplexityOptions& opt = {});

// Sparse joint affinities (P_c + P_c^T) / (2n) on the symmetrised kNN graph.
arma::sp_mat sparse_joint_affinities(const arma::mat& X, double perplexity, int neighbours = 0,
                                     const PerplexityOptions& opt = {});

// Sparse conditional affinities over a given neighbour graph
// (framework/neighbours/neighbour_graph.hpp, exact or approximate): column i holds p_{.|i} over i's
// k graph neighbours, their squared distances summed from X directly (the same numbers as
// sparse_conditional_affinities when the graph is exact). Rows are calibrated on `threads` threads,
// one column each: the same bits for any thread count. Throws MethodError unless 1 <= perplexity <=
// k.
arma::sp_mat graph_conditional_affinities(const arma::mat& X, const NeighbourGraph& g,
                                          double perplexity, unsigned threads = 1,
                                          const PerplexityOptions& opt = {});

// (P_c + P_c^T) / (2n) of graph_conditional_affinities.
arma::sp_mat graph_joint_affinities(const arma::mat& X, const NeighbourGraph& g, double perplexity,
                                    unsigned threads = 1, const PerplexityOptions& opt = {});

// The same of sparse points (one column each), the squared distances summed over the stored
// features in feature order (sparse_sq_dist): the bits of the dense points' affinities.
arma::sp_mat graph_conditional_affinities(const arma::sp_mat& X, const NeighbourGraph& g,
                                          double perplexity, unsigned threads = 1,
                                          const PerplexityOptions& opt = {});
arma::sp_mat graph_joint_affinities(const arma::sp_mat& X, const NeighbourGraph& g,
                                    double perplexity, unsigned threads = 1,
                                    const PerplexityOptions& opt = {});

}  // namespace drbench
