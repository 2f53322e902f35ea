#include "methods/neighbour/umap/umap.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/pca.hpp"
#include "framework/linalg/sparse_pca.hpp"
#include "methods/neighbour/umap/fuzzy_set.hpp"
#include "methods/neighbour/umap/layout.hpp"

namespace drbench {

namespace umap {

int default_epochs(arma::uword n) {
  return n <= 10000 ? 500 : 200;
}

namespace {

// y = D^-1/2 G D^-1/2 x for Lanczos.
struct NormalisedOp {
  const arma::sp_mat& G;
  const arma::vec& dinv;
  const arma::uword n_rows, n_cols;
  NormalisedOp(const arma::sp_mat& g, const arma::vec& di)
      : G(g), dinv(di), n_rows(g.n_rows), n_cols(g.n_cols) {}
  void perform_op(double* x_in, double* y_out) const {
    const arma::vec x(x_in, n_rows, false, true);
    arma::vec y(y_out, n_rows, false, true);
    y = dinv % (G * (dinv % x));
  }
};

// umap-learn's noisy_scale_coords: largest |coordinate| 10, plus Gaussian noise of std 1e-4 so
// that no two points start on top of each other.
void noisy_scale(arma::mat& Y, Rng& rng) {
  const double m = arma::abs(Y).max();
  if (m > 0) Y *= 10.0 / m;
  Y += 1e-4 * rng.randn(Y.n_rows, Y.n_cols);
}

}  // namespace

bool spectral_start(const arma::sp_mat& G, arma::uword dim, arma::mat& Y) {
  const arma::uword n = G.n_cols, k = dim + 1;
  if (k >= n) return false;
  const arma::vec deg = arma::vec(arma::sum(G, 1));
  if (deg.min() <= 0.0) return false;
  const arma::vec dinv = 1.0 / arma::sqrt(deg);
  arma::vec values;
  arma::mat vectors;
  if (n <= 600) {
    // Small graphs: the dense spectrum is cheaper than setting up Lanczos.
    const arma::mat N = arma::diagmat(dinv) * arma::mat(G) * arma::diagmat(dinv);
    const EigenPairs e = sym_eigs(N, k, Spectrum::Largest);
    values = e.values;
    vectors = e.vectors;
  } else {
    const NormalisedOp op(G, dinv);
    // A Krylov space of 40 first: at 60,000 Fashion-MNIST points it converges to the same start
    // (within 3e-4 on the [0, 10] scale the layout starts from) 2.4x faster than umap-learn's
    // max(2k + 1, sqrt(n)), whose orthogonalisation against sqrt(n) vectors dominated. Where it
    // does not converge in 100 restarts, umap-learn's size with the full budget.
    const arma::uword ncv_umap = std::min<arma::uword>(
        n, std::max<arma::uword>(2 * k + 1, arma::uword(std::sqrt(double(n)))));
    const arma::uword ncv_small = std::min<arma::uword>(n, std::max<arma::uword>(2 * k + 1, 40));
    auto solve = [&](arma::uword ncv, arma::uword restarts) {
      try {
        arma::newarp::SymEigsSolver<double, arma::newarp::EigsSelect::LARGEST_ALGE, NormalisedOp>
            eigs(op, k, ncv);
        eigs.init();  // fixed internal start: no global random state
        if (eigs.compute(restarts, 1e-6) < k) return false;
        values = eigs.eigenvalues();
        vectors = eigs.eigenvectors();
        return vectors.n_cols == k;
      } catch (const std::exception&) {
        return false;
      }
    };
    if (!solve(ncv_small, 100) && (ncv_umap <= ncv_small || !solve(ncv_umap, 5 * n))) return false;
    if (vectors.n_cols != k) return false;
    const arma::uvec order = arma::sort_index(values, "descend");
    vectors = vectors.cols(order);
  }
  arma::mat V = vectors.cols(1, dim);
  fix_signs(V);
  Y = V.t();
  return Y.is_finite();
}

}  // namespace umap

void Umap::fit(const FitInput& in) {
  const arma::uword n = in.n_points();
  const auto k = s_.neighbours;
  if (k > n)
    throw MethodError("umap: neighbours = " + std::to_string(k) + " needs more than the " +
                      std::to_string(n) + " training points (fix: neighbours < " +
                      std::to_string(n) + ")");
  epochs_ = s_.iterations;
  if (epochs_ == 0) epochs_ = umap::default_epochs(n);
  threads_ = std::max(1u, in.threads);
  n_train_ = n;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  auto since = [&t0] {
    return std::to_string(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  };
  // Process CPU seconds: the fit's own on one thread; on a loaded machine the only split that
  // means anything.
  auto cpu_since = [c0] { return std::to_string(double(std::clock() - c0) / CLOCKS_PER_SEC); };

  // Drawn (and the kind checked) on either path, so sparse and dense points use the engine alike.
  GraphOptions go = fit_graph_options(s_.neighbour_graph, threads_, in.rng);
  // umap-learn's n_neighbors counts the point itself: k - 1 other points.
  NeighbourGraph g;
  if (in.Xs) {
    Xs_ = *in.Xs;
    SparseKnnOptions so;
    so.threads = threads_;
    sparse_index_ = std::make_unique<SparseNeighbourIndex>(Xs_, so);
    g = sparse_index_->self_graph(std::max<arma::uword>(1, k - 1));
  } else {
    X_ = in.X;
    index_ = std::make_unique<NeighbourIndex>(X_, k, go);
    g = index_->self_graph(std::max<arma::uword>(1, k - 1));
  }
  const umap::SmoothKnn sk = umap::smooth_knn(g.dist, std::log2(double(k)), 1.0, threads_);
  graph_ = umap::fuzzy_union(g, umap::memberships(g, sk));
  const std::string graph_seconds = since(), graph_cpu = cpu_since();

  const umap::CurveAb ab = umap::fit_ab(s_.spread, s_.min_dist);
  a_ = ab.a;
  b_ = ab.b;

  const umap::Edges edges = umap::edges_of(graph_, epochs_);
  // The graph the layout sees (edges sampled less than once dropped) also gives the start.
  arma::umat loc(2, edges.head.n_elem);
  loc.row(0) = edges.tail.t();
  loc.row(1) = edges.head.t();
  const double wmax = graph_.n_nonzero ? arma::max(arma::nonzeros(graph_)) : 1.0;
  const arma::sp_mat pruned(loc, wmax / edges.epochs_per_sample, n, n);

  const std::string& init = s_.init;
  std::string used = init;
  if (init == "random") {
    Y_ = 20.0 * in.rng.randu(in.dim, n) - 10.0;
  } else {
    bool ok = false;
    if (init == "spectral") {
      const arma::uword parts = umap::components(pruned);
      if (parts > 1) {
        used = "pca (graph has " + std::to_string(parts) + " components)";
      } else {
        ok = umap::spectral_start(pruned, in.dim, Y_);
        if (!ok) used = "pca (Lanczos did not converge)";
      }
    }
    if (!ok) {
      // The fallback keeps clusters apart where a disconnected graph has no useful spectrum.
      Y_ = in.Xs ? pca_start_of_sparse(Xs_, in.dim).Y : pca_start(X_, in.dim).Y;
    }
    umap::noisy_scale(Y_, in.rng);
  }
  // umap-learn 0.5 rescales every coordinate to [0, 10] before the layout.
  for (arma::uword r = 0; r < Y_.n_rows; ++r) {
    const double lo = Y_.row(r).min(), hi = Y_.row(r).max();
    Y_.row(r) = hi > lo ? arma::rowvec(10.0 * (Y_.row(r) - lo) / (hi - lo))
                        : arma::rowvec(Y_.n_cols, arma::fill::zeros);
  }

  const std::string start_seconds = since(), start_cpu = cpu_since();
  umap::LayoutOptions lo;
  lo.epochs = epochs_;
  lo.a = a_;
  lo.b = b_;
  lo.learning_rate = s_.learning_rate;
  lo.negative_sample_rate = s_.negative_sample_rate;
  lo.seed = in.rng.engine()();
  lo.trace = in.trace;
  lo.blocks = s_.layout == "parallel";
  lo.threads = threads_;
  transform_seed_ = in.rng.engine()();
  umap::optimize_embedding(Y_, edges, lo);
  if (!Y_.is_finite())
    throw MethodError(
        "umap: the layout diverged (non-finite coordinates) (fix: lower "
        "'learning_rate')");
  if (in.trace) {
    in.trace->optimizer = "umap_sgd";
    in.trace->note("init", used);
    in.trace->note("a", std::to_string(a_));
    in.trace->note("b", std::to_string(b_));
    in.trace->note("epochs", std::to_string(epochs_));
    in.trace->note("layout", s_.layout);
    in.trace->note("edges", std::to_string(edges.head.n_elem));
    in.trace->note("neighbour_graph", in.Xs           ? "exact (sparse points)"
                                      : g.approximate ? "approximate"
                                                      : "exact");
    // Wall seconds from the start of the fit: where the time of a fit goes.
    in.trace->note("seconds_graph", graph_seconds);
    in.trace->note("seconds_start", start_seconds);
    in.trace->note("cpu_seconds_graph", graph_cpu);
    in.trace->note("cpu_seconds_start", start_cpu);
    in.trace->note("seconds_layout", since());
    in.trace->note("cpu_seconds_layout", cpu_since());
  }
}

arma::mat Umap::transform(const arma::mat& Xnew) const {
  if (!index_ && !sparse_index_) throw MethodError("umap: transform before fit");
  const auto k = std::min<arma::uword>(s_.neighbours, n_train_);
  const arma::uword m = Xnew.n_cols;
  const NeighbourGraph g =
      sparse_index_ ? sparse_index_->query(arma::sp_mat(Xnew), k) : index_->query(Xnew, k);
  // No local connectivity for new points (umap-learn's transform): rho = 0.
  const umap::SmoothKnn sk = umap::smooth_knn(g.dist, std::log2(double(k)), 0.0, threads_);
  const arma::mat W = umap::memberships(g, sk);

  arma::mat Ynew(Y_.n_rows, m, arma::fill::zeros);
  arma::umat loc(2, k * m);
  arma::vec val(k * m);
  for (arma::uword j = 0; j < m; ++j) {
    // Start at the membership-weighted mean of the neighbours, or on a training point the new
    // point coincides with.
    double wsum = 0.0;
    bool on_point = false;
    for (arma::uword e = 0; e < k; ++e) {
      loc(0, j * k + e) = g.index(e, j);
      loc(1, j * k + e) = j;
      val(j * k + e) = W(e, j);
      if (!on_point && g.dist(e, j) == 0.0) {
        Ynew.col(j) = Y_.col(g.index(e, j));
        on_point = true;
      }
      wsum += W(e, j);
    }
    if (on_point) continue;
    for (arma::uword e = 0; e < k; ++e) Ynew.col(j) += (W(e, j) / wsum) * Y_.col(g.index(e, j));
  }
  const arma::sp_mat bip(loc, val, n_train_, m);

  int epochs = s_.oos_iterations;
  if (epochs == 0)
    epochs = s_.iterations == 0 ? (n_train_ <= 10000 ? 100 : 30) : std::max(1, epochs_ / 3);
  umap::LayoutOptions lo;
  lo.epochs = epochs;
  lo.a = a_;
  lo.b = b_;
  lo.learning_rate = s_.learning_rate / 4.0;
  lo.negative_sample_rate = s_.negative_sample_rate;
  lo.seed = transform_seed_;
  umap::optimize_new_points(Ynew, Y_, umap::edges_of(bip, epochs), lo, threads_);
  return Ynew;
}

namespace {

// The parameters the contract and the budget both read.
struct UmapKeys {
  IntKey neighbours =
      keywords::neighbours(15, 2, 1000000,
                           "umap-learn's n_neighbors, the point itself included: the k - 1 "
                           "nearest others, memberships calibrated to sum to log2(k)");
  IntKey iterations =
      keywords::iterations(
          0, 1000000,
          "SGD epochs of the layout; 0 = umap-learn's rule, 500 up to 10,000 points, else 200")
          .with([](ParamSpec& spec) { spec.min = 0; });
  RealKey negative_sample_rate =
      keywords::negative_sample_rate(5.0, "repulsive samples per sampled edge");
};

MethodInfo umap_info() {
  MethodInfo m = describe_method(
      "umap", "neighbour",
      "UMAP: fuzzy simplicial set of the kNN graph, spectral start, sampled SGD layout with "
      "negative sampling; umap-learn's transform for new points",
      "McInnes, Healy & Melville 2018, arXiv:1802.03426 (sec. 3, appendix C); umap-learn 0.5");
  const auto [neighbours, iterations, negative_sample_rate] = UmapKeys{};
  const ChoiceKey neighbour_graph = keywords::neighbour_graph();
  const IntKey oos_iterations = ParamSpec::integer(
      "oos_iterations", 0, 0, 1000000,
      "epochs of the transform's layout; 0 = iterations / 3 (100 or 30 when iterations is 0)");
  const RealKey min_dist =
      keywords::min_dist(0.1, "the a/b curve of 1 / (1 + a d^(2b)); at most spread");
  const RealKey spread =
      keywords::spread(1.0, "the a/b curve's fall-off exp(-(d - min_dist) / spread)");
  const RealKey learning_rate =
      keywords::learning_rate(1.0, "initial SGD rate, falling linearly to 0 (transform: / 4)");
  const ChoiceKey init =
      keywords::init("spectral", {"spectral", "pca", "random"},
                     "spectral (normalised Laplacian eigenvectors; pca where the graph is "
                     "disconnected, noted in the trace), pca, or uniform in [-10, 10]");
  // Added after the UMAP tables: unkeyed, so their task keys (and seeds) still match.
  const ChoiceKey layout =
      ChoiceKey(ParamSpec::choice(
                    "layout", "sequential", {"sequential", "parallel"},
                    "the fit's SGD: sequential (umap-learn's single-threaded order, one thread) or "
                    "parallel (edges in fixed blocks of about n / 4 sampled in parallel from the "
                    "block's start and added in edge order, on `threads` threads; the same "
                    "embedding for any thread count, not the sequential one's)"))
          .with(keywords::unkeyed);
  m.params = {neighbours, neighbour_graph,      iterations,    oos_iterations, min_dist,
              spread,     negative_sample_rate, learning_rate, init,           layout};
  m.iterative = true;
  m.out_of_sample = true;
  m.sparse_input = true;
  m.check_setting = [min_dist, spread](const ParamSet& p) -> std::string {
    if (min_dist(p) > spread(p))
      return "min_dist = " + to_string(ParamValue(min_dist(p))) +
             " exceeds spread = " + to_string(ParamValue(spread(p))) + " (fix: min_dist <= spread)";
    return "";
  };
  m.make = [=](const ParamSet& p) {
    UmapSettings u;
    u.neighbours = arma::uword(neighbours(p));
    u.neighbour_graph = neighbour_graph(p);
    u.iterations = int(iterations(p));
    u.oos_iterations = int(oos_iterations(p));
    u.min_dist = min_dist(p);
    u.spread = spread(p);
    u.negative_sample_rate = negative_sample_rate(p);
    u.learning_rate = learning_rate(p);
    u.init = init(p);
    u.layout = layout(p);
    return std::make_unique<Umap>(std::move(u));
  };
  return m;
}

}  // namespace

// The kNN search, then the epochs' edge samples with their negative samples. Memory: the data
// (kept for the transform's index), the graph and its union (a few copies of n k entries), the
// edge schedule and the embedding.
DRBENCH_METHOD(umap_info, make_budget(
                              [keys = UmapKeys{}](const TaskSize& z) {
                                const double n = z.n, k = double(keys.neighbours(z.p));
                                double ep = double(keys.iterations(z.p));
                                if (ep == 0) ep = umap::default_epochs(z.shape.n);
                                return n * z.d * k * std::log2(n + 2.0) +
                                       ep * n * k * (1.0 + keys.negative_sample_rate(z.p)) *
                                           (z.q + 20.0);
                              },
                              [keys = UmapKeys{}](const TaskSize& z) {
                                const double n = z.n, k = double(keys.neighbours(z.p));
                                return 8.0 * (2.0 * n * z.d + 16.0 * n * k + 4.0 * n * z.q);
                              }))

}  // namespace drbench
