#pragma once
// The linear-time DSNE objective (`gradient: barnes_hut`): the model of dsne_objective.hpp,
//   E(A) = sum_{i != j} p_ij log(p_ij / q_ij),  q_ij = u_ij / Z_g,  u_ij = 1 / (1 + |A x_ij|^2),
// with its O(N^2) terms replaced:
//  - P lives on two class-restricted kNN graphs (dsne_sparse_similarities): the Gaussian of
//    eq. 5 on the edges to each point's k nearest same-class points, normalised to one over them,
//    and on the edges to its k nearest different-class points, normalised likewise (the dense P
//    spreads over all pairs of each group);
//  - Z_same and Z_diff, the Student-t sums over all same-class and all different-class pairs, and
//    their forces, by Barnes-Hut on Y = A X (framework/nbody/class_split_repulsion.hpp), each
//    group's part of a far cell taken at that group's centre of mass. theta = 0 is the exact sum.
// E = sum p log p - sum_{stored} p log u + log Z_same + log Z_diff, and with
// dE/dd_ij = (p_ij - q_ij) u_ij: dE/dY_i = 4 (sum_j p_ij u_ij (y_i - y_j) - f_same_i / Z_same -
// f_diff_i / Z_diff), dE/dA = (dE/dY) X^T. At theta > 0 the gradient is the Barnes-Hut estimate of
// the exact gradient (as in Barnes-Hut t-SNE). Same bits for any thread count.
#include <armadillo>

#include "framework/core/keywords.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/optim/objective.hpp"

namespace drbench {

// Sparse P: N x N symmetric, zero diagonal, its same-class entries summing to one and its
// different-class entries summing to one. t = 2 sigma^2 = width.heat_t(the mean squared distance
// over all same-class pairs, in O(N D)), as the dense path's; each group's kernel is taken
// relative to its smallest stored distance (so a narrow kernel cannot underflow a whole group).
arma::sp_mat dsne_sparse_similarities(const arma::mat& X, const arma::uvec& labels,
                                      arma::uword n_classes, arma::uword k,
                                      const keywords::KernelWidth& width, const GraphOptions& opt,
                                      double* t_used = nullptr);

class DsneBhObjective final : public Objective {
 public:
  // X: D x N (kept by reference); P from dsne_sparse_similarities (or any sparse P of that form);
  // dim 1 to 3.
  DsneBhObjective(const arma::mat& X, const arma::uvec& labels, arma::uword n_classes,
                  arma::sp_mat P, arma::uword dim, double theta, unsigned threads);
  double evaluate(const arma::vec& a, arma::vec* grad) override;

 private:
  const arma::mat& X_;
  arma::uvec labels_;
  arma::uword classes_;
  arma::sp_mat P_;
  arma::uword dim_;
  double theta_;
  unsigned threads_;
  double p_entropy_ = 0.0;  // sum p log p
};

}  // namespace drbench
