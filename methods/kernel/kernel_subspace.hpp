#pragma once
// What KPCA, GDA, KLPP and SKLPP share. Each of them looks for projections v = sum_i a_i phi(x_i)
// in the span of the centred training points in feature space. Writing the centred Gram matrix as
// Kc = U L U' (rank r), every such v has coordinates w in the orthonormal basis Phi_c U L^-1/2,
// and the training points have coordinates Z = L^1/2 U' (r x n, the full KPCA embedding). The
// kernel problems therefore become their linear counterparts on Z (KPCA + LDA = GDA,
// KPCA + LPP = KLPP, Yang et al. 2005), and a unit-norm w is a unit-norm v in feature space.
#include <armadillo>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/method.hpp"
#include "framework/core/params.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/kernel_matrix.hpp"

namespace drbench {

struct LppSetting;

class KernelSubspace : public Method {
 public:
  explicit KernelSubspace(const KernelSetting& k) : setting_(k) {}
  arma::mat embedding() const override { return Y_; }
  arma::mat transform(const arma::mat& Xnew) const override;

 protected:
  // Gram matrix, centring and its eigendecomposition; fills Z_ (r x n) and lambda_ (r, descending).
  // `max_rank` > 0 keeps only that many leading components (KPCA needs no more than dim).
  void fit_basis(const arma::mat& X, arma::uword max_rank = 0);
  // W: r x dim directions in Z coordinates; sets the expansion coefficients and the embedding.
  void set_directions(const arma::mat& W);
  // KLPP and SKLPP: heat weights on the distance graph G, the basis of X, then the LPP directions.
  void fit_lpp(const arma::mat& X, const arma::sp_mat& G, const LppSetting& graph, arma::uword dim);

  // Replaces the setting's width before fit_basis (KLPP's kernel_scale: graph).
  void set_kernel_width(const keywords::KernelWidth& w) { setting_.width = w; }

  const arma::mat& Z() const { return Z_; }
  const arma::vec& lambda() const { return lambda_; }

 private:
  KernelSetting setting_;
  KernelSpec kernel_;
  arma::mat X_;  // training points, needed to evaluate k(x_i, x) for new x
  GramCentring centring_;
  arma::mat U_;       // n x r eigenvectors of Kc
  arma::vec lambda_;  // r eigenvalues of Kc, descending, all > 0
  arma::mat Z_;       // r x n training coordinates
  arma::mat A_;       // n x dim expansion coefficients: y(x) = A' kc(x)
  arma::mat Y_;       // dim x n embedding
};

// Scatter-type matrices on graph weights, shared by KLPP and SKLPP: the locality-preserving
// problem  (Z L Z' + reg I) w = mu Z D Z' w,  smallest mu first, directions normalised to unit
// norm.
arma::mat lpp_directions(const arma::mat& Z, const arma::sp_mat& Wgraph, arma::uword dim,
                         double reg);

// Heat-kernel weights exp(-|xi - xj|^2 / t) on the edges of a sparse graph whose values are
// Euclidean distances, with t = heat_width^2 * mean squared edge length (scale free);
// binary=true gives 0/1 weights.
arma::sp_mat heat_weights(const arma::sp_mat& dist_graph, double heat_width, bool binary);

// What KLPP and SKLPP share besides the kernel: graph weights, heat width and ridge.
struct LppSetting {
  bool binary = false;  // weights: binary
  double heat_width = 1.0;
  double reg = 1e-4;
};
struct LppKeys {
  ChoiceKey weights;
  RealKey heat_width;
  RealKey reg;
  std::vector<ParamSpec> specs() const { return {weights, heat_width, reg}; }
  LppSetting operator()(const ParamSet& p) const {
    return {weights(p) == "binary", heat_width(p), reg(p)};
  }
};
const LppKeys& lpp_keys();

// KLPP and SKLPP: the LPP directions on heat weights of a distance graph of the training points,
// which each method states (kNN, or same-class points among `neighbours`).
class GraphKernelLpp : public KernelSubspace {
 public:
  GraphKernelLpp(const KernelSetting& k, arma::uword neighbours, const LppSetting& graph)
      : KernelSubspace(k), neighbours_(neighbours), graph_(graph) {}
  void fit(const FitInput& in) override { fit_on_graph(in, distance_graph(in)); }

 protected:
  void fit_on_graph(const FitInput& in, const arma::sp_mat& G) { fit_lpp(in.X, G, graph_, in.dim); }
  // Symmetric, Euclidean distances as values.
  virtual arma::sp_mat distance_graph(const FitInput& in) const = 0;
  arma::uword neighbours() const { return neighbours_; }

 private:
  arma::uword neighbours_;
  LppSetting graph_;
};

// What the KLPP and SKLPP descriptors share: the kernel keys, `neighbours` and the LPP keys as
// parameters, at most n - 1 directions.
void describe_kernel_lpp(MethodInfo& m, const IntKey& neighbours);
// Their budget: n x n eigenproblems.
Budget kernel_lpp_budget();

}  // namespace drbench
