#pragma once
// What the local-neighbourhood embeddings of the manifold family share (LLE, modified LLE, Hessian
// LLE, LTSA): each builds a sparse symmetric positive semi-definite alignment matrix M from the k
// nearest neighbours of every point, with the constant vector in its null space, and embeds by
// the bottom eigenvectors of M after that constant one. New points map by the reconstruction
// weights of their k nearest training points (Saul & Roweis 2003, section 6.1), which is also
// scikit-learn's transform for every LocallyLinearEmbedding method.
#include <armadillo>
#include <memory>
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/method.hpp"
#include "framework/core/registry.hpp"

#include "framework/linalg/eigen.hpp"
#include "framework/linalg/sparse_eigs.hpp"

namespace drbench {

// Weights (k) reconstructing x from the columns of N (d x k): min |x - N w|^2, sum w = 1, with
// reg * trace(C) added to the diagonal of the local Gram matrix C.
arma::vec reconstruction_weights(const arma::vec& x, const arma::mat& N, double reg);

// I - W (n x n, sparse): row i holds 1 at i and minus the reconstruction_weights of point i from
// its neighbours nn.col(i) (k x n indices into the columns of X). Each point's weights are their
// own small solve: blocks of points on `threads` threads write disjoint entries, so the matrix
// does not depend on the thread count.
arma::sp_mat reconstruction_complement(const arma::mat& X, const arma::umat& nn, double reg,
                                       unsigned threads = 1);

// The `dim` smallest eigenpairs of M beyond its constant null vector, so the eigenvectors are
// orthogonal to it (Y 1 = 0). `dense`: the constant lifted above the spectrum and the dense M
// solved by shift-invert Lanczos on its Cholesky factor (or the dense eigensolver); otherwise the
// constant deflated and the sparse M solved by shift-invert Lanczos, which fills `info`. Throws
// MethodError naming `who` and the fix when several eigenvalues are zero (the neighbour graph
// falls apart into components) if `zero_check`; a method whose M has an exact null space on
// flat data (Hessian LLE, LTSA) checks the components of M's graph instead.
EigenPairs bottom_eigs_after_constant(arma::sp_mat M, arma::uword dim, bool dense,
                                      const std::string& who, ShiftInvertInfo* info = nullptr,
                                      bool zero_check = true);

// The reconstruction-weight map of new points Q (d x m) onto the embedding Y (dim x n) of the
// training points X, from each new point's k nearest training points; a new point that coincides
// with a training point takes that point's embedding.
arma::mat reconstruction_map(const arma::mat& X, const arma::mat& Y, const arma::mat& Q,
                             arma::uword k, double reg, const std::string& who);

// What each local-alignment method adds to the shared fit: the n x n alignment matrix M from the
// training points X (d x n) and their k nearest neighbours nn (k x n, nearest first).
struct LocalAlignmentSetting {
  arma::uword neighbours = 10;
  double reg = 1e-3;  // ridge of the out-of-sample reconstruction weights (and MLLE's own weights)
  // The patch of x_i is x_i and its k - 1 nearest others (the papers' LTSA and HLLE), rather
  // than its k nearest others (scikit-learn's), so every point lies in its own patch.
  bool include_self = false;
};

// The shared fit of modified LLE, Hessian LLE and LTSA: exact kNN, the method's alignment matrix,
// its bottom eigenvectors after the constant (dense up to kDenseLimit points, sparse shift-invert
// Lanczos above), scaled so that Y Y'/n = I, and the reconstruction-weight map for new points.
class LocalAlignmentMethod : public Method {
 public:
  static constexpr arma::uword kDenseLimit = 2000;
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return Y_; }
  arma::mat transform(const arma::mat& Xnew) const override {
    return reconstruction_map(X_, Y_, Xnew, s_.neighbours, s_.reg, name_);
  }

 protected:
  LocalAlignmentMethod(std::string name, const LocalAlignmentSetting& s)
      : name_(std::move(name)), s_(s) {}
  virtual arma::sp_mat alignment(const arma::mat& X, const arma::umat& nn,
                                 arma::uword dim) const = 0;
  // The fewest neighbours the method needs for `dim` (refused with the fix below it).
  virtual arma::uword min_neighbours(arma::uword dim) const = 0;
  std::string name_;
  LocalAlignmentSetting s_;

 private:
  arma::mat X_, Y_;
};

// The patches of the training points X: column i holds x_i's k nearest others (nearest first), or,
// with include_self, i itself and its k - 1 nearest others.
arma::umat patch_neighbours(const arma::mat& X, arma::uword k, bool include_self);

// LTSA's alignment matrix (Zhang & Zha 2004): sum_i S_i (I - G_i G_i') S_i' with
// G_i = [1/sqrt(k), V_i], V_i the top `dim` right singular vectors of patch i centred. Shared by
// LTSA and its linear form LLTSA.
arma::sp_mat ltsa_alignment(const arma::mat& X, const arma::umat& nn, arma::uword dim);

// Triplets of a sparse matrix that several local blocks add into (duplicates summed).
struct Triplets {
  std::vector<arma::uword> rows, cols;
  std::vector<double> vals;
  void add(arma::uword r, arma::uword c, double v) {
    rows.push_back(r);
    cols.push_back(c);
    vals.push_back(v);
  }
  // B (k x k) added at rows and columns idx.
  void add_block(const arma::uvec& idx, const arma::mat& B) {
    for (arma::uword b = 0; b < idx.n_elem; ++b)
      for (arma::uword a = 0; a < idx.n_elem; ++a) add(idx(a), idx(b), B(a, b));
  }
  arma::sp_mat matrix(arma::uword n) const;
};

// The eigenvectors of the k x k Gram matrix G of a neighbourhood, by decreasing eigenvalue, and
// those eigenvalues (clamped at 0).
void local_gram_eigs(const arma::mat& G, arma::vec& values, arma::mat& vectors);
// The same for the patch X.cols(idx) centred on its own mean (LTSA's and HLLE's local PCA).
void centred_patch_eigs(const arma::mat& X, const arma::uvec& idx, arma::vec& values,
                        arma::mat& vectors);

// The descriptor entries the three methods share: `neighbours` and `ridge`, max_dim, and the rule
// that `neighbours` reaches the method's minimum for `dims` (checked at fit). With `patch`, also
// the choice `patch` {self, others}: whether a point's patch holds the point itself (LTSA, HLLE;
// MLLE's construction holds it apart and does not offer the choice).
struct LocalAlignmentKeys {
  IntKey neighbours;
  RealKey ridge;
  ChoiceKey patch;
  bool has_patch = false;
  LocalAlignmentSetting operator()(const ParamSet& p) const;
};
LocalAlignmentKeys local_alignment_keys(std::int64_t default_neighbours, bool patch);
LocalAlignmentKeys describe_local_alignment(MethodInfo& m, std::int64_t default_neighbours,
                                            bool patch);
// The budget the three share: the kNN search, a k x k eigenproblem a point and the n x n (dense)
// or sparse (LU) eigenproblem of M.
Budget local_alignment_budget(std::int64_t default_neighbours);
// The cost npe and lltsa share: kNN distances (n^2 d), a k x k problem per point, the reduced
// scatter matrices (n d^2) and a d x d generalized eigenproblem.
TaskEstimate local_projection_cost(const IntKey& neighbours);

}  // namespace drbench
