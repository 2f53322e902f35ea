#pragma once
// The GP-LVM training objective as a drbench::Objective: negative log-likelihood (likelihood.hpp)
// plus any latent priors, over the stacked parameter vector
//   [ vec(X) (q*n, column-major)  or  back-constraint parameters ;  vec(Z) (q*m, when a sparse
//     likelihood learns its inducing inputs) ;  kernel log-hyperparameters ;
//     each tuned prior's log-hyperparameters ].
// With a sparse approximation (sparse.hpp) no n x n matrix is formed: the priors act on X alone.
#include <armadillo>
#include <memory>
#include <vector>

#include "framework/core/trace.hpp"
#include "framework/optim/objective.hpp"
#include "methods/gplvm/back_constraint.hpp"
#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/prior.hpp"
#include "methods/gplvm/sparse.hpp"

namespace drbench {

class GplvmObjective final : public Objective {
 public:
  // Y is d x n (one column per point), used as given (centre it first: the model has no mean).
  GplvmObjective(const arma::mat& Y, std::unique_ptr<Kernel> kernel, arma::uword q);

  void add_prior(std::shared_ptr<const LatentPrior> prior) { priors_.push_back(std::move(prior)); }
  // A prior whose hyperparameters are learnt with X (their block follows the kernel's).
  void add_tuned_prior(std::shared_ptr<TunablePrior> prior) { tuned_.push_back(std::move(prior)); }
  // With a back-constraint the latent block of the parameter vector holds its parameters.
  void set_back_constraint(std::shared_ptr<BackConstraint> bc) { bc_ = std::move(bc); }
  // false: the kernel hyperparameters are held fixed and left out of the parameter vector.
  void set_learn_kernel(bool learn) { learn_kernel_ = learn; }
  // An inducing-point likelihood instead of the exact one: Z0 (q x m) the inducing inputs, learnt
  // with X when learn_inducing, otherwise held where they are; jitter: the relative inducing
  // jitter (sparse.hpp's add_inducing_jitter), 0 for none.
  void set_sparse(GpApproximation a, const arma::mat& Z0, bool learn_inducing, double jitter = 0.0);
  // K(Z, Z) with the inducing jitter: the Kuu of the likelihood (and of the posterior after it).
  arma::mat inducing_covariance() const;
  GpApproximation approximation() const { return approx_; }
  const arma::mat& inducing() const { return Z_; }
  // Jitter events are noted here (the first time each new, larger jitter is needed).
  void set_trace(Trace* trace) { trace_ = trace; }

  // Parameter vector for latent points X (ignored with a back-constraint: its parameters are used)
  // and the kernel's current hyperparameters.
  arma::vec pack(const arma::mat& X) const;
  // Latent points encoded by x; also moves the kernel to x's hyperparameters.
  arma::mat unpack(const arma::vec& x);

  double evaluate(const arma::vec& x, arma::vec* grad) override;

  const Kernel& kernel() const { return *kernel_; }
  Kernel& kernel() { return *kernel_; }
  const arma::mat& Yt() const { return Yt_; }
  arma::uword latent_dim() const { return q_; }
  int jitter_events() const { return jitter_events_; }
  double max_jitter() const { return max_jitter_; }

 private:
  arma::uword n_latent_params() const;
  arma::uword n_tuned_params() const;
  arma::uword n_inducing_params() const;
  double sparse_evaluate(const arma::mat& X, bool with_grad, arma::mat& gX, arma::vec& gtheta);

  arma::mat Yt_;  // n x d
  std::unique_ptr<Kernel> kernel_;
  arma::uword q_;
  std::vector<std::shared_ptr<const LatentPrior>> priors_;
  std::vector<std::shared_ptr<TunablePrior>> tuned_;
  std::shared_ptr<BackConstraint> bc_;
  bool learn_kernel_ = true;
  GpApproximation approx_ = GpApproximation::exact;
  arma::mat Z_;  // q x m inducing inputs (sparse only)
  bool learn_inducing_ = false;
  double inducing_jitter_ = 0.0;
  arma::mat gZ_;  // dL/dZ of the last evaluation with a gradient
  double last_jitter_ = 0.0;
  Trace* trace_ = nullptr;
  arma::mat KG_, KinvY_;           // likelihood buffers, reused by every evaluation
  SparseGpWorkspace sparse_work_;  // the sparse likelihood's, likewise
  SparseGpResult sparse_result_;
  int jitter_events_ = 0;
  double max_jitter_ = 0.0;
};

}  // namespace drbench
