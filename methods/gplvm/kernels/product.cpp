#include "methods/gplvm/kernels/product.hpp"

#include "framework/core/error.hpp"

namespace drbench {

ProductKernel::ProductKernel(std::unique_ptr<Kernel> a, std::unique_ptr<Kernel> b)
    : a_(std::move(a)), b_(std::move(b)) {
  if (!a_ || !b_) throw Error("internal: a product kernel needs two factors");
}

void ProductKernel::set_params(const arma::vec& p) {
  const arma::uword na = a_->n_params(), nb = b_->n_params();
  if (p.n_elem != na + nb)
    throw Error("internal: kernel " + name() + " expects " + std::to_string(na + nb) +
                " parameters, got " + std::to_string(p.n_elem));
  if (na) a_->set_params(p.head(na));
  if (nb) b_->set_params(p.tail(nb));
}

std::vector<std::string> ProductKernel::param_names() const {
  std::vector<std::string> out = a_->param_names();
  for (auto& n : b_->param_names()) out.push_back(n);
  return out;
}

arma::vec ProductKernel::grad_params(const arma::mat& X, const arma::mat& G) const {
  return arma::join_cols(a_->grad_params(X, G % b_->K(X)), b_->grad_params(X, G % a_->K(X)));
}

arma::mat ProductKernel::grad_X(const arma::mat& X, const arma::mat& G) const {
  return a_->grad_X(X, G % b_->K(X)) + b_->grad_X(X, G % a_->K(X));
}

arma::mat ProductKernel::grad_X_cross(const arma::mat& X, const arma::mat& X2,
                                      const arma::mat& G) const {
  return a_->grad_X_cross(X, X2, G % b_->K(X, X2)) + b_->grad_X_cross(X, X2, G % a_->K(X, X2));
}

arma::mat ProductKernel::grad_X_diag(const arma::mat& X, const arma::vec& g) const {
  return a_->grad_X_diag(X, g % b_->diag(X)) + b_->grad_X_diag(X, g % a_->diag(X));
}

}  // namespace drbench
