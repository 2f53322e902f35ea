#pragma once
// In the framework because the supervised neighbour embeddings (DEE, DSNE) split their all-pairs
// repulsion by class: DEE repels different-class pairs only, DSNE normalises its Student-t kernel
// separately over same-class and different-class pairs. Both sums are taken by Barnes-Hut on the
// embedding's space tree (space_tree.hpp), as linear-time EE and t-SNE take theirs, in
// O(n log n) per evaluation instead of O(n^2).
//
// How a cell is split by class: the tree's positions of each class are counted by a rank table
// (4 C (n + 1) bytes), and every quantity summed over a cell (points, coordinates, inputs) has a
// prefix sum in tree order, overall and per class, so that the same-class part of any cell is one
// difference of prefix sums and the different-class part is the cell's total minus it. A cell
// taken whole contributes the kernel at the centre of mass of the group (same or different class)
// it is summed for, not of the whole cell. Points of opened leaves are summed exactly, so theta = 0
// is the exact sum.
//
// Threads: the per-point sums are independent and written per point, so the results are the
// same bits for any thread count.
#include <armadillo>

namespace drbench {

// The elastic repulsion between classes (the squared-input-distance weights of EE and DEE):
//   e_i = sum_{j: c_j != c_i} w_ij exp(-|y_i - y_j|^2),  f_i = sum_{same j} w_ij exp(-..)(y_i -
//   y_j)
// with w_ij = |x_i - x_j|^2; a far cell's weight is summed exactly from its points' sums of x and
// |x|^2 (one D-dimensional dot product per cell), only the kernel is taken at the centre. Cells
// whose nearest possible point lies beyond sqrt(50) are skipped (their kernel is below 2e-22).
// Y: dim x n (dim 1 to 3); X: D x n; labels in [0, n_classes). e: n; F: dim x n.
void elastic_repulsion_between_classes(const arma::mat& Y, const arma::mat& X,
                                       const arma::uvec& labels, arma::uword n_classes,
                                       double theta, unsigned threads, arma::vec& e, arma::mat& F);

// The Student-t kernel u_ij = 1 / (1 + |y_i - y_j|^2) summed by group, over j != i:
//   z_same_i = sum_{c_j = c_i} u_ij,            z_diff_i = sum_{c_j != c_i} u_ij,
//   f_same_i = sum_{c_j = c_i} u_ij^2 (y_i - y_j),  f_diff_i likewise.
struct ClassSplitStudentSums {
  arma::vec z_same, z_diff;  // n
  arma::mat f_same, f_diff;  // dim x n
};
ClassSplitStudentSums student_t_sums_by_class(const arma::mat& Y, const arma::uvec& labels,
                                              arma::uword n_classes, double theta,
                                              unsigned threads);

}  // namespace drbench
