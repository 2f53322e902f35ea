#pragma once
// Factor analysis (Bishop 2006, section 12.2.4): x = W z + mu + e, z ~ N(0, I), e ~ N(0, Psi) with
// Psi diagonal, fitted by maximum likelihood with Barber's SVD iteration (Bayesian Reasoning and
// Machine Learning, algorithm 21.1; scikit-learn's FactorAnalysis, svd_method='lapack'): for the
// current Psi the best W comes from the SVD of Psi^-1/2 (X - mu) / sqrt(n), then Psi is the
// variance W leaves unexplained, until the log-likelihood gains less than `tolerance`. A point,
// training or new, maps to its posterior mean E[z | x] = (I + W Psi^-1 W')^-1 W Psi^-1 (x - mu),
// a linear map.
#include <armadillo>

#include "methods/common/linear_method.hpp"

namespace drbench {

struct FactorAnalysisSetting {
  arma::uword iterations = 1000;
  double tolerance = 1e-2;  // on the log-likelihood, as scikit-learn's tol
};

class FactorAnalysis final : public LinearMethod {
 public:
  explicit FactorAnalysis(const FactorAnalysisSetting& s)
      : LinearMethod("factor_analysis"), s_(s) {}
  void fit(const FitInput& in) override;
  const arma::mat& loadings() const { return W_; }          // dim x d
  const arma::vec& noise_variance() const { return psi_; }  // d
  double log_likelihood() const { return ll_; }

 private:
  FactorAnalysisSetting s_;
  arma::mat W_;
  arma::vec psi_;
  double ll_ = 0;
};

}  // namespace drbench
