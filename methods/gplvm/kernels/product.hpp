#pragma once
// Product of two kernels (GPy's Prod): K = K1 .* K2. Each factor's gradient is taken with the
// other factor's matrix folded into dL/dK, so the factors need nothing beyond the Kernel interface.
#include "methods/gplvm/kernels/kernel.hpp"

namespace drbench {

class ProductKernel final : public Kernel {
 public:
  ProductKernel(std::unique_ptr<Kernel> a, std::unique_ptr<Kernel> b);
  ProductKernel(const ProductKernel& o) : Kernel(o), a_(o.a_->clone()), b_(o.b_->clone()) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<ProductKernel>(*this); }
  std::string name() const override { return a_->name() + "*" + b_->name(); }

  arma::uword n_params() const override { return a_->n_params() + b_->n_params(); }
  arma::vec params() const override { return arma::join_cols(a_->params(), b_->params()); }
  void set_params(const arma::vec& log_values) override;
  std::vector<std::string> param_names() const override;

  arma::mat K(const arma::mat& X, const arma::mat& X2) const override {
    return a_->K(X, X2) % b_->K(X, X2);
  }
  void cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                       arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const override;
  // A factor's K(X) may differ from its K(X, X) (white noise), so the symmetric case has its own.
  arma::mat K(const arma::mat& X) const override { return a_->K(X) % b_->K(X); }
  void gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                 arma::mat& g_X) const override;
  arma::vec diag(const arma::mat& X) const override { return a_->diag(X) % b_->diag(X); }
  void fix_inputs(const arma::mat& X) override {
    a_->fix_inputs(X);
    b_->fix_inputs(X);
  }

 private:
  std::unique_ptr<Kernel> a_, b_;
};

}  // namespace drbench
