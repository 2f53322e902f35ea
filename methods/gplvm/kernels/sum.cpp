#include "methods/gplvm/kernels/sum.hpp"

#include <vector>

#include "framework/core/error.hpp"
#include "methods/gplvm/symmetric.hpp"

namespace drbench {

SumKernel::SumKernel(std::vector<std::unique_ptr<Kernel>> parts) : parts_(std::move(parts)) {
  if (parts_.empty()) throw Error("internal: a sum kernel needs at least one part");
}

SumKernel::SumKernel(const SumKernel& other) : Kernel(other), TrianglePath(other) {
  for (const auto& p : other.parts_) parts_.push_back(p->clone());
}

std::string SumKernel::name() const {
  std::string s;
  for (const auto& p : parts_) s += (s.empty() ? "" : "+") + p->name();
  return s;
}

arma::uword SumKernel::n_params() const {
  arma::uword n = 0;
  for (const auto& p : parts_) n += p->n_params();
  return n;
}

arma::vec SumKernel::params() const {
  arma::vec out;
  for (const auto& p : parts_) out = arma::join_cols(out, p->params());
  return out;
}

void SumKernel::set_params(const arma::vec& log_values) {
  if (log_values.n_elem != n_params())
    throw Error("internal: kernel " + name() + " expects " + std::to_string(n_params()) +
                " parameters, got " + std::to_string(log_values.n_elem));
  arma::uword at = 0;
  for (auto& p : parts_) {
    const arma::uword k = p->n_params();
    if (k) p->set_params(log_values.subvec(at, at + k - 1));
    at += k;
  }
}

std::vector<std::string> SumKernel::param_names() const {
  std::vector<std::string> out;
  for (const auto& p : parts_)
    for (auto& n : p->param_names()) out.push_back(n);
  return out;
}

arma::mat SumKernel::K(const arma::mat& X) const {
  arma::mat k = parts_[0]->K(X);
  for (std::size_t i = 1; i < parts_.size(); ++i) k += parts_[i]->K(X);
  return k;
}

arma::mat SumKernel::K(const arma::mat& X, const arma::mat& X2) const {
  arma::mat k = parts_[0]->K(X, X2);
  for (std::size_t i = 1; i < parts_.size(); ++i) k += parts_[i]->K(X, X2);
  return k;
}

arma::vec SumKernel::diag(const arma::mat& X) const {
  arma::vec k = parts_[0]->diag(X);
  for (std::size_t i = 1; i < parts_.size(); ++i) k += parts_[i]->diag(X);
  return k;
}

namespace {

// The parts' parameter gradients stacked in order and their input gradients summed; part(k, gp,
// gx) computes one part's.
template <class Part>
void stack_part_gradients(const std::vector<std::unique_ptr<Kernel>>& parts, const arma::mat& X,
                          arma::vec& g_params, arma::mat& g_X, Part part) {
  g_params.reset();
  g_X.zeros(X.n_rows, X.n_cols);
  arma::vec gp;
  arma::mat gx;
  for (const auto& p : parts) {
    part(*p, gp, gx);
    g_params = arma::join_cols(g_params, gp);
    g_X += gx;
  }
}

}  // namespace

void SumKernel::gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                          arma::mat& g_X) const {
  stack_part_gradients(
      parts_, X, g_params, g_X,
      [&](const Kernel& k, arma::vec& gp, arma::mat& gx) { k.gradients(X, G, gp, gx); });
}

namespace {

bool is_static(const Kernel& k) {
  double e = 0.0, s = 0.0;
  return static_share_of(k, e, s);
}

}  // namespace

void SumKernel::upper_K(const arma::mat& X, const UpperFill& fill, arma::mat& K) const {
  UpperFill first = fill;
  std::vector<const Kernel*> others;
  for (const auto& p : parts_)
    if (!static_share_of(*p, first.every_pair, first.same_point)) others.push_back(p.get());
  if (others.empty()) {
    symmetric::fill_upper(K, first.overwrite, first.every_pair, first.same_point);
    return;
  }
  upper_K_of(*others.front(), X, first, K);
  for (std::size_t i = 1; i < others.size(); ++i) upper_K_of(*others[i], X, UpperFill{false}, K);
}

void SumKernel::upper_gradients(const arma::mat& X, arma::mat& G, arma::vec& g_params,
                                arma::mat& g_X, UpperSums* sums) const {
  // The other parts first: the first of them reads G and can take its sums on the way.
  UpperSums own;
  bool any_static = false;
  for (const auto& p : parts_) any_static = any_static || is_static(*p);
  UpperSums* s = any_static && !sums ? &own : sums;
  std::vector<arma::vec> gp(parts_.size());
  g_X.zeros(X.n_rows, X.n_cols);
  arma::mat gx;
  for (bool statics : {false, true}) {
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      if (is_static(*parts_[i]) != statics) continue;
      upper_gradients_of(*parts_[i], X, G, gp[i], gx, s);
      if (!statics) g_X += gx;
    }
  }
  g_params.reset();
  for (const auto& g : gp) g_params = arma::join_cols(g_params, g);
}

arma::mat SumKernel::cross_K(const arma::mat& X, const arma::mat& X2) const {
  // Static parts as one constant (a bias covaries across distinct points, white noise never
  // does): no n x m matrix of their own, the same sums as K(X, X2). With one other part, that
  // part adds the constant in its own pass.
  double every = 0.0, same = 0.0;
  std::vector<const Kernel*> others;
  for (const auto& p : parts_)
    if (!static_share_of(*p, every, same)) others.push_back(p.get());
  if (others.empty()) return K(X, X2);
  if (others.size() == 1) return others.front()->cross_K_plus(X, X2, every);
  arma::mat k = others.front()->cross_K(X, X2);
  for (std::size_t i = 1; i < others.size(); ++i) k += others[i]->cross_K(X, X2);
  if (every != 0.0) k += every;
  return k;
}

void SumKernel::cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                                arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const {
  g_params.reset();
  g_X.zeros(X.n_rows, X.n_cols);
  if (g_X2) g_X2->zeros(X2.n_rows, X2.n_cols);
  arma::vec gp;
  arma::mat gx, gx2;
  for (const auto& p : parts_) {
    p->cross_gradients(X, X2, G, gp, gx, g_X2 ? &gx2 : nullptr);
    g_params = arma::join_cols(g_params, gp);
    g_X += gx;
    if (g_X2) *g_X2 += gx2;
  }
}

void SumKernel::diag_gradients(const arma::mat& X, const arma::vec& g, arma::vec& g_params,
                               arma::mat& g_X) const {
  stack_part_gradients(
      parts_, X, g_params, g_X,
      [&](const Kernel& k, arma::vec& gp, arma::mat& gx) { k.diag_gradients(X, g, gp, gx); });
}

arma::vec SumKernel::sparse_diag(const arma::mat& X, const arma::mat& Z) const {
  arma::vec k = parts_[0]->sparse_diag(X, Z);
  for (std::size_t i = 1; i < parts_.size(); ++i) k += parts_[i]->sparse_diag(X, Z);
  return k;
}

void SumKernel::sparse_diag_gradients(const arma::mat& X, const arma::mat& Z, const arma::vec& g,
                                      arma::vec& g_params, arma::mat& g_X, arma::mat& g_Z) const {
  g_params.reset();
  g_X.zeros(X.n_rows, X.n_cols);
  arma::vec gp;
  arma::mat gx;
  for (const auto& p : parts_) {
    p->sparse_diag_gradients(X, Z, g, gp, gx, g_Z);
    g_params = arma::join_cols(g_params, gp);
    g_X += gx;
  }
}

double SumKernel::noise(arma::vec* grad) const {
  double v = 0.0;
  if (grad) grad->reset();
  arma::vec g;
  for (const auto& p : parts_) {
    v += p->noise(grad ? &g : nullptr);
    if (grad) *grad = arma::join_cols(*grad, g);
  }
  return v;
}

}  // namespace drbench
