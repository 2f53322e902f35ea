#pragma once
// Locality preserving projections (He & Niyogi, NIPS 2003): a linear approximation of Laplacian
// eigenmaps. With a heat-kernel kNN graph W, L = D - W, the projection vectors are the smallest
// generalized eigenvectors of X L X^T a = lambda X D X^T a (their eq. 1). As in the paper, the
// data first go through PCA so that X D X^T is not singular (section 4, "PCA projection").
#include <armadillo>
#include <string>

#include "methods/linear/linear_method.hpp"

namespace drbench {

struct GraphProjection {
  arma::vec mean;
  arma::mat A;       // d x dim, composed with the PCA pre-step
  arma::vec values;  // generalized eigenvalues, ascending
};

// The LPP eigenproblem for any affinity graph W (shared with SLPP): PCA keeping `pca_ratio` of
// the variance, then X L X^T a = lambda (X D X^T + ridge) a, smallest `dim`. `method` names the
// caller in error messages.
GraphProjection solve_lpp(const arma::mat& X, const arma::sp_mat& W, arma::uword dim,
                          double pca_ratio, double reg, const std::string& method);

class Lpp final : public LinearMethod {
 public:
  Lpp(arma::uword k, double t, double pca_ratio, double reg)
      : LinearMethod("lpp"), k_(k), t_(t), pca_ratio_(pca_ratio), reg_(reg) {}
  void fit(const FitInput& in) override;
  const arma::vec& eigenvalues() const { return values_; }
  double heat_width() const { return t_used_; }

 private:
  arma::uword k_;
  double t_, pca_ratio_, reg_;
  double t_used_ = 0.0;
  arma::vec values_;
};

}  // namespace drbench
