#pragma once
// Locally linear embedding (Roweis & Saul 2000): reconstruction weights of every point from its k
// neighbours (sum to one, ridge reg * trace(C) on the local Gram matrix C as in Saul & Roweis 2003
// when k > d), then the bottom eigenvectors of M = (I - W)'(I - W) after the constant one, scaled
// so that Y Y'/n = I and Y 1 = 0. A new point gets its own reconstruction weights from its k
// nearest training points, applied to their embeddings (Saul & Roweis 2003, section 6.1); a new
// point that coincides with a training point takes that point's embedding.
//
// Big data: up to kDenseLimit points (exact search) the neighbours, the dense M and the
// out-of-sample map are those the committed results and the scikit-learn fixture used. Above it
// the neighbours come from the shared neighbour graph (`neighbour_graph`,
// framework/neighbours/neighbour_graph.hpp), M is assembled sparse (about k^2 entries a column) and
// solved by shift-invert Lanczos on the sparse M with the
// constant vector deflated (framework/linalg/sparse_eigs.hpp), scikit-learn's
// eigen_solver='arpack' strategy: O(n k^2) memory plus M's sparse LU factor, whose fill-in grows
// faster than n (Fashion-MNIST, 50-D, k = 10: 34 M entries at 20,000 points). The approximate
// graph is the same for any thread count (neighbour_graph.hpp), so is the embedding.
#include <armadillo>
#include <memory>

#include <string>
#include "framework/core/method.hpp"

#include "framework/neighbours/neighbour_graph.hpp"
#include "methods/manifold/local_alignment.hpp"

namespace drbench {

// A setting of the method's parameters, read once in its `make`.
struct LleSetting {
  arma::uword neighbours = 10;
  double reg = 1e-3;                     // ridge on the local Gram matrix, times its trace
  std::string neighbour_graph = "auto";  // parse_graph_kind's text
};

class LLE final : public Method {
 public:
  static constexpr arma::uword kDenseLimit = 2000;
  explicit LLE(const LleSetting& s, arma::uword dense_limit = kDenseLimit)
      : s_(s), dense_limit_(dense_limit) {}
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return Y_; }
  arma::mat transform(const arma::mat& Xnew) const override;

 private:
  LleSetting s_;
  arma::uword dense_limit_;
  arma::mat X_, Y_;
  // Over X_: the training points' graph and the new points' neighbours.
  std::unique_ptr<NeighbourIndex> index_;
};

}  // namespace drbench
