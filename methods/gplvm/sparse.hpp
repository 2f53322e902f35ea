#pragma once
// Inducing-point approximations of the GP-LVM likelihood (likelihood.hpp is the exact one), all
// of the form  Y ~ N(0, Q + Lambda),  Q = Kfu Kuu^-1 Kuf,  at O(n m^2) work and O(n m) memory:
//   dtc  (Lawrence 2007, GPmat's fgplvm 'dtc'):  Lambda = sigma^2 I;
//   fitc (Snelson & Ghahramani 2006, fgplvm 'fitc'):  Lambda = diag(Kff - Q) + sigma^2 I;
//   vfe  (Titsias 2009, GPy's VarDTC):  the dtc likelihood plus d/(2 sigma^2) tr(Kff - Q),
//        the negative of a lower bound on the log marginal likelihood.
// Kuu = K(Z, Z) and Kfu = K(X, Z) are noise-free (cross-covariances of distinct points), diag is
// diag K(X) with the noise, sigma^2 the white-noise variance. With Z = X, Kuu = Kff - sigma^2 I and
// every approximation is the exact likelihood (vfe's trace term is then 0).
//
// The value is computed through A' = I + Lambda^-1/2 Kfu Kuu^-1 Kuf Lambda^-1/2 (well conditioned
// whatever Kuu is), its gradient in closed form:
//   G = dL/dSigma = 1/2 (d Sigma^-1 - alpha alpha^T), alpha = Sigma^-1 Y (never formed n x n),
//   dL/dKfu = d Lambda^-1 Kfu A^-1 - alpha W^T - diag(c) Kfu Kuu^-1,
//   dL/dKuu = d/2 (A^-1 - Kuu^-1) + 1/2 W W^T + 1/2 Kuu^-1 Kuf diag(c) Kfu Kuu^-1,
// with A = Kuu + Kuf Lambda^-1 Kfu, W = Kuu^-1 Kuf alpha, and c the chain through Lambda's
// dependence on Q (fitc: 2 G_ii) or through vfe's trace term (d / sigma^2); dtc: c = 0.
#include <armadillo>
#include <string>
#include <vector>

namespace drbench {

enum class GpApproximation { exact, dtc, fitc, vfe };

// "exact" | "dtc" | "fitc" | "vfe"; throws Error on anything else.
GpApproximation gp_approximation(const std::string& name);
const std::vector<std::string>& gp_approximation_names();

struct SparseGpResult {
  double value = 0.0;   // +inf where Kuu cannot be factorised or Lambda is not positive
  double jitter = 0.0;  // added to Kuu's diagonal to factorise it
  arma::mat dKuu;       // m x m
  arma::mat dKfu;       // n x m
  arma::vec ddiag;      // n: dL/d diag K(X) (noise included)
  double dsigma2 = 0.0;
};

// The inducing jitter: Kuu + rel * mean(diag Kuu) I in place of Kuu, added always (GPy adds a
// constant 1e-6 in its DTC and FITC and 1e-8 in VarDTC), not only when the factorisation fails. A
// Cholesky factor that exists is not enough: with m points in 2-D and a lengthscale near their
// spacing, Kuu's condition number reaches 1e13-1e16 and the gradient's Kuu^-1 terms cancel to
// garbage (Fashion-MNIST 60,000: analytic 2e10 against a finite difference of 2e4), while a
// jitter added only on failure also makes the objective jump. rel bounds the condition near
// m / rel. The jitter moves with the kernel's diagonal, so the gradient chains through it:
// dL/dKuu += rel / m tr(dL/dKuu') I. Returns what was added.
double add_inducing_jitter(arma::mat& Kuu, double rel);
void chain_inducing_jitter(arma::mat& dKuu, double rel);

// Yt: one row per point (n x d). Gradients are filled when with_grad. Kfu by value: a caller
// done with it moves it in, and its storage becomes the whitened Kfu R^-1 (no n x m copy).
SparseGpResult sparse_gp_neg_log_likelihood(GpApproximation a, const arma::mat& Kuu, arma::mat Kfu,
                                            const arma::vec& diag, double sigma2,
                                            const arma::mat& Yt, bool with_grad);

// The n x m work array the likelihood needs beyond Kfu (fitc's Lambda^-1/2 Kfu R^-1, then its
// gradient's weighted rows), kept by a caller across evaluations: an optimiser's evaluations all
// have the same shapes, and a fresh n x m array is page-faulted in again on each (at n = 5,000,
// m = 100 that cost about as much as the arithmetic, docs/benchmarks.md).
struct SparseGpWorkspace {
  arma::mat U;
};

// The same into r, whose buffers (dKfu above all) are reused when they have the right size: a
// caller that keeps r and ws across evaluations allocates no n x m array but the Kfu it moves in.
void sparse_gp_neg_log_likelihood(GpApproximation a, const arma::mat& Kuu, arma::mat&& Kfu,
                                  const arma::vec& diag, double sigma2, const arma::mat& Yt,
                                  bool with_grad, SparseGpWorkspace& ws, SparseGpResult& r);

// The approximate posterior at the inducing inputs, in the shape of an exact GP's: a new point's
// predictive mean is C^T k(Z, x) and its variance k(x, x) - k(Z, x)^T P k(Z, x), with
// P = Kuu^-1 - A^-1 (m x m) and C = A^-1 Kuf Lambda^-1 Y (m x d). false where the likelihood was
// not finite.
struct SparsePosterior {
  arma::mat P, C;
};
bool sparse_gp_posterior(GpApproximation a, const arma::mat& Kuu, const arma::mat& Kfu,
                         const arma::vec& diag, double sigma2, const arma::mat& Yt,
                         SparsePosterior& out);

}  // namespace drbench
