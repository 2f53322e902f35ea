#include "methods/gplvm/objective.hpp"

#include <sstream>

#include "framework/core/error.hpp"
#include "methods/gplvm/likelihood.hpp"
#include "methods/gplvm/symmetric.hpp"

namespace drbench {

GplvmObjective::GplvmObjective(const arma::mat& Y, std::unique_ptr<Kernel> kernel, arma::uword q)
    : Yt_(Y.t()), kernel_(std::move(kernel)), q_(q) {
  if (!kernel_) throw Error("internal: GplvmObjective needs a kernel");
  if (q == 0) throw MethodError("gplvm: latent dimension must be at least 1");
}

arma::uword GplvmObjective::n_latent_params() const {
  return bc_ ? bc_->params().n_elem : q_ * Yt_.n_rows;
}

arma::uword GplvmObjective::n_inducing_params() const {
  return approx_ != GpApproximation::exact && learn_inducing_ ? Z_.n_elem : 0;
}

void GplvmObjective::set_sparse(GpApproximation a, const arma::mat& Z0, bool learn_inducing,
                                double jitter) {
  if (a != GpApproximation::exact && (Z0.n_rows != q_ || Z0.n_cols == 0))
    throw Error("internal: inducing inputs must be a q x m matrix with m >= 1");
  if (!(jitter >= 0.0)) throw Error("internal: the inducing jitter must be >= 0");
  approx_ = a;
  Z_ = Z0;
  learn_inducing_ = learn_inducing;
  inducing_jitter_ = jitter;
}

arma::mat GplvmObjective::inducing_covariance() const {
  arma::mat Kuu = kernel_->K(Z_, Z_);
  add_inducing_jitter(Kuu, inducing_jitter_);
  return Kuu;
}

arma::uword GplvmObjective::n_tuned_params() const {
  arma::uword n = 0;
  for (const auto& p : tuned_) n += p->n_params();
  return n;
}

arma::vec GplvmObjective::pack(const arma::mat& X) const {
  arma::vec lat;
  if (bc_) {
    lat = bc_->params();
  } else {
    if (X.n_rows != q_ || X.n_cols != Yt_.n_rows)
      throw Error("internal: GplvmObjective::pack expects a " + std::to_string(q_) + " x " +
                  std::to_string(Yt_.n_rows) + " latent matrix");
    lat = arma::vectorise(X);
  }
  if (n_inducing_params()) lat = arma::join_cols(lat, arma::vectorise(Z_));
  arma::vec out = learn_kernel_ ? arma::vec(arma::join_cols(lat, kernel_->params())) : lat;
  for (const auto& p : tuned_) out = arma::join_cols(out, p->params());
  return out;
}

arma::mat GplvmObjective::unpack(const arma::vec& x) {
  const arma::uword nl = n_latent_params(), nz = n_inducing_params();
  const arma::uword nk = learn_kernel_ ? kernel_->n_params() : 0;
  const arma::uword nt = n_tuned_params();
  if (x.n_elem != nl + nz + nk + nt)
    throw Error("internal: GplvmObjective expects " + std::to_string(nl + nz + nk + nt) +
                " parameters, got " + std::to_string(x.n_elem));
  if (nz) Z_ = arma::reshape(x.subvec(nl, nl + nz - 1), q_, Z_.n_cols);
  if (nk) kernel_->set_params(x.subvec(nl + nz, nl + nz + nk - 1));
  arma::uword at = nl + nz + nk;
  for (auto& p : tuned_) {
    const arma::uword k = p->n_params();
    if (k) p->set_params(x.subvec(at, at + k - 1));
    at += k;
  }
  if (bc_) {
    bc_->set_params(x.head(nl));
    return bc_->latent();
  }
  return arma::reshape(x.head(nl), q_, Yt_.n_rows);
}

double GplvmObjective::sparse_evaluate(const arma::mat& X, bool with_grad, arma::mat& gX,
                                       arma::vec& gtheta) {
  const Kernel& k = *kernel_;
  const arma::mat Kuu = inducing_covariance();
  const arma::vec dg = k.sparse_diag(X, Z_);
  // K_fu moved in: the likelihood solves in its storage. Its result and work array are members,
  // so an evaluation allocates no n x m array but the kernel's K_fu.
  SparseGpResult& r = sparse_result_;
  sparse_gp_neg_log_likelihood(approx_, Kuu, k.cross_K(X, Z_), dg, k.noise_variance(), Yt_,
                               with_grad, sparse_work_, r);
  last_jitter_ = r.jitter;
  if (!with_grad || !std::isfinite(r.value)) return r.value;
  // Kuu = K(Z, Z) moves with Z in both arguments; Kfu with X in the first, Z in the second.
  chain_inducing_jitter(r.dKuu, inducing_jitter_);
  arma::vec gp;
  arma::mat gZa, gZb;
  k.cross_gradients(X, Z_, r.dKfu, gtheta, gX, &gZ_);
  k.cross_gradients(Z_, Z_, r.dKuu, gp, gZa, &gZb);
  gtheta += gp;
  gZ_ += gZa + gZb;
  if (approx_ != GpApproximation::dtc) {
    arma::vec gpd;
    arma::mat gXd;
    // A kernel with knots at Z (thin-plate) adds the diagonal's Z-gradient to gZ_.
    k.sparse_diag_gradients(X, Z_, r.ddiag, gpd, gXd, gZ_);
    gtheta += gpd;
    gX += gXd;
  }
  arma::vec gnoise;
  k.noise(&gnoise);
  gtheta += r.dsigma2 * gnoise;
  return r.value;
}

double GplvmObjective::evaluate(const arma::vec& x, arma::vec* grad) {
  const arma::mat X = unpack(x);
  arma::mat gX;
  arma::vec gtheta;
  GpNllValue r;
  if (approx_ != GpApproximation::exact) {
    r.value = sparse_evaluate(X, grad != nullptr, gX, gtheta);
    r.jitter = last_jitter_;
  } else {
    // KG_ holds K, then dL/dK: one N x N buffer kept across evaluations (see likelihood.hpp), of
    // which only the upper triangle is built and read.
    symmetric::ensure_size(KG_, Yt_.n_rows);
    auto build_K = [&](arma::mat& K) { upper_K_of(*kernel_, X, UpperFill{}, K); };
    build_K(KG_);
    r = gp_neg_log_likelihood_in_place(KG_, Yt_, KinvY_, grad != nullptr, build_K, false);
    if (grad && std::isfinite(r.value)) upper_gradients_of(*kernel_, X, KG_, gtheta, gX, nullptr);
  }
  if (r.jitter > 0) {
    ++jitter_events_;
    if (r.jitter > max_jitter_) {
      max_jitter_ = r.jitter;
      if (trace_) {
        std::ostringstream os;
        os << r.jitter;
        trace_->note("jitter", os.str());
      }
    }
  }
  double f = r.value;
  if (!std::isfinite(f)) {
    if (grad) grad->zeros(x.n_elem);
    return f;
  }
  arma::mat gp;
  for (const auto& p : priors_) {
    f += p->value_grad(X, grad ? &gp : nullptr);
    if (grad) gX += gp;
  }
  arma::vec gtuned, gt;
  for (const auto& p : tuned_) {
    f += p->value_grad_params(X, grad ? &gp : nullptr, grad ? &gt : nullptr);
    if (grad) {
      gX += gp;
      gtuned = arma::join_cols(gtuned, gt);
    }
  }
  if (grad) {
    arma::vec glat = bc_ ? bc_->chain(gX) : arma::vectorise(gX);
    if (n_inducing_params()) glat = arma::join_cols(glat, arma::vectorise(gZ_));
    *grad = learn_kernel_ ? arma::vec(arma::join_cols(glat, gtheta)) : glat;
    *grad = arma::join_cols(*grad, gtuned);
  }
  return f;
}

}  // namespace drbench
