#pragma once
// Supervised kernel LPP (Zheng, Zhou, Zou & Zhao 2007, Neurocomputing 70): kernel LPP whose graph
// joins only points of the same class, W_ij = exp(-|xi-xj|^2/t) when y_i = y_j (optionally only
// among each point's `neighbours` nearest same-class points), 0 otherwise.
#include "methods/kernel/kernel_subspace.hpp"

namespace drbench {

class SupervisedKernelLPP final : public GraphKernelLpp {
 public:
  using GraphKernelLpp::GraphKernelLpp;

 protected:
  // Refuses a task without labels, or whose classes have no two training points.
  arma::sp_mat distance_graph(const FitInput& in) const override;
};

// Symmetric sparse graph of Euclidean distances between same-class points: all pairs when k = 0,
// otherwise each point's k nearest same-class points (symmetrised).
arma::sp_mat class_graph(const arma::mat& X, const arma::uvec& y, std::size_t n_classes,
                         arma::uword k);

}  // namespace drbench
