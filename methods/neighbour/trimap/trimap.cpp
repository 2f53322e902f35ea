#include "methods/neighbour/trimap/trimap.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/pca.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "methods/neighbour/own_layout.hpp"

namespace drbench {

namespace trimap {

double tempered_log(double x, double t) {
  if (std::fabs(t - 1.0) < 1e-5) return std::log(x);
  return (std::pow(x, 1.0 - t) - 1.0) / (1.0 - t);
}

double loss(const arma::mat& Y, const Triplets& t, arma::mat* grad, double* violated) {
  const arma::uword dim = Y.n_rows;
  if (grad) grad->zeros(dim, Y.n_cols);
  double f = 0.0, viol = 0.0;
  for (arma::uword e = 0; e < t.ijk.n_cols; ++e) {
    const arma::uword i = t.ijk(0, e), j = t.ijk(1, e), k = t.ijk(2, e);
    const double *yi = Y.colptr(i), *yj = Y.colptr(j), *yk = Y.colptr(k);
    double dij = 1.0, dik = 1.0;
    for (arma::uword d = 0; d < dim; ++d) {
      dij += (yi[d] - yj[d]) * (yi[d] - yj[d]);
      dik += (yi[d] - yk[d]) * (yi[d] - yk[d]);
    }
    const double w = t.weights(e), s = dij + dik;
    f += w * dij / s;
    viol += dij > dik;
    if (grad) {
      const double c = 2.0 * w / (s * s);
      double *gi = grad->colptr(i), *gj = grad->colptr(j), *gk = grad->colptr(k);
      for (arma::uword d = 0; d < dim; ++d) {
        const double gs = c * dik * (yi[d] - yj[d]), go = c * dij * (yi[d] - yk[d]);
        gi[d] += gs - go;
        gj[d] -= gs;
        gk[d] += go;
      }
    }
  }
  if (violated) *violated = viol;
  return f;
}

}  // namespace trimap

namespace {

// `m` distinct points of 0..n-1 outside the sorted `reject`, by rejection.
void sample_outside(Rng& rng, arma::uword n, const std::vector<arma::uword>& reject, arma::uword m,
                    std::vector<arma::uword>& out) {
  out.clear();
  std::uniform_int_distribution<arma::uword> pick(0, n - 1);
  while (out.size() < m) {
    const arma::uword j = pick(rng.engine());
    if (std::binary_search(reject.begin(), reject.end(), j) ||
        std::find(out.begin(), out.end(), j) != out.end())
      continue;
    out.push_back(j);
  }
}

}  // namespace

void Trimap::fit(const FitInput& in) {
  const arma::uword n = in.X.n_cols;
  const auto inliers = s_.neighbours;
  check_layout_neighbours("trimap", inliers, n);
  const arma::uword outliers = std::min<arma::uword>(s_.outliers, n - 1 - inliers);
  const auto n_random = s_.random_triplets;
  const int iterations = s_.iterations;

  // The package's preprocessing: above 100 dimensions centred and reduced to 100 by PCA, else
  // [0, 1] as a whole and centred. The triplets do not depend on it (their similarities are
  // scale-free); the PCA start, 0.01 x these coordinates, does.
  arma::mat Z = in.X;
  if (Z.n_rows > 100) {
    const PcaBasis pb = pca_basis(Z, 100);
    Z = pb.W.t() * (Z.each_col() - pb.mean);
  } else {
    const double lo = Z.min(), hi = Z.max();
    if (hi > lo) Z = (Z - lo) / (hi - lo);
    Z.each_col() -= arma::mean(Z, 1);
  }

  GraphOptions go = fit_graph_options(s_.neighbour_graph, std::max(1u, in.threads), in.rng);
  const NeighbourGraph g = neighbour_graph(Z, std::min<arma::uword>(n - 1, inliers + 50), go);
  const arma::uword kc = g.k();
  arma::vec sigma(n);
  const arma::uword s0 = std::min<arma::uword>(3, kc - 1), s1 = std::min<arma::uword>(6, kc);
  for (arma::uword i = 0; i < n; ++i)
    sigma(i) = std::max(arma::mean(g.dist.col(i).subvec(s0, s1 - 1)), 1e-10);
  // -log p_ij: the scaled squared distance. Weights are log-ratios of similarities.
  auto scaled = [&](arma::uword i, arma::uword j) {
    return arma::accu(arma::square(Z.col(i) - Z.col(j))) / (sigma(i) * sigma(j));
  };

  n_knn_ = n * inliers * outliers;
  const arma::uword m = n_knn_ + n * n_random;
  triplets_.ijk.set_size(3, m);
  triplets_.weights.set_size(m);
  arma::uword t = 0;
  std::vector<arma::uword> order(kc), chosen, ks;
  std::vector<double> p(kc);
  for (arma::uword i = 0; i < n; ++i) {
    for (arma::uword c = 0; c < kc; ++c)
      p[c] = g.dist(c, i) * g.dist(c, i) / (sigma(i) * sigma(g.index(c, i)));
    std::iota(order.begin(), order.end(), arma::uword(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](arma::uword a, arma::uword b) { return p[a] < p[b]; });
    chosen.assign(1, i);
    for (arma::uword e = 0; e < inliers; ++e) chosen.push_back(g.index(order[e], i));
    std::sort(chosen.begin(), chosen.end());
    for (arma::uword e = 0; e < inliers; ++e) {
      const arma::uword j = g.index(order[e], i);
      const double sij = p[order[e]];
      sample_outside(in.rng, n, chosen, outliers, ks);
      for (arma::uword k : ks) {
        triplets_.ijk.col(t) = arma::uvec{i, j, k};
        triplets_.weights(t) = scaled(i, k) - sij;
        ++t;
      }
    }
  }
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword r = 0; r < n_random; ++r) {
      sample_outside(in.rng, n, {i}, 2, ks);
      arma::uword j = ks[0], k = ks[1];
      double sij = scaled(i, j), sik = scaled(i, k);
      if (sij > sik) {
        std::swap(j, k);
        std::swap(sij, sik);
      }
      triplets_.ijk.col(t) = arma::uvec{i, j, k};
      triplets_.weights(t) = 0.1 * (sik - sij);
      ++t;
    }
  const double temp = s_.weight_temp;
  triplets_.weights.replace(arma::datum::nan, 0.0);
  triplets_.weights -= triplets_.weights.min();
  for (double& w : triplets_.weights) w = trimap::tempered_log(1.0 + w, temp);

  if (s_.pca_init) {
    Y_ = pca_start(Z, in.dim, {PcaSigns::Directions, PcaStartScale::Factor, 0.01}).Y;
  } else {
    Y_ = 1e-4 * in.rng.randn(in.dim, n);
  }

  // Delta-bar-delta as TriMap 1.1.x runs it: the gradient (the package's is half the true one)
  // at the momentum look-ahead Y + gamma vel, each coordinate's gain up by 0.2 where the
  // velocity and the gradient differ in sign, else damped by 0.8 (at least 0.01), and
  // `learning_rate` the step itself (TriMap 1.0.x scaled it by n / number of triplets).
  const double step = s_.learning_rate;
  const auto sign = [](double x) { return (x > 0.0) - (x < 0.0); };
  arma::mat vel(arma::size(Y_), arma::fill::zeros), gain(arma::size(Y_), arma::fill::ones), G;
  const auto t0 = std::chrono::steady_clock::now();
  double violated = 0.0;
  for (int itr = 0; itr < iterations; ++itr) {
    const double gamma = itr > 250 ? 0.8 : 0.5;
    const double f = trimap::loss(Y_ + gamma * vel, triplets_, &G, &violated);
    for (arma::uword e = 0; e < Y_.n_elem; ++e) {
      const double g2 = 0.5 * G(e);
      gain(e) = sign(vel(e)) != sign(g2) ? gain(e) + 0.2 : std::max(gain(e) * 0.8, 0.01);
      vel(e) = gamma * vel(e) - step * gain(e) * g2;
      Y_(e) += vel(e);
    }
    end_layout_iteration(in, "trimap", itr, iterations, f, G, t0, step);
  }
  if (in.trace) {
    in.trace->optimizer = "delta_bar_delta";
    in.trace->note("triplets", std::to_string(m));
    in.trace->note("violated_fraction", std::to_string(violated / double(m)));
    in.trace->note("neighbour_graph", g.approximate ? "approximate" : "exact");
  }
}

namespace {

// The parameters the contract and the budget both read.
struct TrimapKeys {
  IntKey neighbours = keywords::neighbours(12, 1, 1000000,
                                           "inliers per point (the j of a triplet), by "
                                           "scaled similarity among the neighbours + 50 "
                                           "nearest");
  IntKey outliers = ParamSpec::integer("outliers", 4, 1, 1000000, "outliers k sampled per inlier");
  IntKey random_triplets =
      ParamSpec::integer("random_triplets", 3, 0, 1000000, "random triplets per point");
  IntKey iterations =
      keywords::iterations(400, 1000000, "delta-bar-delta iterations; momentum 0.8 after 250");
};

MethodInfo trimap_info() {
  MethodInfo m =
      describe_method("trimap", "neighbour",
                      "TriMap: weighted kNN and random triplets, delta-bar-delta (transductive)",
                      "Amid & Warmuth 2019, arXiv:1910.00204 (sec. 3-4); trimap package 1.1.4");
  const auto [neighbours, outliers, random_triplets, iterations] = TrimapKeys{};
  const ChoiceKey neighbour_graph = keywords::neighbour_graph();
  const RealKey weight_temp =
      ParamSpec::real("weight_temp", 0.5, 0.0, 1.0,
                      "temperature t of the tempered log of the weights (1: natural log)");
  const RealKey learning_rate =
      keywords::learning_rate(0.1, "the delta-bar-delta step (TriMap 1.1.x)");
  const ChoiceKey init =
      keywords::init("pca", {"pca", "random"}, "PCA x 0.01, or Gaussian std 1e-4");
  m.params = {neighbours,  neighbour_graph, outliers,      random_triplets,
              weight_temp, iterations,      learning_rate, init};
  m.iterative = true;
  m.out_of_sample = false;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Trimap>(
        TrimapSetting{arma::uword(neighbours(p)), neighbour_graph(p), arma::uword(outliers(p)),
                      arma::uword(random_triplets(p)), weight_temp(p), int(iterations(p)),
                      learning_rate(p), init(p) == "pca"});
  };
  return m;
}

// The kNN search on at most 100 input dimensions and the triplet sample, then `iterations` passes
// over every point's triplets.
Budget trimap_budget() {
  const TrimapKeys keys;
  const auto triplets_per_point = [=](const ParamSet& p) {
    return double(keys.neighbours(p) * keys.outliers(p) + keys.random_triplets(p));
  };
  return make_budget(
      [=](const TaskSize& z) {
        const double n = z.n;
        return n * std::min(z.d, 100.0) * (double(keys.neighbours(z.p)) + 50.0) *
                   std::log2(n + 2.0) +
               double(keys.iterations(z.p)) * n * triplets_per_point(z.p) * (z.q + 8.0);
      },
      [=](const TaskSize& z) {
        const double n = z.n;
        return 8.0 * (3.0 * n * z.d + 3.0 * n * (double(keys.neighbours(z.p)) + 50.0) +
                      4.0 * n * triplets_per_point(z.p) + 8.0 * n * z.q);
      });
}

}  // namespace

DRBENCH_METHOD(trimap_info, trimap_budget())

}  // namespace drbench
