#include "framework/affinity/graph_affinities.hpp"

#include <algorithm>
#include <string>

#include "framework/affinity/weights.hpp"
#include "framework/core/error.hpp"
#include "framework/core/parallel.hpp"

namespace drbench {

arma::sp_mat graph_conditional_affinities(const NeighbourGraph& g, double perplexity,
                                          unsigned threads, const PerplexityOptions& opt) {
  const arma::uword n = g.n(), k = g.k();
  if (!(perplexity >= 1.0) || perplexity > static_cast<double>(k))
    throw MethodError("affinities: 'perplexity' must be in [1, " + std::to_string(k) +
                      "] on a graph of " + std::to_string(k) + " neighbours, got " +
                      std::to_string(perplexity) +
                      " (fix: lower 'perplexity' or raise 'neighbours')");
  arma::umat loc(2, k * n);
  arma::vec val(k * n);
  parallel_blocks(n, threads, [&](std::size_t s, std::size_t e, std::size_t) {
    arma::vec d(k), p(k);
    for (arma::uword i = s; i < e; ++i) {
      for (arma::uword j = 0; j < k; ++j) d(j) = g.dist(j, i) * g.dist(j, i);
      d -= d.min();
      calibrate_row(d, k, perplexity, p, opt);
      for (arma::uword j = 0; j < k; ++j) {
        loc(0, i * k + j) = g.index(j, i);
        loc(1, i * k + j) = i;
        // A weight that underflows would vanish from the sparse matrix: keep the edge, tiny.
        val(i * k + j) = std::max(p(j), 1e-300);
      }
    }
  });
  return arma::sp_mat(loc, val, n, n);
}

arma::sp_mat graph_joint_affinities(const NeighbourGraph& g, double perplexity, unsigned threads,
                                    const PerplexityOptions& opt) {
  return symmetrize_joint(graph_conditional_affinities(g, perplexity, threads, opt));
}

}  // namespace drbench
