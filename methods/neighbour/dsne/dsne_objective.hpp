#pragma once
// Discriminative stochastic neighbour embedding (Zheng, Qiu, Jiang & Wang 2012, in the form of
// papers/001 section 2.2, eq. 5-8), re-derived:
//   p_ij = exp(-|x_ij|^2 / (2 sigma^2)) / Z^P_g,   q_ij = u_ij / Z^Q_g,   u_ij = 1 / (1 + |A
//   x_ij|^2)
// for i != j, where g is the group of the pair (same class, different classes) and each Z sums
// its kernel over every ordered pair of that group, so P and Q each sum to 1 within each group.
//   E(A) = sum_{i != j} p_ij log(p_ij / q_ij)                                      (eq. 7)
// With d_ij = |A x_ij|^2: dE/dd_ij = (p_ij - q_ij) u_ij (the log Z_g terms contribute -q_ij u_ij,
// because sum_g p = 1), hence dE/dA = 4 A X L_K X^T with K_ij = (p_ij - q_ij) u_ij (eq. 8, where
// L_intra + L_inter = L_K split by group).
#include <armadillo>

#include "framework/core/keywords.hpp"
#include "framework/optim/objective.hpp"

namespace drbench {

// P of eq. 5: N x N, zero diagonal, each group summing to 1. t = 2 sigma^2 = width.heat_t(the mean
// squared same-class distance), so relative 1 is that mean. Computed relative to each group's
// smallest distance so that a narrow kernel cannot underflow a whole group to 0.
arma::mat dsne_input_similarities(const arma::mat& X, const arma::uvec& labels,
                                  const keywords::KernelWidth& width, double* t_used = nullptr);

class DsneObjective final : public Objective {
 public:
  DsneObjective(const arma::mat& X, const arma::uvec& labels, arma::mat P, arma::uword dim);
  double evaluate(const arma::vec& a, arma::vec* grad) override;

 private:
  const arma::mat& X_;
  arma::mat P_, same_;  // same_: 1 for same-class pairs i != j
  arma::uword dim_;
  double p_entropy_ = 0.0;  // sum p log p, the constant part of E
};

}  // namespace drbench
