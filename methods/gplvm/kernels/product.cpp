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

void ProductKernel::gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                              arma::mat& g_X) const {
  arma::vec ga, gb;
  arma::mat xa, xb;
  a_->gradients(X, G % b_->K(X), ga, xa);
  b_->gradients(X, G % a_->K(X), gb, xb);
  g_params = arma::join_cols(ga, gb);
  g_X = xa + xb;
}

void ProductKernel::cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                                    arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const {
  arma::vec ga, gb;
  arma::mat xa, xb, x2a, x2b;
  a_->cross_gradients(X, X2, G % b_->K(X, X2), ga, xa, g_X2 ? &x2a : nullptr);
  b_->cross_gradients(X, X2, G % a_->K(X, X2), gb, xb, g_X2 ? &x2b : nullptr);
  g_params = arma::join_cols(ga, gb);
  g_X = xa + xb;
  if (g_X2) *g_X2 = x2a + x2b;
}

}  // namespace drbench
