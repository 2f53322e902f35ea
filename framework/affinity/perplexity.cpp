#include "framework/affinity/perplexity.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "framework/affinity/weights.hpp"
#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/knn_search.hpp"
#include "framework/neighbours/sparse_knn.hpp"
#include "framework/support/parallel.hpp"

namespace drbench {

namespace {

void check_perplexity(double perplexity, arma::uword candidates, arma::uword n, const char* what) {
  if (!(perplexity >= 1.0) || perplexity > static_cast<double>(candidates))
    throw MethodError(std::string(what) + ": 'perplexity' must be in [1, " +
                      std::to_string(candidates) + "] for " + std::to_string(n) +
                      " training points, got " + std::to_string(perplexity) +
                      " (fix: lower 'perplexity')");
}

}  // namespace

double calibrate_row(const arma::vec& d, arma::uword self, double perplexity, arma::vec& p,
                     const PerplexityOptions& opt) {
  const bool has_self = self < d.n_elem;
  const double target = std::log(perplexity);
  double beta = 1.0, lo = 0.0, hi = arma::datum::inf;
  for (int step = 0; step < opt.max_steps; ++step) {
    p = arma::exp(-beta * d);
    if (has_self) p(self) = 0.0;
    const double s = arma::accu(p);
    const double H = std::log(s) + beta * arma::dot(p, d) / s;  // entropy of p / s
    if (std::abs(H - target) < opt.tol) break;
    if (H > target) {
      lo = beta;
      beta = std::isinf(hi) ? beta * 2.0 : 0.5 * (beta + hi);
    } else {
      hi = beta;
      beta = 0.5 * (beta + lo);
    }
  }
  p = arma::exp(-beta * d);
  if (has_self) p(self) = 0.0;
  p /= arma::accu(p);
  return beta;
}

double row_entropy(const arma::vec& p) {
  double H = 0.0;
  for (double v : p)
    if (v > 0) H -= v * std::log(v);
  return H;
}

arma::mat conditional_affinities(const arma::mat& X, double perplexity,
                                 const PerplexityOptions& opt) {
  const arma::uword n = X.n_cols;
  check_perplexity(perplexity, n > 0 ? n - 1 : 0, n, "affinities");
  const arma::mat D = sq_distances(X);
  arma::mat Pc(n, n);
  arma::vec p(n);
  for (arma::uword i = 0; i < n; ++i) {
    arma::vec d = D.col(i);
    d(i) = arma::datum::inf;
    d -= d.min();
    d(i) = 0.0;  // its weight is forced to 0 by calibrate_row
    calibrate_row(d, i, perplexity, p, opt);
    Pc.col(i) = p;
  }
  return Pc;
}

arma::mat joint_affinities(const arma::mat& X, double perplexity, const PerplexityOptions& opt) {
  return symmetrize_joint(conditional_affinities(X, perplexity, opt));
}

namespace {

// Squared distance of dense columns i and j, summed in feature order.
struct DenseSqDist {
  const arma::mat& X;
  double operator()(arma::uword i, arma::uword j) const {
    const double *xi = X.colptr(i), *xj = X.colptr(j);
    double acc = 0.0;
    for (arma::uword r = 0; r < X.n_rows; ++r) acc += (xi[r] - xj[r]) * (xi[r] - xj[r]);
    return acc;
  }
};

// Row i of the sparse conditional affinities over its k listed neighbours (neighbour(j), j < k):
// squared distances (sq(i, j)), calibrated to the perplexity, written as column i's k entries of
// loc/val.
template <class Neighbour, class SqDist>
void neighbour_row(const SqDist& sq, arma::uword i, arma::uword k, Neighbour neighbour,
                   double perplexity, const PerplexityOptions& opt, arma::vec& d, arma::vec& p,
                   arma::umat& loc, arma::vec& val) {
  for (arma::uword j = 0; j < k; ++j) d(j) = sq(i, neighbour(j));
  d -= d.min();
  calibrate_row(d, k, perplexity, p, opt);
  for (arma::uword j = 0; j < k; ++j) {
    loc(0, i * k + j) = neighbour(j);
    loc(1, i * k + j) = i;
    // A weight that underflows would vanish from the sparse matrix: keep the edge, tiny.
    val(i * k + j) = std::max(p(j), 1e-300);
  }
}

}  // namespace

arma::sp_mat sparse_conditional_affinities(const arma::mat& X, double perplexity, int neighbours,
                                           const PerplexityOptions& opt) {
  const arma::uword n = X.n_cols;
  if (n < 2) throw MethodError("affinities: need at least 2 points, got " + std::to_string(n));
  arma::uword k =
      neighbours > 0
          ? static_cast<arma::uword>(neighbours)
          : std::min<arma::uword>(n - 1, static_cast<arma::uword>(std::floor(3.0 * perplexity)));
  if (k > n - 1)
    throw MethodError("affinities: 'neighbours' = " + std::to_string(k) +
                      " exceeds n - 1 = " + std::to_string(n - 1) + " (fix: lower 'neighbours')");
  check_perplexity(perplexity, k, n, "sparse affinities");
  const arma::umat nn = knn_indices(X, X, k, true);
  arma::umat loc(2, k * n);
  arma::vec val(k * n);
  arma::vec d(k), p(k);
  for (arma::uword i = 0; i < n; ++i) {
    neighbour_row(
        DenseSqDist{X}, i, k, [&](arma::uword j) { return nn(j, i); }, perplexity, opt, d, p, loc,
        val);
  }
  return arma::sp_mat(loc, val, n, n);
}

arma::sp_mat sparse_joint_affinities(const arma::mat& X, double perplexity, int neighbours,
                                     const PerplexityOptions& opt) {
  return symmetrize_joint(sparse_conditional_affinities(X, perplexity, neighbours, opt));
}

namespace {

template <class SqDist>
arma::sp_mat graph_conditional(const SqDist& sq, arma::uword n, const NeighbourGraph& g,
                               double perplexity, unsigned threads, const PerplexityOptions& opt) {
  const arma::uword k = g.k();
  if (g.n() != n) throw Error("internal: the neighbour graph does not match the data");
  if (n < 2) throw MethodError("affinities: need at least 2 points, got " + std::to_string(n));
  check_perplexity(perplexity, k, n, "sparse affinities");
  arma::umat loc(2, k * n);
  arma::vec val(k * n);
  parallel_blocks(n, threads, [&](std::size_t s, std::size_t e, std::size_t) {
    arma::vec d(k), p(k);
    for (std::size_t i = s; i < e; ++i) {
      neighbour_row(
          sq, i, k, [&](arma::uword j) { return g.index(j, i); }, perplexity, opt, d, p, loc, val);
    }
  });
  return arma::sp_mat(loc, val, n, n);
}

}  // namespace

arma::sp_mat graph_conditional_affinities(const arma::mat& X, const NeighbourGraph& g,
                                          double perplexity, unsigned threads,
                                          const PerplexityOptions& opt) {
  return graph_conditional(DenseSqDist{X}, X.n_cols, g, perplexity, threads, opt);
}

arma::sp_mat graph_conditional_affinities(const arma::sp_mat& X, const NeighbourGraph& g,
                                          double perplexity, unsigned threads,
                                          const PerplexityOptions& opt) {
  X.sync();
  auto sq = [&X](arma::uword i, arma::uword j) { return sparse_sq_dist(X, i, X, j); };
  return graph_conditional(sq, X.n_cols, g, perplexity, threads, opt);
}

arma::sp_mat graph_joint_affinities(const arma::mat& X, const NeighbourGraph& g, double perplexity,
                                    unsigned threads, const PerplexityOptions& opt) {
  return symmetrize_joint(graph_conditional_affinities(X, g, perplexity, threads, opt));
}

arma::sp_mat graph_joint_affinities(const arma::sp_mat& X, const NeighbourGraph& g,
                                    double perplexity, unsigned threads,
                                    const PerplexityOptions& opt) {
  return symmetrize_joint(graph_conditional_affinities(X, g, perplexity, threads, opt));
}

}  // namespace drbench
