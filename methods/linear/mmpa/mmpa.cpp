#include "methods/linear/mmpa/mmpa.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/eigen.hpp"

namespace drbench {

namespace {

struct PairMasks {
  arma::mat D;       // Euclidean distances
  arma::umat intra;  // same class, i != j
  arma::umat inter;  // different classes
};

PairMasks pair_masks(const arma::mat& X, const arma::uvec& labels) {
  const arma::uword n = X.n_cols;
  if (labels.n_elem != n)
    throw MethodError("mmpa: " + std::to_string(labels.n_elem) + " labels for " +
                      std::to_string(n) + " training points");
  PairMasks p;
  p.D = arma::sqrt(sq_distances(X));
  const arma::umat same = arma::repmat(labels, 1, n) == arma::repmat(labels.t(), n, 1);
  p.intra = same % (1 - arma::eye<arma::umat>(n, n));
  p.inter = 1 - same;
  if (arma::accu(p.intra) == 0 || arma::accu(p.inter) == 0)
    throw MethodError(
        "mmpa needs at least two classes and a class with two or more training points");
  return p;
}

// S = X L X^T for a dense symmetric W; translation invariant because the rows of L sum to 0.
arma::mat laplacian_form(const arma::mat& X, const arma::mat& W) {
  arma::mat XD = X;
  XD.each_row() %= arma::sum(W, 0);
  arma::mat Q = XD * X.t() - (X * W) * X.t();
  return 0.5 * (Q + Q.t());
}

// Indices of row i's candidates (mask(i, j) != 0) ordered by distance, nearest or farthest
// first, ties to the lower index.
std::vector<arma::uword> ranked(const PairMasks& p, const arma::umat& mask, arma::uword i,
                                bool farthest) {
  std::vector<arma::uword> idx;
  for (arma::uword j = 0; j < mask.n_cols; ++j)
    if (mask(i, j)) idx.push_back(j);
  std::sort(idx.begin(), idx.end(), [&](arma::uword a, arma::uword b) {
    const double da = p.D(i, a), db = p.D(i, b);
    if (da != db) return farthest ? da > db : da < db;
    return a < b;
  });
  return idx;
}

}  // namespace

MmpaGraphs mmpa_threshold_graphs(const arma::mat& X, const arma::uvec& labels, double eps_w,
                                 double eps_b) {
  const PairMasks p = pair_masks(X, labels);
  MmpaGraphs g;
  g.eps_w = eps_w > 0 ? eps_w : arma::accu(p.D % p.intra) / arma::accu(p.intra);
  g.eps_b = eps_b > 0 ? eps_b : arma::accu(p.D % p.inter) / arma::accu(p.inter);
  g.W_intra = arma::conv_to<arma::mat>::from(p.intra % (p.D > g.eps_w));
  g.W_inter = arma::conv_to<arma::mat>::from(p.inter % (p.D < g.eps_b));
  if (arma::accu(g.W_intra) == 0)
    throw MethodError(
        "mmpa: no same-class pair is farther apart than eps_w=" + std::to_string(g.eps_w) +
        "; lower 'eps_w' (0 = average intra-class distance)");
  if (arma::accu(g.W_inter) == 0)
    throw MethodError(
        "mmpa: no pair of different classes is closer than eps_b=" + std::to_string(g.eps_b) +
        "; raise 'eps_b' (0 = average inter-class distance)");
  return g;
}

MmpaGraphs mmpa_knn_graphs(const arma::mat& X, const arma::uvec& labels, arma::uword k_w,
                           arma::uword k_b) {
  if (k_w == 0 || k_b == 0)
    throw MethodError("mmpa: 'neighbours_within' and 'neighbours_between' must be at least 1");
  const PairMasks p = pair_masks(X, labels);
  const arma::uword n = X.n_cols;
  MmpaGraphs g;
  g.W_intra.zeros(n, n);
  g.W_inter.zeros(n, n);
  for (arma::uword i = 0; i < n; ++i) {
    const auto far = ranked(p, p.intra, i, true);
    for (arma::uword r = 0; r < std::min<arma::uword>(k_w, far.size()); ++r)
      g.W_intra(i, far[r]) = g.W_intra(far[r], i) = 1.0;
    const auto near = ranked(p, p.inter, i, false);
    for (arma::uword r = 0; r < std::min<arma::uword>(k_b, near.size()); ++r)
      g.W_inter(i, near[r]) = g.W_inter(near[r], i) = 1.0;
  }
  return g;
}

void Mmpa::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  require_dim(in.dim, in.X.n_rows, "at most d projection directions");
  const MmpaGraphs g = graph_ == MmpaGraph::Threshold
                           ? mmpa_threshold_graphs(in.X, y, eps_w_, eps_b_)
                           : mmpa_knn_graphs(in.X, y, k_w_, k_b_);
  eps_w_used_ = g.eps_w;
  eps_b_used_ = g.eps_b;
  if (in.trace && graph_ == MmpaGraph::Threshold) {
    in.trace->note("eps_w", std::to_string(g.eps_w));
    in.trace->note("eps_b", std::to_string(g.eps_b));
  }
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  EigenPairs e = gen_sym_eigs(laplacian_form(Xc, g.W_inter), laplacian_form(Xc, g.W_intra), in.dim,
                              Spectrum::Largest, sigma_, "reg", "intra-class term X L_intra X^T");
  fix_signs(e.vectors);
  set_eigen_projection(in.X, mean, e.vectors, e.values);
}

namespace {

MethodInfo mmpa_info() {
  MethodInfo m = describe_method(
      "mmpa", "linear",
      "min-max projection analysis: pull far same-class pairs in, push near other-class pairs out",
      "Zheng et al., Neurocomputing 123 (2014) 121-130, in the form of Zheng et al., Comput. Math. "
      "Methods Med. 2014, section 2.3 eq. 9 and section 4.4 (graphs and sigma: see mmpa.hpp)");
  const ChoiceKey graph =
      ParamSpec::choice("graph", "threshold", {"threshold", "knn"},
                        "threshold: pairs beyond eps_w / within eps_b (the DEE setting); knn: "
                        "the neighbours_within farthest same-class and neighbours_between "
                        "nearest other-class points");
  const RealKey eps_w =
      ParamSpec::real("eps_w", 0.0, 0.0, 1e12,
                      "graph=threshold: same-class pairs farther apart than this are pulled "
                      "together; 0 = average intra-class distance");
  const RealKey eps_b =
      ParamSpec::real("eps_b", 0.0, 0.0, 1e12,
                      "graph=threshold: different-class pairs closer than this are pushed apart; "
                      "0 = average inter-class distance");
  const IntKey neighbours_within = ParamSpec::integer(
      "neighbours_within", 5, 1, 100000, "graph=knn: farthest same-class points per point");
  const IntKey neighbours_between = ParamSpec::integer(
      "neighbours_between", 10, 1, 100000, "graph=knn: nearest other-class points per point");
  const RealKey reg = keywords::ridge(3.0, 0.0, 1e6, false,
                                      "on the intra-class term X L_intra X^T, relative to its "
                                      "trace/dim (1-NN error on USPS is lowest near 3-10; 0 needs "
                                      "n > d)")
                          .with(keywords::formerly("reg"));
  m.params = {graph, eps_w, eps_b, neighbours_within, neighbours_between, reg};
  m.supervised = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.d; };
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Mmpa>(graph(p) == "knn" ? MmpaGraph::Knn : MmpaGraph::Threshold,
                                  eps_w(p), eps_b(p), arma::uword(neighbours_within(p)),
                                  arma::uword(neighbours_between(p)), reg(p));
  };
  return m;
}

}  // namespace
// Distances, the same-class mask and the two dense graphs with their Laplacians: about eight
// n x n at once.
DRBENCH_METHOD(
    mmpa_info,
    linear_budget([](const TaskSize& z) { return 2.0 * z.n * z.n * z.d + z.d * z.d * z.d; },
                  [](const TaskSize& z) { return 8.0 * 8.0 * z.n * z.n; }))
}  // namespace drbench
