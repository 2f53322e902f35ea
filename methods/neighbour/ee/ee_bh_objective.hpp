#pragma once
// The linear-time elastic embedding objective (Vladymyrov & Carreira-Perpinan 2014, AISTATS,
// "Linear-time training of nonlinear low-dimensional embeddings"): the objective of
// ee_objective.hpp,
//   E(Y) = sum w+_nm d2_nm + lambda sum w-_nm exp(-d2_nm),  w-_nm = |x_n - x_m|^2 / sum |.|^2,
// with w+ sparse (entropic affinities on the kNN graph) and the repulsion summed by Barnes-Hut on
// the space tree of the embedding (framework/nbody/space_tree.hpp).
//
// The repulsive weights are the squared input distances, not 1 as in the paper: expanding
// |x_n - x_m|^2 = a_n + a_m - 2 x_n.x_m (a = |x|^2) makes a cell's sum over its points m
//   sum_m w-_nm k(y_n, y_m) ~ k(y_n, c) (|C| a_n + sum_m a_m - 2 x_n . sum_m x_m),
// one D-dimensional dot product per far cell (c its centre of mass), so the model is EE's own and
// theta = 0 reproduces the dense objective. Points of opened leaves are summed exactly. Cells whose
// nearest possible point is farther than sqrt(kNegligibleD2) are skipped (exp(-50) ~ 2e-22 of a
// neighbour at distance 0). The gradient is the Barnes-Hut estimate of the exact gradient (not the
// gradient of the estimated E), as in the paper.
//
// Threads: the per-point sums are independent and written per point, then added in index order,
// so E and G are the same bits for any thread count.
#include <armadillo>
#include <cstddef>
#include <memory>

#include "framework/linalg/sparse_lu.hpp"
#include "framework/optim/objective.hpp"

namespace drbench {

class EeBhObjective final : public Objective {
 public:
  // Wp: n x n symmetric sparse attractive weights (zero diagonal); X: D x n inputs; dim 1 to 3.
  EeBhObjective(arma::sp_mat Wp, const arma::mat& X, double lambda, arma::uword dim, double theta,
                unsigned threads);
  double evaluate(const arma::vec& y, arma::vec* grad) override;

  // Builds 4 L+ + mu I with mu = ridge * trace(4 L+) / n (as EeObjective); returns mu. With
  // precondition_neighbours = k > 0 it also factors, once (w+ never changes), the same matrix
  // 4 L_k + mu I of the sparser graph that keeps each point's k largest w+ (an edge stays when
  // either end keeps it), by sparse LU: the CG preconditioner. A graph Laplacian's slow modes
  // (whole clusters moving) are what Jacobi-preconditioned CG resolves last, and they are what
  // the spectral direction is for; the factor of the k-graph carries them, so a couple of steps
  // replace tens. k = 0: the Jacobi preconditioner.
  double factor_spectral(double ridge);
  // -G (4 L+ + mu I)^-1 by at most `cg_iterations` preconditioned CG steps (relative residual
  // cg_tol), warm-started at the previous direction when that is downhill for this g, centred.
  // Falls back to the fixed-point direction when CG's result is not downhill.
  arma::vec spectral_direction(const arma::vec& g);
  // Entries of the preconditioner's LU factors (0 without one), and the seconds factoring took.
  std::size_t preconditioner_nonzeros() const;
  double preconditioner_seconds() const { return factor_seconds_; }
  arma::vec fixed_point_direction(const arma::vec& g) const;
  int cg_iterations = 50;
  double cg_tol = 1e-3;
  arma::uword precondition_neighbours = 0;
  int last_cg_iterations() const { return last_cg_; }

  // The sums w+ and w- would have on all pairs (w+ sums to one over its stored entries; w- over
  // all n(n - 1) ordered pairs), for tests.
  double repulsive_scale() const { return scale_; }

 private:
  template <int D>
  double evaluate_d(const arma::mat& Y, arma::mat* G) const;

  arma::sp_mat Wp_;
  arma::mat X_;   // centred inputs divided by sqrt(sum_nm |x_n - x_m|^2): w-_nm = |x_n - x_m|^2
  arma::vec a_;   // |x_n|^2 of X_
  arma::vec Dp_;  // degrees of w+
  double lambda_, theta_;
  arma::uword dim_;
  unsigned threads_;
  double scale_ = 0.0;
  arma::sp_mat M_;  // 4 L+ + mu I
  arma::mat prev_;  // previous spectral direction (n x dim)
  int last_cg_ = 0;
  std::unique_ptr<SparseLu> precond_;  // LU of 4 L_k + mu I (factor_spectral)
  double factor_seconds_ = 0.0;
};

}  // namespace drbench
