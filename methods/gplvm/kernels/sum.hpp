#pragma once
// Sum of kernels (GPy's Add): matrices and X-gradients add, hyperparameters concatenate in the
// order the parts were given.
#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/kernels/matrix_calls.hpp"

namespace drbench {

class SumKernel final : public Kernel, public TrianglePath {
 public:
  explicit SumKernel(std::vector<std::unique_ptr<Kernel>> parts);
  SumKernel(const SumKernel& other);
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<SumKernel>(*this); }
  std::string name() const override;

  arma::uword n_params() const override;
  arma::vec params() const override;
  void set_params(const arma::vec& log_values) override;
  std::vector<std::string> param_names() const override;

  DRBENCH_KERNEL_MATRIX_CALLS;
  arma::mat cross_K(const arma::mat& X, const arma::mat& X2) const override;
  double noise(arma::vec* grad) const override;
  arma::vec sparse_diag(const arma::mat& X, const arma::mat& Z) const override;
  void sparse_diag_gradients(const arma::mat& X, const arma::mat& Z, const arma::vec& g,
                             arma::vec& g_params, arma::mat& g_X, arma::mat& g_Z) const override;
  // One triangle: the static parts (bias, white) are folded into the first other part's passes
  // over K and G, so that they cost none of their own; a part without a TrianglePath takes the
  // full-matrix calls.
  void upper_K(const arma::mat& X, const UpperFill& fill, arma::mat& K) const override;
  void upper_gradients(const arma::mat& X, arma::mat& G, arma::vec& g_params, arma::mat& g_X,
                       UpperSums* sums) const override;
  void fix_inputs(const arma::mat& X) override {
    for (auto& p : parts_) p->fix_inputs(X);
  }

  std::size_t size() const { return parts_.size(); }
  const Kernel& part(std::size_t i) const { return *parts_.at(i); }

 private:
  std::vector<std::unique_ptr<Kernel>> parts_;
};

}  // namespace drbench
