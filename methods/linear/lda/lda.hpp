#pragma once
// Fisher linear discriminant analysis: directions maximising between-class over within-class
// scatter, S_b w = lambda S_w w. A relative ridge on S_w (`reg`) covers the small-sample case
// (n - C < d) where S_w is singular.
#include <armadillo>

#include "methods/common/linear_method.hpp"

namespace drbench {

// Within- and between-class scatter of the columns of X: S_w = sum_c sum_{i in c} (x_i - m_c)
// (x_i - m_c)^T, S_b = sum_c n_c (m_c - m)(m_c - m)^T. Shared with the other discriminant methods.
struct Scatter {
  arma::mat Sw, Sb;
  arma::mat class_means;  // d x C
  arma::vec mean;
  arma::uvec counts;
};
Scatter class_scatter(const arma::mat& X, const arma::uvec& labels, std::size_t n_classes);

class Lda final : public LinearMethod {
 public:
  explicit Lda(double reg) : LinearMethod("lda"), reg_(reg) {}
  void fit(const FitInput& in) override;
  const arma::vec& fisher_values() const { return values_; }

 private:
  double reg_;
  arma::vec values_;
};

}  // namespace drbench
