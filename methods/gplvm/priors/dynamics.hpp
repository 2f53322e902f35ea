#pragma once
// GP dynamics prior (GPDM: Wang, Fleet & Hertzmann 2006; Lawrence's fgplvm gpDynamics): over each
// time-ordered sequence an auto-regressive GP maps x_{t-1} to x_t (or, by default as in
// Lawrence's code, to the step x_t - x_{t-1}) under an RBF + white kernel; all transitions of all
// sequences share one GP, and each sequence's first point has an isotropic Gaussian prior.
//   -log p(X) = q/2 log|Kx| + 1/2 tr(Kx^-1 Xout^T Xout) + M q/2 log(2 pi)
//               + precision/2 sum_s |x_first(s)|^2,        Kx = k(Xin, Xin), M transitions.
// Its kernel hyperparameters (log variance, log inverse width, log white) are fixed unless the
// model asks to learn them (TunablePrior).
#include <memory>
#include <vector>

#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/prior.hpp"

namespace drbench {

struct GpDynamicsSettings {
  // The TPSLVM authors' defaults (their GPLVM-DM/TPSLVM-DM demos).
  double inv_width = 0.01;
  double variance = 0.01;
  double white = 1e-6;
  bool differences = true;       // target x_t - x_{t-1} (true) or x_t
  double first_precision = 1.0;  // Gaussian prior on each sequence's first point
};

class GpDynamicsPrior final : public TunablePrior {
 public:
  // sequences: the point indices (columns of X) of each sequence, in time order.
  GpDynamicsPrior(std::vector<arma::uvec> sequences, GpDynamicsSettings s = {});
  GpDynamicsPrior(const GpDynamicsPrior& other);
  std::string name() const override { return "gp_dynamics"; }

  arma::uword n_params() const override { return kern_->n_params(); }
  arma::vec params() const override { return kern_->params(); }
  void set_params(const arma::vec& log_values) override { kern_->set_params(log_values); }
  double value_grad_params(const arma::mat& X, arma::mat* gX, arma::vec* gp) const override;

  const Kernel& kernel() const { return *kern_; }
  arma::uword transitions() const { return in_.n_elem; }

 private:
  GpDynamicsSettings s_;
  arma::uvec in_, out_, first_;  // transition t: x_in(t) -> x_out(t); first point of each sequence
  std::unique_ptr<Kernel> kern_;
};

// Sequences from per-point sequence ids: points sharing an id form one sequence, in the order
// they appear (the data keep time order inside a sequence).
std::vector<arma::uvec> sequences_from_ids(const arma::uvec& ids);

}  // namespace drbench
