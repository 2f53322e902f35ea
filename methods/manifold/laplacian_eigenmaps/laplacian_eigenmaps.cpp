#include "methods/manifold/laplacian_eigenmaps/laplacian_eigenmaps.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/sparse_eigs.hpp"
#include "framework/neighbours/dijkstra.hpp"
#include "framework/neighbours/graph_memory.hpp"

namespace drbench {

namespace {

// Seconds since t0: the graph and eigensolver stages noted in the trace (benchmarks read them).
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

double LaplacianEigenmaps::weight(double sq_dist) const {
  return s_.binary ? 1.0 : std::exp(-sq_dist / t_);
}

void LaplacianEigenmaps::fit(const FitInput& in) {
  X_ = in.X;
  const arma::uword n = in.X.n_cols;
  const arma::uword k = s_.neighbours;
  if (in.dim + 1 >= n)
    throw MethodError("laplacian_eigenmaps: dims=" + std::to_string(in.dim) + " needs more than " +
                      std::to_string(in.dim + 1) + " training points");
  GraphOptions go = fit_graph_options(s_.neighbour_graph, in.threads, in.rng);
  const auto t0 = std::chrono::steady_clock::now();
  index_ = std::make_unique<NeighbourIndex>(X_, k, go);
  arma::sp_mat G = symmetric_adjacency(index_->self_graph(k));
  if (in.trace && index_->approximate()) in.trace->note("neighbour_graph", "approximate");
  if (in.trace) in.trace->note("graph_seconds", std::to_string(seconds_since(t0)));
  arma::uword nc = 0;
  connected_components(G, nc);
  if (nc > 1)
    throw MethodError("laplacian_eigenmaps: the kNN graph with neighbours=" + std::to_string(k) +
                      " has " + std::to_string(nc) +
                      " connected components (the embedding would only separate them); "
                      "increase neighbours");
  const arma::vec len = arma::nonzeros(G);
  t_ = s_.width.heat_t(std::max(arma::mean(arma::square(len)), 1e-300));
  W_ = std::move(G);
  for (auto it = W_.begin(); it != W_.end(); ++it) *it = weight((*it) * (*it));
  deg_ = arma::vec(arma::sum(W_, 1));
  const arma::vec dinv = 1.0 / arma::sqrt(deg_);
  arma::sp_mat S = W_;
  for (auto it = S.begin(); it != S.end(); ++it) *it = (*it) * dinv(it.row()) * dinv(it.col());
  if (n <= dense_limit_) {
    const EigenPairs e = sym_eigs(arma::mat(S), in.dim + 1, Spectrum::Largest);
    // Column 0 is the trivial D^1/2 1 (mu = 1): a constant embedding.
    mu_ = e.values.tail(in.dim);
    U_ = e.vectors.tail_cols(in.dim);
  } else {
    // The top of S's spectrum is D^1/2 1 (mu = 1) and then the wanted vectors: Lanczos on
    // products with the sparse S, the trivial vector deflated, converges without factorising
    // anything (the wanted mu are the largest, unlike LLE's bottom of M), in O(n k) memory.
    arma::vec u0 = arma::sqrt(deg_);
    u0 /= arma::norm(u0);
    const SymOperator op = [&S](const arma::vec& x, arma::vec& y) { y = S * x; };
    LanczosOptions lo;
    lo.tol = 1e-10;
    lo.basis = std::max<arma::uword>(2 * in.dim + 20, 60);
    lo.max_restarts = 2000;
    const LanczosResult r = lanczos_largest(op, n, in.dim, arma::mat(u0), lo);
    if (!r.converged)
      throw MethodError(
          "laplacian_eigenmaps: the sparse eigensolver (Lanczos) did not converge "
          "(relative residual " +
          std::to_string(r.max_residual) + "); increase neighbours");
    mu_ = r.values;
    U_ = r.vectors;
    if (in.trace) {
      in.trace->note("eigen_seconds", std::to_string(seconds_since(t0)));
      in.trace->note("eigensolver", "Lanczos");
      in.trace->note("lanczos_products", std::to_string(r.products));
    }
  }
  fix_signs(U_);
  if (mu_.min() <= 0)
    throw MethodError(
        "laplacian_eigenmaps: non-positive eigenvalue of the normalised affinity "
        "for dims=" +
        std::to_string(in.dim) + "; lower dims or increase neighbours");
  Y_ = (U_.each_col() % dinv).t();
}

arma::mat LaplacianEigenmaps::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != X_.n_rows)
    throw MethodError("laplacian_eigenmaps transform: new points have " +
                      std::to_string(Xnew.n_rows) + " features, the training data " +
                      std::to_string(X_.n_rows));
  const arma::uword k = s_.neighbours;
  const NeighbourGraph nb = index_->query(Xnew, std::min(k, X_.n_cols));
  arma::mat Y(U_.n_cols, Xnew.n_cols);
  const arma::vec rs = 1.0 / arma::sqrt(deg_);
  for (arma::uword q = 0; q < Xnew.n_cols; ++q) {
    arma::vec u(U_.n_cols, arma::fill::zeros);
    double dx = 0.0;
    if (nb.dist(0, q) == 0.0) {
      // A training point: its own graph row, so the embedding is reproduced.
      const arma::uword i = nb.index(0, q);
      for (auto it = W_.begin_col(i); it != W_.end_col(i); ++it) {
        dx += *it;
        u += (*it * rs(it.row())) * U_.row(it.row()).t();
      }
    } else {
      for (arma::uword j = 0; j < nb.k(); ++j) {
        const arma::uword i = nb.index(j, q);
        const double w = weight(nb.dist(j, q) * nb.dist(j, q));
        dx += w;
        u += (w * rs(i)) * U_.row(i).t();
      }
    }
    if (!(dx > 0)) {
      Y.col(q).zeros();
      continue;
    }
    Y.col(q) = u / (std::sqrt(dx) * mu_) / std::sqrt(dx);
  }
  return Y;
}

namespace {

const char* const kReference = "the width whose t is the mean squared edge length";

// The parameters the contract and the budget both read.
struct LeKeys {
  IntKey neighbours = keywords::neighbours(10, 1, 500, "the kNN graph (papers vary 2..20)");
  // Added with the sparse path: at its default the setting keys of earlier results still resume.
  ChoiceKey neighbour_graph = keywords::neighbour_graph("auto").with(keywords::unkeyed);
};

MethodInfo le_info() {
  MethodInfo m = describe_method(
      "laplacian_eigenmaps", "manifold",
      "Laplacian eigenmaps on a heat-kernel kNN graph; Nystroem out-of-sample",
      "Belkin & Niyogi 2003, Neural Computation 15(6); Bengio et al. 2003 (NIPS 16)");
  const auto [neighbours, neighbour_graph] = LeKeys{};
  const ChoiceKey weights = keywords::weights("on the kNN edges");
  const RealKey kernel_width = keywords::kernel_width(1.0, kReference);
  const ChoiceKey width = keywords::width("relative", kReference);
  m.params = {neighbours, weights, kernel_width, width, neighbour_graph};
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 1 ? s.n - 2 : 0; };
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<LaplacianEigenmaps>(LaplacianEigenmapsSetting{
        arma::uword(neighbours(p)), weights(p) == "binary",
        keywords::KernelWidth{kernel_width(p), width(p) == "relative"}, neighbour_graph(p)});
  };
  return m;
}

Budget le_budget() {
  const LeKeys keys;
  TaskEstimate cost = [=](const TaskSize& z) {
    return z.n * (z.n * z.d + 100.0 * double(keys.neighbours(z.p)));
  };
  // The data and the method's copy; the graph; W, S and their temporaries (~4 sparse copies of
  // about 1.5 k n edges, 16 bytes each); then the eigensolver: dense S and LAPACK's copy up to
  // the dense limit, Lanczos above it.
  TaskEstimate memory = [=](const TaskSize& z) {
    const double n = z.n, d = z.d;
    const arma::uword k = static_cast<arma::uword>(keys.neighbours(z.p));
    double bytes = kProcessBaseBytes + 16.0 * n * d +
                   neighbour_graph_memory(z.shape.n, z.shape.d, k, keys.neighbour_graph(z.p)) +
                   4.0 * 1.5 * double(k) * n * 16.0 + 8.0 * n * 4.0;
    bytes += z.shape.n <= LaplacianEigenmaps::kDenseLimit
                 ? 2.0 * 8.0 * n * n
                 : lanczos_memory(z.shape.n, std::max<arma::uword>(2 * z.dim + 20, 60));
    return bytes + 8.0 * n * 2.0 * z.q;
  };
  return make_budget(std::move(cost), std::move(memory));
}

}  // namespace
DRBENCH_METHOD(le_info, le_budget())
}  // namespace drbench
