#pragma once
// Covariance functions for the GP-LVM family (GPy style: each kernel gives its matrix and its own
// gradients, and kernels compose by sum and product). Latent points are the columns of X (q x n).
//
// Hyperparameters: every kernel hyperparameter is a positive quantity and is exposed to the
// optimiser as its natural LOG (params() = log(value)); gradients are with respect to those logs,
// so the optimiser works on unconstrained values.
#include <armadillo>
#include <memory>
#include <string>
#include <vector>

namespace drbench {

// What a pass over K's upper triangle adds besides the kernel's own values: `every_pair` on every
// entry and `same_point` on the diagonal (a sum's bias and white parts, folded into another part's
// pass so that they need no pass of their own). overwrite: what K held is ignored.
struct UpperFill {
  bool overwrite = true;
  double every_pair = 0.0, same_point = 0.0;
};

// Sums of a symmetric G over its strict upper triangle and over its diagonal: what the bias and
// white gradients need, taken in another part's pass over G.
struct UpperSums {
  bool filled = false;
  double strict_upper = 0.0, diagonal = 0.0;
};

// A covariance function, in GPy's few calls: K(X, X') of distinct points and its gradients with
// respect to the log hyperparameters and both inputs are all a kernel must state. Everything else
// has a default built from those: K(X) = K(X, X), its gradients from the cross ones with X' = X,
// the diagonal and its gradients point by point. A kernel overrides a default where its K(X)
// differs from K(X, X) (white noise, a thin-plate spline whose knots are X) or where a closed
// form is cheaper. The GP objective's fused one-triangle path is a separate, optional interface
// (TrianglePath below), so a new kernel needs none of that machinery to be correct. A kernel that
// overrides K(X, X2) alone says `using Kernel::K;`, or its own K(X, X2) hides the inherited K(X)
// from calls on the concrete type.
class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual std::unique_ptr<Kernel> clone() const = 0;
  virtual std::string name() const = 0;  // e.g. "rbf", "rbf+bias+white"

  virtual arma::uword n_params() const = 0;
  virtual arma::vec params() const = 0;  // log hyperparameters
  virtual void set_params(const arma::vec& log_values) = 0;
  virtual std::vector<std::string> param_names() const = 0;  // "rbf.variance", ...

  // n x m cross-covariance between the columns of X and X2, treated as DISTINCT points: white noise
  // contributes nothing here (GPy convention), which is what a GP prediction at a new point needs.
  virtual arma::mat K(const arma::mat& X, const arma::mat& X2) const = 0;
  // Given G = dL/dK for K = K(X, X2) (n x m): dL/dlog(theta), dL/dX (q x n) and, when g_X2 is
  // given, dL/dX2 (q x m).
  virtual void cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                               arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const = 0;

  // n x n covariance of the columns of X, white noise included (default K(X, X)).
  virtual arma::mat K(const arma::mat& X) const { return K(X, X); }
  // Given G = dL/dK for K = K(X) (n x n; entries treated as independent, G need not be symmetric):
  // dL/dlog(theta) = tr(G^T dK/dlog theta) and dL/dX (q x n). Default: the cross gradients at
  // X2 = X, both inputs' parts added.
  virtual void gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                         arma::mat& g_X) const;
  // diag(K(X)), white noise included: the prior variance of a (noisy) observation at each point.
  // Default: K of each point alone.
  virtual arma::vec diag(const arma::mat& X) const;
  // Given g = dL/d diag(K(X)) (n): dL/dlog(theta) and dL/dX. Default: `gradients` point by point.
  virtual void diag_gradients(const arma::mat& X, const arma::vec& g, arma::vec& g_params,
                              arma::mat& g_X) const;

  // K(X, X2) for a caller that will ask cross_gradients at the same X, X2 and hyperparameters
  // next (the sparse likelihoods' Kfu): a kernel may keep what that pass needs instead of
  // recomputing it. Same values as K(X, X2) up to round-off (a stationary kernel at q = 2 forms
  // the distances as sums of squared differences there, K(X, X2) through one matrix product).
  virtual arma::mat cross_K(const arma::mat& X, const arma::mat& X2) const { return K(X, X2); }
  // cross_K(X, X2) + every_pair on every entry: a sum's bias, which a kernel may add in its own
  // pass over the n x m matrix instead of the sum taking one more.
  virtual arma::mat cross_K_plus(const arma::mat& X, const arma::mat& X2, double every_pair) const {
    arma::mat k = cross_K(X, X2);
    if (every_pair != 0.0) k += every_pair;
    return k;
  }
  // The variance of the kernel's white-noise part (0 without one), the sigma^2 of the sparse
  // likelihoods, and, when grad is given, its gradient with respect to the log hyperparameters.
  virtual double noise(arma::vec* grad) const {
    if (grad) grad->zeros(n_params());
    return 0.0;
  }
  // The sparse likelihoods' diag K(X) (noise included) and its gradients given the inducing
  // inputs Z. A kernel with knots (the thin-plate spline, whose K(X, X2) has them at X2) takes Z
  // as its knots there, so its diagonal moves with Z too: that part is ADDED to g_Z. Kernels
  // without knots: diag and diag_gradients, g_Z untouched.
  virtual arma::vec sparse_diag(const arma::mat& X, const arma::mat& Z) const {
    (void)Z;
    return diag(X);
  }
  virtual void sparse_diag_gradients(const arma::mat& X, const arma::mat& Z, const arma::vec& g,
                                     arma::vec& g_params, arma::mat& g_X, arma::mat& g_Z) const {
    (void)Z;
    (void)g_Z;
    diag_gradients(X, g, g_params, g_X);
  }
  // Called once after fitting with the training latent points (the inducing inputs of a sparse
  // fit). A kernel whose covariance depends on all the training points (TPSLVM's thin-plate
  // spline: they are its knots) pins them here so that K(x*, X) and diag(x*) at new points use
  // the fitted knots; others ignore it.
  virtual void fix_inputs(const arma::mat& X) { (void)X; }

  // Single results of the calls above, for callers that need one of them.
  arma::vec grad_params(const arma::mat& X, const arma::mat& G) const;
  arma::mat grad_X(const arma::mat& X, const arma::mat& G) const;
  arma::mat grad_X_cross(const arma::mat& X, const arma::mat& X2, const arma::mat& G) const;
  arma::mat grad_X_diag(const arma::mat& X, const arma::vec& g) const;
  arma::vec grad_params_diag(const arma::mat& X, const arma::vec& g) const;
  double noise_variance() const { return noise(nullptr); }
  arma::vec noise_variance_grad() const;
};

// The optional fast path of the GP objective, for kernels that can build K's upper triangle and
// read one triangle of a symmetric G = dL/dK in their own passes (RBF and the other stationary
// kernels, the thin-plate spline, bias and white, and sums of them). There K and G are symmetric
// and only their upper triangles (diagonal included) are kept: the Cholesky factorisation reads
// one triangle, and a gradient pass that reads one triangle of G needs no mirrored copy. The
// strict lower triangles are scratch. A kernel without this interface takes the full-matrix calls
// (upper_K_of and upper_gradients_of below choose).
class TrianglePath {
 public:
  virtual ~TrianglePath() = default;
  // K's upper triangle = (fill.overwrite ? 0 : K) + K(X) + fill's constants.
  virtual void upper_K(const arma::mat& X, const UpperFill& fill, arma::mat& K) const = 0;
  // The gradients for a symmetric G held in its upper triangle. sums, when given and not yet
  // filled, may be filled in the same pass over G.
  virtual void upper_gradients(const arma::mat& X, arma::mat& G, arma::vec& g_params,
                               arma::mat& g_X, UpperSums* sums) const = 0;
  // For a kernel whose matrix is every_pair 1 1^T + same_point I wherever the points lie (bias,
  // white): adds those two and returns true, so that a sum can fold it into another part's pass.
  virtual bool static_share(double& every_pair, double& same_point) const {
    (void)every_pair;
    (void)same_point;
    return false;
  }
};

// The one-triangle calls for any kernel: its TrianglePath where it has one, otherwise the
// full-matrix calls (K(X) added onto the fill; G mirrored, then `gradients`).
void upper_K_of(const Kernel& k, const arma::mat& X, const UpperFill& fill, arma::mat& K);
void upper_gradients_of(const Kernel& k, const arma::mat& X, arma::mat& G, arma::vec& g_params,
                        arma::mat& g_X, UpperSums* sums);
bool static_share_of(const Kernel& k, double& every_pair, double& same_point);
// The full-matrix calls themselves, for a TrianglePath that takes them in some cases.
void upper_K_from_full(const Kernel& k, const arma::mat& X, const UpperFill& fill, arma::mat& K);
void upper_gradients_from_full(const Kernel& k, const arma::mat& X, arma::mat& G,
                               arma::vec& g_params, arma::mat& g_X);

// Shared storage of log hyperparameters for the concrete kernels.
class KernelWithParams : public Kernel {
 public:
  arma::uword n_params() const override { return log_.n_elem; }
  arma::vec params() const override { return log_; }
  void set_params(const arma::vec& log_values) override;
  std::vector<std::string> param_names() const override;

 protected:
  KernelWithParams(std::vector<std::string> names, const arma::vec& values);
  double value(arma::uword i) const { return val_(i); }  // exp(log_(i)), cached

 private:
  std::vector<std::string> names_;
  arma::vec log_, val_;
};

// Builds a kernel from a sum of products of parts, e.g. "rbf+bias+white" or "rbf*linear+white"
// ('*' binds tighter), each part at its default hyperparameters: rbf, matern32, matern52, bias,
// white, linear, poly (degree 2), mlp. Throws Error on an unknown part, naming the known ones.
std::unique_ptr<Kernel> make_kernel(const std::string& spec);

// The registry's covariance kernels (every part but the static bias and white): what a GP
// method's `kernel` parameter may name.
std::vector<std::string> covariance_kernel_names();

// What a GP model fits (GPLRF eq. 2): the covariance `covariance` names (a kernel spec, usually one
// of covariance_kernel_names()) plus a bias and white noise at their defaults.
std::unique_ptr<Kernel> make_gp_kernel(const std::string& covariance);

}  // namespace drbench
