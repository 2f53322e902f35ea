#pragma once
// A fitted GP-LVM: kernel, latent points, optional priors and back-constraint, and the
// out-of-sample map. Every method of the family (gplvm, gplrf, dgplvm, ...) is a thin Method that
// builds its priors/back-constraint and delegates to this class.
#include <armadillo>
#include <memory>
#include <string>
#include <vector>

#include "framework/core/params.hpp"
#include "framework/core/rng.hpp"
#include "framework/core/trace.hpp"
#include "framework/optim/objective.hpp"
#include "methods/gplvm/back_constraint.hpp"
#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/prior.hpp"

namespace drbench {

struct GplvmSettings {
  std::string kernel = "rbf";  // base kernel; bias and white noise are added (GPLRF eq. 2)
  int iterations = 1000;
  double tolerance = 1e-4;           // x_tol = f_tol of the fit's optimiser (Netlab's foptions)
  double objective_tolerance = 0.0;  // rel_f_tol of the fit's optimiser over tolerance_window
  int tolerance_window = 100;
  double gradient_tolerance = 0.0;  // g_tol of the fit's optimiser
  std::string optimizer = "scg";    // scg | lbfgs
  std::string init = "ppca";        // ppca | pca
  double x_prior = 0.0;             // precision of a Gaussian prior on X; 0 = none (eq. 3 as is)
  int oos_iterations = 200;         // optimiser iterations per new point (TPSLVM Algorithm 1)
  bool learn_kernel = true;         // false: hyperparameters stay at their initial values
  // New points: "predictive" (TPSLVM Algorithm 1: maximise the GP predictive density with the
  // training latent points fixed), "expected" (the same search under the expected log likelihood
  // of PointScore, GPy's infer_newX) or "joint" (the TPSLVM authors' code: y* joins the data and
  // x* the latent points, so it also becomes a knot, and the likelihood of all N + 1 points is
  // maximised over x* alone from the PPCA coordinates of the new points, and also from
  // Algorithm 1's start, keeping the likelier end; O(N^3) per step).
  std::string oos = "predictive";
  // Likelihood: exact, or through `inducing` points (sparse.hpp), initialised at a random subset
  // of the initial latent points and learnt with X unless learn_inducing is false.
  std::string approximation = "exact";
  int inducing = 100;
  bool learn_inducing = true;
  // Start of the inducing inputs: "random" (a random subset of the start, as GPy and GPmat) or
  // "kmeans" (k-means centres of the start, seeded from the task's rng).
  std::string inducing_init = "random";
  // Relative jitter always on Kuu's diagonal (sparse.hpp's add_inducing_jitter); 0 = only when
  // the factorisation fails.
  double inducing_jitter = 0.0;
};

// The parameters every GP-LVM variant declares (kernel, iterations, optimizer, init, x_prior,
// oos_iterations, ...) as typed keys: specs() declares them (variants append their own priors'
// weights), operator() reads a setting's values into GplvmSettings once, in the variant's make.
struct GplvmKeys {
  ChoiceKey kernel;
  IntKey iterations;
  RealKey tolerance;
  RealKey objective_tolerance;
  IntKey tolerance_window;
  RealKey gradient_tolerance;
  ChoiceKey optimizer;
  ChoiceKey init;
  RealKey x_prior;
  IntKey oos_iterations;
  ChoiceKey out_of_sample;
  BoolKey learn_kernel;
  ChoiceKey approximation;
  IntKey inducing;
  BoolKey learn_inducing;
  ChoiceKey inducing_init;
  RealKey inducing_jitter;
  std::vector<ParamSpec> specs() const;
  GplvmSettings operator()(const ParamSet& p) const;
  // The sparse likelihood's keys alone (approximation, inducing, learn_inducing, inducing_init,
  // inducing_jitter) and their reading, for a family with parameters of its own (TPSLVM).
  std::vector<ParamSpec> sparse_specs() const;
  void read_sparse(const ParamSet& p, GplvmSettings& s) const;
};
const GplvmKeys& gplvm_keys();

// How a new observation y is scored at latent point x by the out-of-sample map (`out_of_sample`).
//  predictive: -log N(y | mu(x), s2(x) I), the GP predictive density (TPSLVM eq. 29), with
//    mu(x) = Y^T K^-1 k(X, x) and s2(x) = k(x, x) - k(X, x)^T K^-1 k(X, x) (noise included), plus
//    precision/2 |x|^2 when the model was fitted with a Gaussian prior on X (MAP, as the training
//    points). A y that no latent point predicts well is most likely where s2(x) is largest, far
//    from all training points: with an exact fit at high d (USPS, 156-D, n = 1,000) every test
//    point left the data, 3,000 latent units away, in the first step.
//  expected: the expected log likelihood of y under the GP posterior of f(x) with the learnt noise
//    sigma2, E_f[-log N(y | f, sigma2 I)] = (|y - mu(x)|^2 + d v(x)) / (2 sigma2) + d/2 log(2 pi
//    sigma2), v(x) = s2(x) - sigma2 the posterior variance of f. It is a lower bound on the
//    predictive log density (Jensen) that charges posterior variance instead of rewarding it, so
//    the far region is never better than the reconstruction it offers; GPy's infer_newX scores
//    new points of a GPLVM this way (GPy/inference/latent_function_inference/inferenceX.py).
//    Under DTC the fit's likelihood took f = K_fu K_uu^-1 u (prior covariance Q, not K), so its
//    posterior variance of f is Q(x, x) - k^T P k, without GPy's k(x, x) - Q(x, x): that term,
//    which DTC never fitted, is large between inducing inputs and pulled new points onto them
//    (USPS, m = 400, one fit: 1-NN 11.1 % predictive, 17.9 % with it). `prior_inv` = K_uu^-1
//    selects that form: v(x) = k^T (prior_inv - Kinv) k.
// With a sparse likelihood the same forms serve: X is then the inducing inputs, Kinv is
// Kuu^-1 - A^-1 and KinvY is A^-1 Kuf Lambda^-1 Y (sparse.hpp's posterior).
enum class PointScore { predictive, expected };
PointScore point_score(const std::string& name);  // "predictive" | "expected"

class PredictiveObjective final : public Objective {
 public:
  PredictiveObjective(const Kernel& kernel, const arma::mat& X, const arma::mat& Kinv,
                      const arma::mat& KinvY, const arma::vec& y, double x_prior = 0.0,
                      PointScore score = PointScore::predictive,
                      const arma::mat* prior_inv = nullptr)
      : kernel_(kernel),
        X_(X),
        Kinv_(Kinv),
        KinvY_(KinvY),
        y_(y),
        x_prior_(x_prior),
        score_(score),
        sigma2_(kernel.noise_variance()),
        prior_inv_(prior_inv) {}
  double evaluate(const arma::vec& x, arma::vec* grad) override;

 private:
  const Kernel& kernel_;
  const arma::mat& X_;      // q x n training latent points
  const arma::mat& Kinv_;   // n x n
  const arma::mat& KinvY_;  // n x d
  const arma::vec& y_;      // d
  double x_prior_;
  PointScore score_;
  double sigma2_;
  const arma::mat* prior_inv_;  // K_uu^-1 of a DTC fit (expected score only), else null
};

class GplvmModel {
 public:
  explicit GplvmModel(GplvmSettings s = {});

  void add_prior(std::shared_ptr<const LatentPrior> prior) { priors_.push_back(std::move(prior)); }
  // A prior whose hyperparameters are learnt with X; they stay at the optimum in `prior`.
  void add_tuned_prior(std::shared_ptr<TunablePrior> prior) { tuned_.push_back(std::move(prior)); }
  void set_back_constraint(std::shared_ptr<BackConstraint> bc) { bc_ = std::move(bc); }
  // The full covariance to fit, noise included (TPSLVM's tps+white); without it the model uses
  // settings.kernel + bias + white.
  void set_kernel(std::unique_ptr<Kernel> k) { kernel_spec_ = std::move(k); }

  // Y is d x n (uncentred; the model centres it). X0 (q x n) overrides the PCA/PPCA start.
  void fit(const arma::mat& Y, arma::uword q, Rng& rng, Trace* trace,
           const arma::mat* X0 = nullptr);

  const arma::mat& latent() const { return X_; }
  // The fitted inducing inputs (q x m; empty for the exact likelihood).
  const arma::mat& inducing() const { return Z_; }
  const Kernel& kernel() const { return *kernel_; }
  // q x m latent points of new observations: the back-constraint map when there is one, else
  // TPSLVM Algorithm 1 (start at the training latent point under which y* is most likely, then
  // optimise the predictive density).
  arma::mat transform(const arma::mat& Ynew) const;
  // Index of the training latent point at which the centred observation y scores best under the
  // map's score (out_of_sample).
  arma::uword most_likely_start(const arma::vec& y_centred) const;
  const arma::vec& mean() const { return mean_; }
  double objective() const { return f_; }

 private:
  GplvmSettings s_;
  std::vector<std::shared_ptr<const LatentPrior>> priors_;
  std::vector<std::shared_ptr<TunablePrior>> tuned_;
  std::shared_ptr<BackConstraint> bc_;
  std::unique_ptr<Kernel> kernel_;
  std::shared_ptr<const Kernel> kernel_spec_;  // start of the fit when set (see set_kernel)
  arma::vec mean_;
  arma::mat X_;  // q x n
  arma::mat Z_;  // q x m inducing inputs (sparse)
  // x* maximising the joint likelihood of the N + 1 points from `start`; *f the objective there.
  arma::vec joint_point(const arma::vec& y, const arma::vec& start, double* f) const;

  std::unique_ptr<Kernel> free_kernel_;  // the fitted kernel before fix_inputs (joint oos)
  arma::mat Yc_;                         // d x n centred training data, kept for the joint oos only
  // Prediction basis: the training latent points (exact) or the inducing inputs (sparse), with
  // Kinv_ = K^-1 (exact) or Kuu^-1 - A^-1 (sparse.hpp's P) and KinvY_ = K^-1 Y or its C.
  arma::mat B_;            // q x b, b = n or m
  arma::mat Kinv_;         // b x b, at the optimum
  arma::mat KinvY_;        // b x d
  arma::mat mu_train_;     // d x n predictive means at the training latent points
  arma::vec var_train_;    // n predictive variances there
  arma::mat prior_inv_;    // K_uu^-1 of a DTC fit, for the expected score's variance of f
  arma::vec var_f_train_;  // n posterior variances of f there, as the expected score takes it
  double f_ = 0.0;
};

}  // namespace drbench
