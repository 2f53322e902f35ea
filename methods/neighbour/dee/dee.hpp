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
#include "framework/core/params.hpp"
#include "methods/common/linear_method.hpp"
#include "methods/neighbour/linear_embedding.hpp"

namespace drbench {

// The shared settings (linear_embedding.hpp: kernel_width is w+'s sigma, gradient's barnes_hut the
// path of dee_bh_objective.hpp) and DEE's own.
struct DeeSettings : LinearEmbeddingSettings {
  double lambda = 1.0;
  // w- scaled to the total of w+ (the `repulsion` parameter): the same model as eq. 12 with
  // lambda_raw = lambda sum(w+) / sum(w-), but a lambda that does not depend on the pixel scale or
  // the number of pairs. The paper does not give its lambda.
  bool balanced = true;
  std::string optimizer = "ld";       // ld | fp | cg | gd
  double mu = 1e-3;                   // ridge of the ld/fp matrix, relative to its trace / D
  bool all_pairs_attraction = false;  // barnes_hut: w+ on every same-class pair (S formed once)
};

class Dee final : public LinearEmbedding<DeeSettings> {
 public:
  explicit Dee(DeeSettings s) : LinearEmbedding("dee", std::move(s)) {}
  void fit(const FitInput& in) override;
  int iterations_run() const { return iterations_; }
  const std::string& stop_reason() const { return stop_reason_; }

 private:
  // Runs the chosen optimiser on either objective (dense or Barnes-Hut) from A0; returns A.
  template <class Obj>
  arma::mat optimise(Obj& obj, const arma::mat& A0, const FitInput& in, double& mu);
  int iterations_ = 0;
  std::string stop_reason_;
};

}  // namespace drbench
