#pragma once
// Large margin nearest neighbour (Weinberger & Saul, JMLR 10, 2009, eq. 13-14), as metric-learn's
// LMNN (0.7) states it: a linear map L (dim x d) minimising
//   (1 - mu) sum_i sum_{j in T(i)} |L(x_i - x_j)|^2
//   + mu sum_i sum_{j in T(i)} sum_{l: y_l != y_i} [1 + |L(x_i - x_j)|^2 - |L(x_i - x_l)|^2]_+,
// where T(i) are the k nearest same-class points of x_i in input space (the target neighbours,
// fixed before the run) and the impostors l are re-found at every evaluation (the active set),
// so the objective is the exact hinge loss. metric-learn's `regularization` is 1 - mu. A point,
// training or new, maps by L (x - mean).
#include <armadillo>
#include <string>
#include <vector>

#include "framework/optim/objective.hpp"
#include "methods/common/linear_method.hpp"

namespace drbench {

// The k nearest same-class points of every column of X (k x n, nearest first, ties by index).
// Throws MethodError naming `neighbours` when a class has k points or fewer.
arma::umat lmnn_targets(const arma::mat& X, const arma::uvec& labels, arma::uword k);

// The objective above as a function of vec(L), L dim x d (column-major), and its gradient
// 2 L X Lap(W) X^T, with W the pair weights: (1 - mu) on every target pair, + mu on (i, j) and
// - mu on (i, l) for every active triple (i, j, l).
class LmnnObjective final : public Objective {
 public:
  LmnnObjective(const arma::mat& X, const arma::uvec& labels, const arma::umat& targets,
                arma::uword dim, double mu);
  double evaluate(const arma::vec& x, arma::vec* grad) override;
  // Fixes the triples active at x: later evaluations sum those triples' (unclipped) terms, a
  // smooth function whose gradient a finite-difference test can check across the hinge's kinks.
  void freeze_active(const arma::vec& x);
  void unfreeze() { frozen_ = false; }
  arma::uword active_triples() const { return active_; }  // at the last evaluation

 private:
  // One impostor pair (i, l) and the number of i's target neighbours j whose triple is active.
  struct Impostor {
    arma::uword i, l, count;
  };
  // The active triples at Y = L X: the impostor pairs, and per target pair (k x n) the number of
  // impostors l of its triple.
  void find_active(const arma::mat& Y, std::vector<Impostor>& imp, arma::umat& target_count) const;

  const arma::mat& X_;
  const arma::uvec& labels_;
  arma::umat targets_;
  arma::uword dim_;
  double mu_;
  bool frozen_ = false;
  std::vector<Impostor> imp_;
  arma::umat target_count_;
  arma::uword active_ = 0;
};

struct LmnnSetting {
  arma::uword neighbours = 3;
  double mu = 0.5;
  arma::uword iterations = 1000;
  double tolerance = 1e-5;
  std::string optimizer = "lbfgs";  // lbfgs | gd
  std::string init = "pca";         // pca | lda | identity | random
};

class Lmnn final : public LinearMethod {
 public:
  explicit Lmnn(const LmnnSetting& s) : LinearMethod("lmnn"), s_(s) {}
  void fit(const FitInput& in) override;
  double objective() const { return objective_; }    // at the end
  const arma::mat& start() const { return start_; }  // L before the run (dim x d)

 private:
  LmnnSetting s_;
  double objective_ = 0;
  arma::mat start_;
};

}  // namespace drbench
