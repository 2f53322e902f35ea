#pragma once
// Weight matrices of the neighbour-embedding family that are not calibrated to a perplexity:
// Gaussian (heat) weights of a fixed width, symmetrisation, and the class masks through which
// supervised methods (DSNE, DEE) split pairs into same-class and different-class sets.
#include <armadillo>

namespace drbench {

// exp(-d2 / (2 kernel_width^2)) elementwise on squared distances, zero diagonal when D2 is
// square and `zero_diagonal` is set. Throws MethodError unless kernel_width > 0 and finite.
arma::mat gaussian_weights(const arma::mat& D2, double kernel_width, bool zero_diagonal = true);

// (P + P^T) / (2n) for an n x n conditional matrix whose columns each sum to one: the joint
// distribution of SNE/t-SNE (sums to one, symmetric).
arma::mat symmetrize_joint(const arma::mat& Pc);
arma::sp_mat symmetrize_joint(const arma::sp_mat& Pc);

enum class ClassPairs { Same, Different };

// n x n 0/1 mask of the pairs (i, j), i != j, whose labels are equal (Same) or differ (Different).
arma::mat class_mask(const arma::uvec& labels, ClassPairs which);

// W with every entry outside the mask set to 0 (W % class_mask(labels, which)).
arma::mat mask_pairs(const arma::mat& W, const arma::uvec& labels, ClassPairs which);

}  // namespace drbench
