#pragma once
// Principal component analysis: project centred points on the top eigenvectors of the sample
// covariance. Other linear methods reuse pca_basis (the PCA pre-step of LPP, the PPCA closed form).
#include <armadillo>
#include <string>

#include "methods/linear/linear_method.hpp"

namespace drbench {

struct PcaBasis {
  arma::vec mean;       // d
  arma::mat W;          // d x k orthonormal principal directions, variance descending
  arma::vec variances;  // k eigenvalues of the covariance (1/(n-1) normalisation, as sklearn)
  double total_variance = 0.0;  // trace of the covariance: sum over all d eigenvalues
};

// Top-k principal directions of the columns of X (d x n). Uses the d x d covariance when d <= n
// and a thin SVD of the centred data otherwise, so the cost is min(d, n)^2 max(d, n).
PcaBasis pca_basis(const arma::mat& X, arma::uword k);

// All directions with positive variance, truncated to the fewest that keep `ratio` (0, 1] of the
// total variance (ratio = 1 keeps the whole numerical rank): the pre-step LPP/GPLRF papers use.
PcaBasis pca_basis_ratio(const arma::mat& X, double ratio);

// The PCA pre-step of the graph-based projections: basis from pca_basis_ratio and the reduced
// centred data Z = W^T (X - mean). Throws, naming 'dims' and 'pca_ratio', when fewer than `dim`
// directions survive.
struct PcaReduced {
  PcaBasis basis;
  arma::mat Z;  // r x n
};
PcaReduced pca_reduce(const arma::mat& X, double ratio, arma::uword dim, const std::string& method);

class Pca final : public LinearMethod {
 public:
  Pca() : LinearMethod("pca") {}
  void fit(const FitInput& in) override;
  const PcaBasis& basis() const { return basis_; }

 private:
  PcaBasis basis_;
};

}  // namespace drbench
