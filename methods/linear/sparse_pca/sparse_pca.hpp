#pragma once
// Sparse PCA as scikit-learn's SparsePCA (1.2; Mairal et al. 2009, JMLR 11, "Online dictionary
// learning for sparse coding", section 5's batch form): the centred data's features (d x n, one
// row a feature) are approximated by sparse loadings times a dictionary of n-vectors of norm at
// most 1, minimising 1/2 |Xc - C D|^2 + lambda |C|_1 by alternating the loadings C (d x dim, one
// lasso per feature, solved exactly by coordinate descent) with block coordinate descent on the
// atoms of D, from the SVD of Xc, until the objective falls by less than `tolerance` of itself.
// The components are C's columns scaled to unit length; a point, training or new, maps by the
// ridge regression of its centred coordinates on them, (C'C + ridge I)^-1 C' (x - mean), a linear
// map (scikit-learn's transform with ridge_alpha).
#include <armadillo>

#include "methods/common/linear_method.hpp"

namespace drbench {

struct SparsePcaSetting {
  double lambda = 1.0;  // scikit-learn's alpha
  double ridge = 0.01;  // scikit-learn's ridge_alpha
  arma::uword iterations = 1000;
  double tolerance = 1e-8;
};

// The lasso min_c 1/2 |y - D' c|^2 + lambda |c|_1 from its Gram G = D D' and b = D y, by cyclic
// coordinate descent from c (warm start) until no coordinate moves by more than 1e-14 of the
// largest; exact up to rounding where G is positive definite.
void lasso_gram(const arma::mat& G, const arma::vec& b, double lambda, arma::vec& c);

class SparsePca final : public LinearMethod {
 public:
  explicit SparsePca(const SparsePcaSetting& s) : LinearMethod("sparse_pca"), s_(s) {}
  void fit(const FitInput& in) override;
  const arma::mat& components() const { return components_; }  // dim x d, rows of unit length
  double objective() const { return objective_; }  // 1/2 |Xc - C D|^2 + lambda |C|_1 at the end
  arma::uword iterations_run() const { return iterations_run_; }

 private:
  SparsePcaSetting s_;
  arma::mat components_;
  double objective_ = 0;
  arma::uword iterations_run_ = 0;
};

}  // namespace drbench
