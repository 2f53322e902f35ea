#pragma once
// DSNE, discriminative stochastic neighbour embedding, as the DEE paper (papers/001 section 2.2)
// states it: a linear map A (dim x D) minimising the class-split KL divergence of eq. 7 with
// nonlinear conjugate gradients and a Wolfe line search. No public code exists; the objective and
// gradient are derived in dsne_objective.hpp and checked by finite differences. Out of sample: A x.
// In 2-D this objective does not separate classes (the paper's Figs. 7-10 show clusters): the two
// groups are normalised apart, so nothing in E rewards a gap between classes, and a nearly flat P
// over different-class pairs asks for even different-class distances. Layouts that separate the
// classes score a higher E than the mixed optimum; scripts/dsne_reference.py (an independent
// numpy DSNE) shows it, and agrees with this objective to 1e-11 (results/figures/README.md).
// Linear time (`gradient: barnes_hut`, or auto from 5,000 points in 1 to 3 dimensions): P on the
// same-class and different-class kNN graphs (`neighbours` each, `neighbour_graph`), both groups'
// Student-t sums by Barnes-Hut on Y = A X (`theta`): dsne_bh_objective.hpp. The sparse P is a
// different model from the dense one (its truncation). Same bits for any thread count.
// E is flat near its optimum, so CG's path amplifies round-off: a start that moves by round-off
// only (init: pca after the one-PCA change; another BLAS) can stop hundreds of iterations apart
// at a nearby E (results/figures/README.md).
#include <armadillo>
#include <string>
#include <utility>

#include "framework/core/keywords.hpp"
#include "methods/common/linear_method.hpp"
#include "methods/neighbour/linear_embedding.hpp"

namespace drbench {

// DSNE's settings are the shared ones (linear_embedding.hpp; kernel_width is the sigma of eq. 5).
using DsneSettings = LinearEmbeddingSettings;

class Dsne final : public LinearEmbedding<DsneSettings> {
 public:
  explicit Dsne(DsneSettings s) : LinearEmbedding("dsne", std::move(s)) {}
  void fit(const FitInput& in) override;
};

}  // namespace drbench
