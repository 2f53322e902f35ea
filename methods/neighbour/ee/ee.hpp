#pragma once
// Elastic embedding (Carreira-Perpinan 2010, ICML): nonparametric embedding minimising
//   E(Y) = sum w+_nm |y_n - y_m|^2 + lambda sum w-_nm exp(-|y_n - y_m|^2)
// with w+ Gaussian affinities of the inputs (calibrated to a perplexity, or of a fixed kernel
// width) and w- the squared input distances (the DEE paper's eq. 1), both scaled to sum to one so
// that lambda alone sets the balance. Optimisers: the spectral direction (Vladymyrov &
// Carreira-Perpinan 2012), the fixed-point iteration, gradient descent; each with backtracking
// Armijo (c = 0.1, rho = 0.8, started from the previous step) and the relative-change stop.
// Transductive.
//
// Linear time (`gradient: barnes_hut`, or auto from 5,000 points; Vladymyrov & Carreira-Perpinan
// 2014): w+ are entropic affinities on the shared kNN graph (neighbours, neighbour_graph), the
// repulsion is summed by Barnes-Hut (ee_bh_objective.hpp; theta = 0 is the dense objective), and
// the spectral direction solves 4 L+ + mu I by warm-started CG instead of a dense Cholesky factor,
// so its directions differ from the dense path's even at theta = 0. CG is preconditioned by a
// sparse LU factor of the same matrix on the graph of each point's `precondition_neighbours`
// (default 5) largest w+, computed once since w+ never changes: it carries the slow modes
// (clusters moving as wholes) that Jacobi-preconditioned CG needed its 50 steps for, so five steps
// (`cg_iterations` 0 = auto) now do; precondition_neighbours: 0 restores Jacobi and 50 steps.
// At 3 neighbours the factor was too sparse on Fashion-MNIST (the fit settled in a worse minimum);
// its fill grows as about n^1.9 (6.2 M entries at 20,000 points, 50.6 M at 60,000; counted in
// MethodInfo::memory). Results are the same bits for any thread count (the HNSW graph, where auto
// chooses it, depends on the data and the seed only; SuperLU runs on one thread). Cost:
// docs/benchmarks.md (20,000 Fashion-MNIST points: a third of the CPU time of the Jacobi
// version, 0.8x Barnes-Hut t-SNE's).
#include <armadillo>
#include <cstdint>
#include <string>

#include "framework/core/method.hpp"
#include "methods/common/graph_path.hpp"

namespace drbench {

struct OptimOptions;

// Whether a setting (its `gradient` choice, and whether its `weights` are perplexity) fits n
// points in dim dimensions on the linear-time path.
bool ee_uses_barnes_hut(const std::string& gradient, bool perplexity_weights, arma::uword n,
                        arma::uword dim);

// A setting of EE's parameters, read once in its `make`.
// The sparse path's settings are GraphPathSetting's (neighbours 0: 3 x perplexity).
struct EeSetting : GraphPathSetting {
  bool perplexity_weights = true;  // weights: perplexity (else gaussian at kernel_width)
  double perplexity = 20.0;
  double kernel_width = 1.0;
  double lambda = 100.0;
  std::string optimizer = "sd";
  int iterations = 1000;
  double tolerance = 1e-3;
  double mu = 1e-10;
  arma::uword precondition_neighbours = 5;
  std::int64_t cg_iterations = 0;
};

class ElasticEmbedding final : public FittedEmbedding<EeSetting> {
 public:
  explicit ElasticEmbedding(const EeSetting& s) : FittedEmbedding(s) {}
  void fit(const FitInput& in) override;
  double objective() const { return objective_; }
  int iterations() const { return iterations_; }
  const std::string& stop_reason() const { return stop_reason_; }

 private:
  void fit_linear_time(const FitInput& in);
  // Minimises from a small random start (the EE reference code's: every pair starts inside the
  // repulsion's range, so the embedding unfolds from the attraction/repulsion balance rather
  // than a guess) and keeps the result.
  template <class Objective>
  void minimize_from_small_start(const std::string& run, Objective& obj, const OptimOptions& opt,
                                 const FitInput& in, arma::uword n);
  double objective_ = 0.0;
  int iterations_ = 0;
  std::string stop_reason_;
};

}  // namespace drbench
