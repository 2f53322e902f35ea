#include "methods/manifold/laplacian_eigenmaps/laplacian_eigenmaps.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/dijkstra.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/eigen.hpp"

namespace drbench {

double LaplacianEigenmaps::weight(double sq_dist) const {
  return params_.str("weights") == "binary" ? 1.0 : std::exp(-sq_dist / t_);
}

void LaplacianEigenmaps::fit(const FitInput& in) {
  X_ = in.X;
  const arma::uword n = in.X.n_cols;
  const arma::uword k = static_cast<arma::uword>(params_.integer("neighbours"));
  if (in.dim + 1 >= n)
    throw MethodError("laplacian_eigenmaps: dims=" + std::to_string(in.dim) + " needs more than " +
                      std::to_string(in.dim + 1) + " training points");
  arma::sp_mat G = knn_graph(in.X, k);
  arma::uword nc = 0;
  connected_components(G, nc);
  if (nc > 1)
    throw MethodError("laplacian_eigenmaps: the kNN graph with neighbours=" + std::to_string(k) +
                      " has " + std::to_string(nc) +
                      " connected components (the embedding would only separate them); "
                      "increase neighbours");
  const arma::vec len = arma::nonzeros(G);
  t_ = keywords::kernel_width_of(params_).heat_t(std::max(arma::mean(arma::square(len)), 1e-300));
  W_ = G;
  for (auto it = W_.begin(); it != W_.end(); ++it) *it = weight((*it) * (*it));
  deg_ = arma::vec(arma::sum(W_, 1));
  const arma::vec dinv = 1.0 / arma::sqrt(deg_);
  arma::sp_mat S = W_;
  for (auto it = S.begin(); it != S.end(); ++it) *it = (*it) * dinv(it.row()) * dinv(it.col());
  arma::vec mu;
  arma::mat U;
  bool ok = false;
  if (n > 1500) {
    arma::eigs_opts opts;
    opts.tol = 1e-12;
    opts.maxiter = 5000;
    ok = arma::eigs_sym(mu, U, S, in.dim + 1, "la", opts);
  }
  if (ok) {
    const arma::uvec order = arma::sort_index(mu, "descend");
    mu = mu(order);
    U = U.cols(order);
  } else {
    const EigenPairs e = sym_eigs(arma::mat(S), in.dim + 1, Spectrum::Largest);
    mu = e.values;
    U = e.vectors;
  }
  // Column 0 is the trivial D^1/2 1 (mu = 1): a constant embedding.
  mu_ = mu.tail(in.dim);
  U_ = U.tail_cols(in.dim);
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
  const arma::uword k = static_cast<arma::uword>(params_.integer("neighbours"));
  const arma::uword n = X_.n_cols;
  const arma::mat E = sq_distances(X_, Xnew);
  arma::mat Y(U_.n_cols, Xnew.n_cols);
  std::vector<arma::uword> idx(n);
  const arma::vec rs = 1.0 / arma::sqrt(deg_);
  for (arma::uword q = 0; q < Xnew.n_cols; ++q) {
    std::iota(idx.begin(), idx.end(), 0);
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](arma::uword a, arma::uword b) {
      return E(a, q) < E(b, q) || (E(a, q) == E(b, q) && a < b);
    });
    arma::vec w(n, arma::fill::zeros);
    // Exact recheck: the BLAS-3 squared distances of identical points are only ~1e-15, not 0.
    if (arma::accu(arma::square(X_.col(idx[0]) - Xnew.col(q))) == 0.0) {
      w = arma::vec(arma::mat(W_.col(idx[0])));  // a training point: its own graph row
    } else {
      for (arma::uword j = 0; j < k; ++j) w(idx[j]) = weight(E(idx[j], q));
    }
    const double dx = arma::accu(w);
    if (!(dx > 0)) {
      Y.col(q).zeros();
      continue;
    }
    const arma::vec u = (U_.t() * (w % rs)) / (std::sqrt(dx) * mu_);
    Y.col(q) = u / std::sqrt(dx);
  }
  return Y;
}

namespace {

const char* const kReference = "the width whose t is the mean squared edge length";

MethodInfo le_info() {
  MethodInfo m;
  m.name = "laplacian_eigenmaps";
  m.family = "manifold";
  m.summary = "Laplacian eigenmaps on a heat-kernel kNN graph; Nystroem out-of-sample";
  m.reference = "Belkin & Niyogi 2003, Neural Computation 15(6); Bengio et al. 2003 (NIPS 16)";
  m.params = {
      keywords::neighbours(10, 1, 500, "the kNN graph (papers vary 2..20)"),
      keywords::weights("on the kNN edges"),
      keywords::kernel_width(1.0, kReference),
      keywords::width("relative", kReference),
  };
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 1 ? s.n - 2 : 0; };
  m.cost = [](const DataShape& s, const ParamSet& p, arma::uword) {
    return double(s.n) * (s.n * s.d + 100.0 * double(p.integer("neighbours")));
  };
  m.transform_reproduces_embedding = true;
  m.make = [](const ParamSet& p) { return std::make_unique<LaplacianEigenmaps>(p); };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(le_info)
}  // namespace drbench
