#include "methods/gplvm/priors/dynamics.hpp"

#include <map>

#include "framework/core/error.hpp"
#include "methods/gplvm/kernels/rbf.hpp"
#include "methods/gplvm/kernels/sum.hpp"
#include "methods/gplvm/kernels/white.hpp"
#include "methods/gplvm/likelihood.hpp"

namespace drbench {

GpDynamicsPrior::GpDynamicsPrior(std::vector<arma::uvec> sequences, GpDynamicsSettings s) : s_(s) {
  if (!(s.inv_width > 0) || !(s.variance > 0) || !(s.white > 0) || !(s.first_precision >= 0))
    throw MethodError("gp dynamics: inverse width, variance and white must be > 0");
  std::vector<arma::uword> in, out, first;
  for (const auto& seq : sequences) {
    if (seq.is_empty()) continue;
    first.push_back(seq(0));
    for (arma::uword t = 1; t < seq.n_elem; ++t) {
      in.push_back(seq(t - 1));
      out.push_back(seq(t));
    }
  }
  in_ = arma::uvec(in);
  out_ = arma::uvec(out);
  first_ = arma::uvec(first);
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::make_unique<RbfKernel>(s.variance, s.inv_width));
  parts.push_back(std::make_unique<WhiteKernel>(s.white));
  kern_ = std::make_unique<SumKernel>(std::move(parts));
}

GpDynamicsPrior::GpDynamicsPrior(const GpDynamicsPrior& other)
    : TunablePrior(other),
      s_(other.s_),
      in_(other.in_),
      out_(other.out_),
      first_(other.first_),
      kern_(other.kern_->clone()) {}

double GpDynamicsPrior::value_grad_params(const arma::mat& X, arma::mat* gX, arma::vec* gp) const {
  if (gX) gX->zeros(X.n_rows, X.n_cols);
  if (gp) gp->zeros(kern_->n_params());
  const arma::mat F = X.cols(first_);
  double f = 0.5 * s_.first_precision * arma::accu(arma::square(F));
  if (gX)
    for (arma::uword i = 0; i < first_.n_elem; ++i)
      gX->col(first_(i)) += s_.first_precision * F.col(i);
  if (in_.is_empty()) return f;

  const arma::mat Xin = X.cols(in_);
  arma::mat Xout = X.cols(out_);
  if (s_.differences) Xout -= Xin;
  const GpNllResult r = gp_neg_log_likelihood(kern_->K(Xin), Xout.t(), gX || gp);
  if (!std::isfinite(r.value)) return r.value;
  f += r.value;
  arma::vec g_theta;
  arma::mat g_in;  // through Kx
  if (gX || gp) kern_->gradients(Xin, r.dK, g_theta, g_in);
  if (gX) {
    const arma::mat g_out = r.KinvY.t();  // dL/dXout = (Kx^-1 Xout^T)^T
    for (arma::uword t = 0; t < in_.n_elem; ++t) {
      gX->col(in_(t)) += g_in.col(t);
      gX->col(out_(t)) += g_out.col(t);
      if (s_.differences) gX->col(in_(t)) -= g_out.col(t);
    }
  }
  if (gp) *gp = g_theta;
  return f;
}

std::vector<arma::uvec> sequences_from_ids(const arma::uvec& ids) {
  std::map<arma::uword, std::vector<arma::uword>> by_id;
  std::vector<arma::uword> order;  // ids in order of first appearance
  for (arma::uword i = 0; i < ids.n_elem; ++i) {
    auto& v = by_id[ids(i)];
    if (v.empty()) order.push_back(ids(i));
    v.push_back(i);
  }
  std::vector<arma::uvec> out;
  for (const auto id : order) out.push_back(arma::uvec(by_id[id]));
  return out;
}

}  // namespace drbench
