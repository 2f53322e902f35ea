#include "methods/neighbour/pacmap/pacmap.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/pca.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "methods/neighbour/own_layout.hpp"

namespace drbench {

namespace pacmap {

Weights weights_at(int itr) {
  constexpr double kMnStart = 1000.0;
  if (itr < 100) {
    const double t = double(itr) / 100.0;
    return {2.0, (1.0 - t) * kMnStart + t * 3.0, 1.0};
  }
  if (itr < 200) return {3.0, 3.0, 1.0};
  return {1.0, 0.0, 1.0};
}

namespace {

// Adds one kind of pair: loss f(d) with d = 1 + |y_i - y_j|^2 and df/dd.
template <class F>
double add_pairs(const arma::mat& Y, const arma::umat& P, double w, arma::mat* grad, F f) {
  if (w == 0.0) return 0.0;
  const arma::uword dim = Y.n_rows;
  double total = 0.0;
  for (arma::uword e = 0; e < P.n_cols; ++e) {
    const double* yi = Y.colptr(P(0, e));
    const double* yj = Y.colptr(P(1, e));
    double d = 1.0;
    for (arma::uword k = 0; k < dim; ++k) d += (yi[k] - yj[k]) * (yi[k] - yj[k]);
    double df = 0.0;
    total += w * f(d, df);
    if (grad) {
      double* gi = grad->colptr(P(0, e));
      double* gj = grad->colptr(P(1, e));
      const double c = 2.0 * w * df;
      for (arma::uword k = 0; k < dim; ++k) {
        const double g = c * (yi[k] - yj[k]);
        gi[k] += g;
        gj[k] -= g;
      }
    }
  }
  return total;
}

}  // namespace

double loss(const arma::mat& Y, const Pairs& p, const Weights& w, arma::mat* grad) {
  if (grad) grad->zeros(Y.n_rows, Y.n_cols);
  double f = add_pairs(Y, p.nb, w.nb, grad, [](double d, double& df) {
    df = 10.0 / ((10.0 + d) * (10.0 + d));
    return d / (10.0 + d);
  });
  f += add_pairs(Y, p.mn, w.mn, grad, [](double d, double& df) {
    df = 10000.0 / ((10000.0 + d) * (10000.0 + d));
    return d / (10000.0 + d);
  });
  f += add_pairs(Y, p.fp, w.fp, grad, [](double d, double& df) {
    df = -1.0 / ((1.0 + d) * (1.0 + d));
    return 1.0 / (1.0 + d);
  });
  return f;
}

arma::umat neighbour_pairs(const arma::umat& index, const arma::mat& dist, arma::uword n_nb) {
  const arma::uword k = index.n_rows, n = index.n_cols;
  n_nb = std::min(n_nb, k);
  // sigma_i: mean distance to the 4th-6th neighbours (fewer where the graph is shorter).
  arma::vec sigma(n);
  const arma::uword lo = std::min<arma::uword>(3, k - 1), hi = std::min<arma::uword>(6, k);
  for (arma::uword i = 0; i < n; ++i)
    sigma(i) = std::max(arma::mean(dist.col(i).subvec(lo, hi - 1)), 1e-10);
  arma::umat P(2, n * n_nb);
  std::vector<arma::uword> order(k);
  std::vector<double> scaled(k);
  for (arma::uword i = 0; i < n; ++i) {
    for (arma::uword j = 0; j < k; ++j)
      scaled[j] = dist(j, i) * dist(j, i) / (sigma(i) * sigma(index(j, i)));
    std::iota(order.begin(), order.end(), arma::uword(0));
    // Stable: ties keep the graph's order (nearest first, then lower index).
    std::stable_sort(order.begin(), order.end(),
                     [&](arma::uword a, arma::uword b) { return scaled[a] < scaled[b]; });
    for (arma::uword e = 0; e < n_nb; ++e) {
      P(0, i * n_nb + e) = i;
      P(1, i * n_nb + e) = index(order[e], i);
    }
  }
  return P;
}

namespace {

// `m` distinct points of 0..n-1, none equal to `self` or in `reject` (sorted), by rejection.
void sample_distinct(Rng& rng, arma::uword n, arma::uword self,
                     const std::vector<arma::uword>& reject, arma::uword m,
                     std::vector<arma::uword>& out) {
  out.clear();
  std::uniform_int_distribution<arma::uword> pick(0, n - 1);
  while (out.size() < m) {
    const arma::uword j = pick(rng.engine());
    if (j == self || std::binary_search(reject.begin(), reject.end(), j) ||
        std::find(out.begin(), out.end(), j) != out.end())
      continue;
    out.push_back(j);
  }
}

}  // namespace

arma::umat mid_near_pairs(const arma::mat& X, arma::uword n_mn, Rng& rng) {
  const arma::uword n = X.n_cols;
  const arma::uword draw = std::min<arma::uword>(6, n - 1);
  arma::umat P(2, n * n_mn);
  std::vector<arma::uword> s;
  const std::vector<arma::uword> none;
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword e = 0; e < n_mn; ++e) {
      sample_distinct(rng, n, i, none, draw, s);
      std::vector<std::pair<double, arma::uword>> d(draw);
      for (arma::uword t = 0; t < draw; ++t)
        d[t] = {arma::accu(arma::square(X.col(i) - X.col(s[t]))), s[t]};
      std::sort(d.begin(), d.end());
      P(0, i * n_mn + e) = i;
      P(1, i * n_mn + e) = d[std::min<arma::uword>(1, draw - 1)].second;
    }
  return P;
}

arma::umat further_pairs(arma::uword n, const arma::umat& nb, arma::uword n_nb, arma::uword n_fp,
                         Rng& rng) {
  arma::umat P(2, n * n_fp);
  std::vector<arma::uword> s, nbrs;
  for (arma::uword i = 0; i < n; ++i) {
    nbrs.clear();
    for (arma::uword e = 0; e < n_nb; ++e) nbrs.push_back(nb(1, i * n_nb + e));
    std::sort(nbrs.begin(), nbrs.end());
    nbrs.erase(std::unique(nbrs.begin(), nbrs.end()), nbrs.end());
    sample_distinct(rng, n, i, nbrs, n_fp, s);
    for (arma::uword e = 0; e < n_fp; ++e) {
      P(0, i * n_fp + e) = i;
      P(1, i * n_fp + e) = s[e];
    }
  }
  return P;
}

}  // namespace pacmap

void Pacmap::fit(const FitInput& in) {
  const arma::uword n = in.X.n_cols;
  const auto n_nb = s_.neighbours;
  check_layout_neighbours("pacmap", n_nb, n);
  const auto n_mn = arma::uword(std::lround(double(n_nb) * s_.mn_ratio));
  // Further pairs need that many non-neighbours: capped on tiny data.
  const arma::uword n_fp =
      std::min<arma::uword>(arma::uword(std::lround(double(n_nb) * s_.fp_ratio)), n - 1 - n_nb);
  const int iterations = s_.iterations;

  GraphOptions go = fit_graph_options(s_.neighbour_graph, std::max(1u, in.threads), in.rng);
  const arma::uword k = std::min<arma::uword>(n - 1, n_nb + 50);
  const NeighbourGraph g = neighbour_graph(in.X, k, go);
  pairs_.nb = pacmap::neighbour_pairs(g.index, g.dist, n_nb);
  pairs_.mn = pacmap::mid_near_pairs(in.X, n_mn, in.rng);
  pairs_.fp = pacmap::further_pairs(n, pairs_.nb, n_nb, n_fp, in.rng);

  if (s_.pca_init) {
    // The package's start: 0.01 x the PCA scores of the data as it preprocesses them, which is
    // centred above 100 dimensions and otherwise first divided by its range as a whole.
    double size = 0.01;
    if (in.X.n_rows <= 100 && in.X.max() > in.X.min()) size /= in.X.max() - in.X.min();
    Y_ = pca_start(in.X, in.dim, {PcaSigns::Directions, PcaStartScale::Factor, size}).Y;
  } else {
    Y_ = 1e-4 * in.rng.randn(in.dim, n);
  }

  // Adam (Kingma & Ba 2015) with the package's constants.
  const double lr = s_.learning_rate, beta1 = 0.9, beta2 = 0.999;
  arma::mat m(arma::size(Y_), arma::fill::zeros), v(arma::size(Y_), arma::fill::zeros), G;
  const auto t0 = std::chrono::steady_clock::now();
  for (int itr = 0; itr < iterations; ++itr) {
    const double f = pacmap::loss(Y_, pairs_, pacmap::weights_at(itr), &G);
    const double lr_t =
        lr * std::sqrt(1.0 - std::pow(beta2, itr + 1)) / (1.0 - std::pow(beta1, itr + 1));
    m += (1.0 - beta1) * (G - m);
    v += (1.0 - beta2) * (arma::square(G) - v);
    Y_ -= lr_t * m / (arma::sqrt(v) + 1e-7);
    end_layout_iteration(in, "pacmap", itr, iterations, f, G, t0, lr_t);
  }
  if (in.trace) {
    in.trace->optimizer = "adam";
    in.trace->note("pairs", std::to_string(pairs_.nb.n_cols) + " neighbour, " +
                                std::to_string(pairs_.mn.n_cols) + " mid-near, " +
                                std::to_string(pairs_.fp.n_cols) + " further");
    in.trace->note("neighbour_graph", g.approximate ? "approximate" : "exact");
  }
}

namespace {

// The parameters the contract and the budget both read.
struct PacmapKeys {
  IntKey neighbours = keywords::neighbours(10, 1, 1000000,
                                           "neighbour pairs per point, chosen by scaled "
                                           "distance among the neighbours + 50 nearest");
  RealKey mn_ratio = ParamSpec::real("mn_ratio", 0.5, 0.0, std::nullopt,
                                     "mid-near pairs per point, as a multiple of neighbours");
  RealKey fp_ratio = ParamSpec::real("fp_ratio", 2.0, 0.0, std::nullopt,
                                     "further pairs per point, as a multiple of neighbours");
  IntKey iterations =
      keywords::iterations(450, 1000000, "Adam iterations; the weight phases end at 100 and 200");
};

MethodInfo pacmap_info() {
  MethodInfo m = describe_method(
      "pacmap", "neighbour",
      "PaCMAP: neighbour, mid-near and further pairs, three-phase weights, Adam (transductive)",
      "Wang, Huang, Rudin & Shaposhnik 2021, JMLR 22(201) (sec. 5, Algorithm 1)");
  const auto [neighbours, mn_ratio, fp_ratio, iterations] = PacmapKeys{};
  const ChoiceKey neighbour_graph = keywords::neighbour_graph();
  const RealKey learning_rate = keywords::learning_rate(1.0, "Adam's step");
  const ChoiceKey init = keywords::init(
      "pca", {"pca", "random"},
      "0.01 x the PCA scores (of the data divided by its range up to 100-D), or Gaussian std 1e-4");
  m.params = {neighbours, neighbour_graph, mn_ratio, fp_ratio, iterations, learning_rate, init};
  m.iterative = true;
  m.out_of_sample = false;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Pacmap>(PacmapSetting{arma::uword(neighbours(p)), neighbour_graph(p),
                                                  mn_ratio(p), fp_ratio(p), int(iterations(p)),
                                                  learning_rate(p), init(p) == "pca"});
  };
  return m;
}

// The kNN search (about n log n (k + 50) distance evaluations) and the pair sample, then
// `iterations` passes over every point's pairs.
Budget pacmap_budget() {
  const PacmapKeys keys;
  const auto pairs_per_point = [=](const ParamSet& p) {
    return double(keys.neighbours(p)) * (1.0 + keys.mn_ratio(p) + keys.fp_ratio(p));
  };
  return make_budget(
      [=](const TaskSize& z) {
        const double n = z.n, k = double(keys.neighbours(z.p));
        return n * z.d * (k + 50.0) * std::log2(n + 2.0) +
               double(keys.iterations(z.p)) * n * pairs_per_point(z.p) * (z.q + 10.0);
      },
      [=](const TaskSize& z) {
        const double n = z.n, k = double(keys.neighbours(z.p));
        return 8.0 *
               (n * z.d + 3.0 * n * (k + 50.0) + 2.0 * n * pairs_per_point(z.p) + 6.0 * n * z.q);
      });
}

}  // namespace

DRBENCH_METHOD(pacmap_info, pacmap_budget())

}  // namespace drbench
