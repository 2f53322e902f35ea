#pragma once
// Laplacian eigenmaps (Belkin & Niyogi 2003): heat-kernel weights on the kNN graph, then the
// smallest non-trivial solutions of L y = lambda D y, normalised so that Y D Y' = I. Solved as
// the eigenvectors of S = D^-1/2 W D^-1/2 (mu = 1 - lambda) next to the trivial D^1/2 1, which is
// dropped. New points by the Nystroem formula of Bengio et al. (2003, section 3):
// u_k(x) = 1/mu_k sum_j w(x, x_j) / sqrt(d(x) d_j) u_jk, y_k(x) = u_k(x) / sqrt(d(x)), with w over
// the k nearest training points; a training point uses its graph row and is reproduced exactly.
//
// Big data: up to kDenseLimit points (exact search) the graph, the dense eigensolver on S and the
// out-of-sample map are those the committed results used. Above it the graph is the shared
// neighbour graph (framework/neighbours/neighbour_graph.hpp, `neighbour_graph`), stored sparse, new
// points are found through its index, and the eigenvectors come from thick-restart Lanczos on
// products with the sparse S, D^1/2 1 deflated (framework/linalg/sparse_eigs.hpp), in O(n k)
// memory: no factorisation (a sparse LU of I - S fills in to 153 M entries at 60,000
// Fashion-MNIST points). The approximate graph (auto: from 200,000 points above
// 20 dimensions) is built and queried on `threads` (neighbour_graph.hpp), so the embedding does
// not depend on the thread count.
#include <armadillo>
#include <memory>

#include <string>
#include "framework/core/method.hpp"

#include "framework/core/keywords.hpp"
#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench {

// A setting of the method's parameters, read once in its `make`.
struct LaplacianEigenmapsSetting {
  arma::uword neighbours = 10;
  bool binary = false;  // weights: binary
  keywords::KernelWidth width;
  std::string neighbour_graph = "auto";  // parse_graph_kind's text
};

class LaplacianEigenmaps final : public Method {
 public:
  static constexpr arma::uword kDenseLimit = 1500;
  explicit LaplacianEigenmaps(const LaplacianEigenmapsSetting& s,
                              arma::uword dense_limit = kDenseLimit)
      : s_(s), dense_limit_(dense_limit) {}
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return Y_; }
  arma::mat transform(const arma::mat& Xnew) const override;
  const arma::sp_mat& weights() const { return W_; }

 private:
  double weight(double sq_dist) const;
  LaplacianEigenmapsSetting s_;
  arma::uword dense_limit_;
  arma::mat X_;
  // Over X_: the training points' graph and the new points' neighbours.
  std::unique_ptr<NeighbourIndex> index_;
  arma::sp_mat W_;  // n x n graph weights
  arma::vec deg_;   // degrees d_j
  arma::vec mu_;    // eigenvalues of S for the kept vectors
  arma::mat U_;     // n x dim eigenvectors of S
  arma::mat Y_;     // dim x n
  double t_ = 1.0;  // heat-kernel width in squared input units
};

}  // namespace drbench
