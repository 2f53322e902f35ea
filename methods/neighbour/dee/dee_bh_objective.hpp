#pragma once
// The linear-time DEE objective (`gradient: barnes_hut`): the model of dee_objective.hpp,
//   E(A) = sum_nm w+_nm d_nm + lambda sum_nm w-_nm exp(-d_nm),   d_nm = |A x_n - A x_m|^2,
// with the two O(N^2) terms of the dense path replaced:
//  - w+ lives on the class-restricted kNN graph (dee_sparse_weights): the heat kernel on the
//    edges to each point's k nearest same-class points, instead of on every same-class pair. The
//    attraction is then a quadratic form, sum w+ d = 2 tr(A S A^T) with S = X L+ X^T, formed once
//    in O(nnz D + N D^2), so each evaluation costs O(dim D^2) for it. `attraction: all_pairs`
//    forms S of the dense w+ instead (dee_all_pairs_scatter: O(sum_c N_c^2 D) once, no N x N
//    matrix), which keeps the dense model: theta = 0 is then the dense objective;
//  - the repulsion over all different-class pairs (w- = scale |x_nm|^2) is summed by Barnes-Hut on
//    the embedding Y = A X (framework/nbody/class_split_repulsion.hpp): the weights of a far cell
//    exactly from its points' sums of x and |x|^2, the kernel at the centre of mass of its
//    different-class points. theta = 0 is the exact sum.
// Gradient: dE/dA = 4 A S - 4 lambda F X^T, F (dim x N) the per-point repulsive forces, i.e. the
// chain rule dE/dA = (dE/dY) X^T through Y = A X. Like linear-time EE's, the gradient at theta > 0
// is the Barnes-Hut estimate of the exact gradient, not the gradient of the estimated E.
// Per evaluation: O(N D dim) for Y and F X^T, plus the tree walk, O(N log N) cells of O(D) each.
// Same bits for any thread count (the walk writes per point; sums run in index order).
#include <armadillo>

#include "framework/core/keywords.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/optim/objective.hpp"
#include "methods/neighbour/dee/dee_objective.hpp"

namespace drbench {

class DeeBhObjective final : public Objective {
 public:
  // X: D x N centred inputs (kept by reference); labels in [0, n_classes); Wp: N x N sparse
  // symmetric same-class weights (zero diagonal); lambda: the raw lambda (balanced scale included)
  // of w- = |x_nm|^2 on different-class pairs; dim 1 to 3.
  DeeBhObjective(const arma::mat& X, const arma::uvec& labels, arma::uword n_classes,
                 const arma::sp_mat& Wp, double lambda, arma::uword dim, double theta,
                 unsigned threads);
  // The same with the attraction given by its scatter matrices: S = X L+ X^T and Sd = X D+ X^T
  // (D x D), e.g. from dee_all_pairs_scatter.
  DeeBhObjective(const arma::mat& X, const arma::uvec& labels, arma::uword n_classes, arma::mat S,
                 arma::mat Sd, double lambda, arma::uword dim, double theta, unsigned threads);
  double evaluate(const arma::vec& a, arma::vec* grad) override;

  // As DeeObjective's: M = 4 (S + mu I) with S = X L+ X^T or X D+ X^T of the sparse w+.
  double factor_laplacian(double mu_rel) { return metric_.factor(S_, mu_rel); }
  double factor_fixed_point(double mu_rel) { return metric_.factor(Sd_, mu_rel); }
  arma::vec preconditioned_direction(const arma::vec& grad) const {
    return metric_.direction(grad, dim_);
  }

 private:
  const arma::mat& X_;
  arma::uvec labels_;
  arma::uword classes_;
  arma::mat S_, Sd_;  // X L+ X^T and X D+ X^T (D x D)
  double lambda_, theta_;
  arma::uword dim_;
  unsigned threads_;
  DeeMetric metric_;
};

// The sparse w+ of the linear-time path: the heat kernel exp(-|x_nm|^2 / t) on the edges of the
// class-restricted kNN graph (k nearest same-class points, either direction), with t = 2 sigma^2
// = width.heat_t(the mean squared distance over all same-class pairs, computed in O(N D)), so the
// width is the dense path's. Returns the sigma used through kernel_width.
arma::sp_mat dee_sparse_weights(const arma::mat& X, const arma::uvec& labels, arma::uword n_classes,
                                arma::uword k, const keywords::KernelWidth& width,
                                const GraphOptions& opt, double* kernel_width);

// `attraction: all_pairs`: S = X L+ X^T and Sd = X D+ X^T of the dense model's w+ (the heat kernel
// on every same-class pair, width as dee_sparse_weights), class by class in blocks of columns, so
// in O(sum_c N_c^2 D) time once and O(N_c) doubles per block column, never an N x N matrix: the
// attraction of the dense path, exactly (to round-off: the distances come from Gram products).
// Returns sum(w+) through total_weight and the sigma used through kernel_width.
void dee_all_pairs_scatter(const arma::mat& X, const arma::uvec& labels, arma::uword n_classes,
                           const keywords::KernelWidth& width, arma::mat& S, arma::mat& Sd,
                           double* total_weight, double* kernel_width);

}  // namespace drbench
