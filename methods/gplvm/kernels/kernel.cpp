#include "methods/gplvm/kernels/kernel.hpp"

#include <algorithm>

#include "framework/core/error.hpp"
#include "methods/gplvm/kernels/bias.hpp"
#include "methods/gplvm/kernels/linear.hpp"
#include "methods/gplvm/kernels/mlp.hpp"
#include "methods/gplvm/kernels/poly.hpp"
#include "methods/gplvm/kernels/product.hpp"
#include "methods/gplvm/kernels/rbf.hpp"
#include "methods/gplvm/kernels/stationary.hpp"
#include "methods/gplvm/kernels/sum.hpp"
#include "methods/gplvm/kernels/white.hpp"
#include "methods/gplvm/symmetric.hpp"

namespace drbench {

void Kernel::gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                       arma::mat& g_X) const {
  arma::mat g_X2;
  cross_gradients(X, X, G, g_params, g_X, &g_X2);
  g_X += g_X2;
}

arma::vec Kernel::diag(const arma::mat& X) const {
  arma::vec out(X.n_cols);
  for (arma::uword i = 0; i < X.n_cols; ++i) out(i) = K(X.col(i))(0, 0);
  return out;
}

void Kernel::diag_gradients(const arma::mat& X, const arma::vec& g, arma::vec& g_params,
                            arma::mat& g_X) const {
  g_params.zeros(n_params());
  g_X.set_size(X.n_rows, X.n_cols);
  arma::vec gp;
  arma::mat gx;
  for (arma::uword i = 0; i < X.n_cols; ++i) {
    gradients(X.col(i), arma::mat(1, 1, arma::fill::value(g(i))), gp, gx);
    g_params += gp;
    g_X.col(i) = gx;
  }
}

namespace {

// Both outputs of a gradient call, for the accessors below that each keep one of them.
struct GradientOutputs {
  arma::vec params;
  arma::mat X;
};

template <class Call>
GradientOutputs outputs_of(Call&& call) {
  GradientOutputs o;
  call(o.params, o.X);
  return o;
}

}  // namespace

arma::vec Kernel::grad_params(const arma::mat& X, const arma::mat& G) const {
  return outputs_of([&](arma::vec& gp, arma::mat& gx) { gradients(X, G, gp, gx); }).params;
}

arma::mat Kernel::grad_X(const arma::mat& X, const arma::mat& G) const {
  return outputs_of([&](arma::vec& gp, arma::mat& gx) { gradients(X, G, gp, gx); }).X;
}

arma::mat Kernel::grad_X_cross(const arma::mat& X, const arma::mat& X2, const arma::mat& G) const {
  return outputs_of(
             [&](arma::vec& gp, arma::mat& gx) { cross_gradients(X, X2, G, gp, gx, nullptr); })
      .X;
}

arma::mat Kernel::grad_X_diag(const arma::mat& X, const arma::vec& g) const {
  return outputs_of([&](arma::vec& gp, arma::mat& gx) { diag_gradients(X, g, gp, gx); }).X;
}

arma::vec Kernel::grad_params_diag(const arma::mat& X, const arma::vec& g) const {
  return outputs_of([&](arma::vec& gp, arma::mat& gx) { diag_gradients(X, g, gp, gx); }).params;
}

arma::vec Kernel::noise_variance_grad() const {
  arma::vec g;
  noise(&g);
  return g;
}

void upper_K_of(const Kernel& k, const arma::mat& X, const UpperFill& fill, arma::mat& K) {
  if (const auto* t = dynamic_cast<const TrianglePath*>(&k))
    t->upper_K(X, fill, K);
  else
    upper_K_from_full(k, X, fill, K);
}

void upper_K_from_full(const Kernel& k, const arma::mat& X, const UpperFill& fill, arma::mat& K) {
  const arma::mat Kx = k.K(X);
  for (arma::uword j = 0; j < K.n_cols; ++j) {
    double* out = K.colptr(j);
    const double* kx = Kx.colptr(j);
    for (arma::uword i = 0; i <= j; ++i)
      out[i] = (fill.overwrite ? fill.every_pair : out[i] + fill.every_pair) + kx[i];
    out[j] += fill.same_point;
  }
}

void upper_gradients_of(const Kernel& k, const arma::mat& X, arma::mat& G, arma::vec& g_params,
                        arma::mat& g_X, UpperSums* sums) {
  if (const auto* t = dynamic_cast<const TrianglePath*>(&k))
    t->upper_gradients(X, G, g_params, g_X, sums);
  else
    upper_gradients_from_full(k, X, G, g_params, g_X);
}

void upper_gradients_from_full(const Kernel& k, const arma::mat& X, arma::mat& G,
                               arma::vec& g_params, arma::mat& g_X) {
  symmetric::mirror_upper(G);
  k.gradients(X, G, g_params, g_X);
}

bool static_share_of(const Kernel& k, double& every_pair, double& same_point) {
  const auto* t = dynamic_cast<const TrianglePath*>(&k);
  return t && t->static_share(every_pair, same_point);
}

KernelWithParams::KernelWithParams(std::vector<std::string> names, const arma::vec& values)
    : names_(std::move(names)) {
  if (names_.size() != values.n_elem || arma::any(values <= 0))
    throw Error("internal: kernel hyperparameters must be positive, one per name");
  set_params(arma::log(values));
}

void KernelWithParams::set_params(const arma::vec& log_values) {
  if (log_values.n_elem != names_.size())
    throw Error("internal: kernel " + name() + " expects " + std::to_string(names_.size()) +
                " parameters, got " + std::to_string(log_values.n_elem));
  log_ = log_values;
  val_ = arma::exp(log_);
}

std::vector<std::string> KernelWithParams::param_names() const {
  std::vector<std::string> out;
  for (const auto& n : names_) out.push_back(name() + "." + n);
  return out;
}

namespace {

// The kernel registry: every name a kernel spec may use, with its factory. A covariance says how
// latent points relate; a static part (bias, white) does not look at them, and the GP-LVM models
// add both to their covariance (make_gp_kernel), so a method's `kernel` parameter never names them.
struct KernelEntry {
  const char* name;
  bool covariance;
  std::unique_ptr<Kernel> (*make)();
};

template <class K>
std::unique_ptr<Kernel> make_default() {
  return std::make_unique<K>();
}

const std::vector<KernelEntry>& kernel_table() {
  static const std::vector<KernelEntry> t = {
      {"rbf", true, make_default<RbfKernel>},
      {"matern32", true, make_default<Matern32Kernel>},
      {"matern52", true, make_default<Matern52Kernel>},
      {"linear", true, make_default<LinearKernel>},
      {"poly", true, make_default<PolyKernel>},
      {"mlp", true, make_default<MlpKernel>},
      {"bias", false, make_default<BiasKernel>},
      {"white", false, make_default<WhiteKernel>},
  };
  return t;
}

std::unique_ptr<Kernel> make_part(const std::string& p, const std::string& spec) {
  std::string known;
  for (const auto& e : kernel_table()) {
    if (p == e.name) return e.make();
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  }
  throw Error("unknown kernel '" + p + "' in '" + spec + "' (known: " + known +
              "; combine with '+' and '*')");
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

// The terms of a sum of products, '*' binding tighter than '+': "rbf*linear+white" is
// (rbf*linear) + white.
std::vector<std::unique_ptr<Kernel>> kernel_terms(const std::string& spec) {
  std::vector<std::unique_ptr<Kernel>> terms;
  for (const auto& term : split(spec, '+')) {
    std::unique_ptr<Kernel> k;
    for (const auto& factor : split(term, '*')) {
      auto f = make_part(factor, spec);
      k = k ? std::make_unique<ProductKernel>(std::move(k), std::move(f)) : std::move(f);
    }
    terms.push_back(std::move(k));
  }
  return terms;
}

}  // namespace

std::vector<std::string> covariance_kernel_names() {
  std::vector<std::string> out;
  for (const auto& e : kernel_table())
    if (e.covariance) out.push_back(e.name);
  return out;
}

std::unique_ptr<Kernel> make_kernel(const std::string& spec) {
  auto terms = kernel_terms(spec);
  if (terms.size() == 1) return std::move(terms.front());
  return std::make_unique<SumKernel>(std::move(terms));
}

std::unique_ptr<Kernel> make_gp_kernel(const std::string& covariance) {
  // One flat sum, the same parts in the same order as the spec "<covariance>+bias+white" builds,
  // so the hyperparameter vector and the arithmetic are those of that spec.
  auto parts = kernel_terms(covariance);
  parts.push_back(std::make_unique<BiasKernel>());
  parts.push_back(std::make_unique<WhiteKernel>());
  return std::make_unique<SumKernel>(std::move(parts));
}

}  // namespace drbench
