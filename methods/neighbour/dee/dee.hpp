#pragma once
// DEE, the discriminative elastic embedding (papers/001, section 3): a linear map A (dim x D)
// fitted by minimising eq. 12 with one of the paper's four optimisers (section 4.2): the Laplacian
// direction (ld), the fixed point (fp), conjugate gradients (cg) or gradient descent (gd), each
// with a Wolfe line search, stopping when |A_new - A| <= tolerance |A| or after `iterations`.
// Objective, gradient and directions: dee_objective.hpp. Out of sample: A x.
// Linear time (`gradient: barnes_hut`, or auto from 5,000 points in 1 to 3 dimensions): w+ on the
// class-restricted kNN graph (`neighbours`, `neighbour_graph`), the different-class repulsion by
// Barnes-Hut on Y = A X (`theta`), the same optimisers (dee_bh_objective.hpp). The sparse w+ is a
// different model from the dense one (its truncation), so `balanced` scales w- to the sparse
// total. Results are the same bits for any thread count (an HNSW graph, where chosen, depends on
// the data and the seed only). `attraction: all_pairs` keeps the dense w+ (its scatter matrix
// formed once in O(sum_c n_c^2 D) time, O(n_c) memory per column block), so only the repulsion
// is approximated.
#include <armadillo>
#include <string>

#include "framework/core/keywords.hpp"
#include "framework/core/linear_method.hpp"
#include "framework/core/params.hpp"

namespace drbench {

struct DeeSettings {
  // sigma of w+; relative 1 (the default): 2 sigma^2 = the mean same-class squared distance
  keywords::KernelWidth kernel_width;
  double lambda = 1.0;
  // w- scaled to the total of w+ (the `repulsion` parameter): the same model as eq. 12 with
  // lambda_raw = lambda sum(w+) / sum(w-), but a lambda that does not depend on the pixel scale or
  // the number of pairs. The paper does not give its lambda.
  bool balanced = true;
  bool pca_start = false;  // A0 from the leading principal directions instead of Gaussian rows
  std::string optimizer = "ld";  // ld | fp | cg | gd
  int iterations = 1000;
  double tolerance = 1e-3;
  double mu = 1e-3;  // ridge of the ld/fp matrix, relative to its trace / D
  // exact | barnes_hut (the linear-time path, dee_bh_objective.hpp) | auto (dee_uses_barnes_hut)
  std::string gradient = "exact";
  double theta = 0.5;
  arma::uword neighbours = 30;
  bool all_pairs_attraction = false;  // barnes_hut: w+ on every same-class pair (S formed once)
  std::string neighbour_graph = "auto";
};

// Whether a setting takes the linear-time path for n points in dim dimensions (`gradient`).
bool dee_uses_barnes_hut(const std::string& gradient, arma::uword n, arma::uword dim);

class Dee final : public LinearMethod {
 public:
  explicit Dee(DeeSettings s) : LinearMethod("dee"), s_(std::move(s)) {}
  void fit(const FitInput& in) override;
  int iterations_run() const { return iterations_; }
  double objective() const { return objective_; }
  const std::string& stop_reason() const { return stop_reason_; }

 private:
  // Runs the chosen optimiser on either objective (dense or Barnes-Hut) from A0; returns A.
  template <class Obj>
  arma::mat optimise(Obj& obj, const arma::mat& A0, const FitInput& in, double& mu);
  DeeSettings s_;
  int iterations_ = 0;
  double objective_ = 0.0;
  std::string stop_reason_;
};

}  // namespace drbench
