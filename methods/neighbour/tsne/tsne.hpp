#pragma once
// t-SNE (van der Maaten & Hinton 2008) with the exact O(n^2) gradient, the Barnes-Hut
// approximation (van der Maaten 2014) or FFT-accelerated interpolation (Linderman et al. 2019,
// FIt-SNE; framework/nbody/fft_interpolation.hpp); `gradient: auto` takes FFT from 10,000 points
// in 1-D and 2-D and Barnes-Hut otherwise. Affinities from framework/affinity: all points for the
// exact gradient, otherwise the 3 x perplexity nearest neighbours on the shared neighbour graph
// (framework/neighbours/neighbour_graph.hpp; `neighbour_graph: auto` searches HNSW from 200,000
// points above 20 dimensions). The optimiser is the phased momentum/gains descent ("momentum" in
// the optimiser table) with the openTSNE schedule: exaggeration 12 for 250 iterations at momentum
// 0.5, then exaggeration 1 at momentum 0.8; learning rate max(n / 12, 200) on the gradient / 4;
// start from PCA scaled to std 1e-4. Transductive: the embedding of the training points only.
//
// Threads (FitInput::threads) split the neighbour search, the perplexity calibration, the
// attractive forces, the Barnes-Hut tree queries and the FFT spreading and interpolation, each
// point writing its own column (the spreading: each charge its own grid) and sums added in a
// fixed order: the embedding is the same to the bit for any thread count. (The exact gradient runs
// on one thread.)
#include <armadillo>
#include <cstdint>
#include <string>

#include "framework/core/method.hpp"
#include "framework/core/params.hpp"
#include "methods/common/graph_path.hpp"

namespace drbench {

// `gradient: auto` takes the FFT gradient from these many points in 1-D and in 2-D, Barnes-Hut
// below them and in 3-D: where FFT's CPU time per iteration (one thread, Fashion-MNIST PCA-50,
// benchmarks/tsne_auto.sh) falls below Barnes-Hut's (docs/benchmarks.md, "t-SNE gradient: auto").
// In 1-D FFT is the faster from 5,000 points, the smallest size measured; in 2-D its fixed grid
// cost keeps it slower through 20,000 points (Barnes-Hut 1.1-1.9x faster), the two are even at
// 40,000 (FFT 0.97x Barnes-Hut) and FFT is 1.7x faster at 60,000.
inline constexpr arma::uword kTsneFftFrom1d = 5000;
inline constexpr arma::uword kTsneFftFrom2d = 40000;
// The gradient a setting's choice runs for n points in dim dimensions (auto resolved).
std::string tsne_gradient_for(const std::string& choice, arma::uword n, arma::uword dim);

// A setting of t-SNE's parameters, read once in its `make`.
// The sparse path's settings are GraphPathSetting's (gradient: tsne_gradient_for's choice;
// neighbours 0: 3 x perplexity).
struct TsneSetting : GraphPathSetting {
  double perplexity = 30.0;
  int iterations = 1000;
  double early_exaggeration = 12.0;
  int exaggeration_iterations = 250;
  double learning_rate = 0.0;  // 0: max(n / early_exaggeration, 200)
  bool pca_init = true;
};

class Tsne final : public FittedEmbedding<TsneSetting> {
 public:
  explicit Tsne(const TsneSetting& s) : FittedEmbedding(s) {}
  void fit(const FitInput& in) override;
  double kl() const { return kl_; }

 private:
  double kl_ = 0.0;
};

}  // namespace drbench
