#pragma once
// What locally linear coordination (LLC, Teh & Roweis 2003) and manifold charting (Brand 2003)
// share: a mixture of local linear models fitted by EM, each point's responsibilities r_nk and
// local coordinates z_nk under every model, and a global map y_n = sum_k r_nk (L_k z_nk + l_k)
// linear in the stacked parameters L = [L_1 l_1 ... L_m l_m]': y_n' = u_n' V with
// u_n = [r_n1 z_n1; r_n1; ...; r_nm z_nm; r_nm] (m (q + 1) entries). Each method states a cost
// V'AV to be minimised subject to V'BV = I (B = U'U / n: the embedding has unit covariance); the
// solution is the bottom generalised eigenvectors after the constant one, which both costs have
// in their null space (l_k = 1, L_k = 0 makes y constant because sum_k r_nk = 1). New points map
// through the same mixture and V.
//
// The mixture is Tipping & Bishop's mixture of probabilistic PCA (Neural Computation 11, 1999,
// section 3 and appendix C): component k has mean mu_k, loadings W_k (d x q) and isotropic noise
// sigma_k^2, covariance C_k = W_k W_k' + sigma_k^2 I. EM with the component as the only hidden
// variable: the E-step takes the responsibilities, the M-step for each component is the weighted
// PPCA solution (mean, and the top q eigenpairs of the responsibility-weighted covariance S_k:
// W_k = U_q (Lambda_q - sigma_k^2 I)^{1/2}, sigma_k^2 the mean of the other eigenvalues), which
// maximises the expected log-likelihood exactly, so the log-likelihood never decreases. It is the
// mixture drtoolbox's llc and charting fit (its mppca); a factor analyser's diagonal noise is
// replaced by the isotropic one. Local coordinates are the posterior means
// z_nk = M_k^{-1} W_k'(x_n - mu_k), M_k = W_k'W_k + sigma_k^2 I.
#include <armadillo>
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/method.hpp"
#include "framework/core/params.hpp"
#include "framework/core/rng.hpp"
#include "framework/core/trace.hpp"

namespace drbench {

struct MixtureSetting {
  arma::uword components = 20;
  arma::uword latent = 2;  // q
  arma::uword iterations = 200;
  double tolerance = 1e-6;     // stop when the log-likelihood gains less than this x |LL|
  double min_variance = 1e-6;  // floor of sigma_k^2, relative to the data's mean variance
};

struct MethodInfo;

// What the two methods' descriptors share: the EM's `tolerance` key, the mixture's setting from
// the analysers, iterations and tolerance keys, and the flags and dims cap of both (iterative,
// new points through the fitted mixture, at most min(d - 1, n - 2) dims).
RealKey mixture_tolerance();
MixtureSetting mixture_setting(const ParamSet& p, const IntKey& analysers, const IntKey& iterations,
                               const RealKey& tolerance);
void describe_mixture(MethodInfo& m);

class AnalyserMixture {
 public:
  // EM from min(components, n / (q + 2)) distinct training points drawn by `rng` as means, each
  // point first assigned to its nearest mean; a mean with fewer than q + 2 points is dropped
  // before EM (the number kept is noted in the trace as analysers_used).
  void fit(const arma::mat& X, const MixtureSetting& s, Rng& rng, Trace* trace,
           const std::string& who);
  // log p(x_n) summed over the points, and the n x m log of pi_k N(x_n | mu_k, C_k).
  double log_likelihood(const arma::mat& X) const;
  arma::mat log_joint(const arma::mat& X) const;  // n x m
  // Responsibilities (n x m, rows sum to 1) and local coordinates (component k: q x n).
  arma::mat responsibilities(const arma::mat& X) const;
  std::vector<arma::mat> local_coordinates(const arma::mat& X) const;
  // u_n of every point (n x m (q + 1)), from the responsibilities and local coordinates.
  arma::mat stacked(const arma::mat& X) const;
  // The log-likelihood after each EM iteration (the first entry after the first M-step).
  const std::vector<double>& history() const { return history_; }
  arma::uword components() const { return means_.n_cols; }
  arma::uword latent() const { return q_; }
  arma::uword input_dim() const { return means_.n_rows; }

 private:
  void m_step(const arma::mat& X, const arma::mat& R);
  arma::uword q_ = 2;
  double floor_ = 0.0;
  arma::mat means_;           // d x m
  std::vector<arma::mat> W_;  // d x q each
  arma::vec sigma2_, logpi_;
  std::vector<double> history_;
};

// The shared fit and out-of-sample map of LLC and manifold charting.
class MixtureAlignmentMethod : public Method {
 public:
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return Y_; }
  arma::mat transform(const arma::mat& Xnew) const override;
  const AnalyserMixture& mixture() const { return mix_; }
  // The alignment of the last fit, for tests: cost A and constraint B (both p x p).
  const arma::mat& cost_matrix() const { return A_; }
  const arma::mat& constraint_matrix() const { return B_; }

 protected:
  // The relative ridge on U'U in the eigenproblem (gen_sym_eigs): only against rounding.
  static constexpr double kEigenRidge = 1e-10;
  MixtureAlignmentMethod(std::string name, const MixtureSetting& s)
      : name_(std::move(name)), s_(s) {}
  // The cost matrix A (p x p) from the training points and their stacked u_n (rows of U).
  virtual arma::mat alignment_cost(const arma::mat& X, const arma::mat& U, const arma::mat& R,
                                   const std::vector<arma::mat>& Z) const = 0;
  std::string name_;
  MixtureSetting s_;

 private:
  AnalyserMixture mix_;
  arma::mat V_, Y_, A_, B_;
};

// The budget llc and manifold charting share. Cost: EM, each iteration a d x d weighted
// covariance and its eigenpairs per analyser; the p x p alignment, p = analysers (dim + 1); with
// `knn_search`, LLC's exact kNN search over the training points. Memory: centred and weighted
// copies of the data, one d x d covariance, the n x analysers log-densities and
// responsibilities, U and (I - W) U, the p x p alignment and its eigen work (and the kNN
// search's distance blocks).
Budget mixture_alignment_budget(const IntKey& analysers, const IntKey& iterations, bool knn_search);

}  // namespace drbench
