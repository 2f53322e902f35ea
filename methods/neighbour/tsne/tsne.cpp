#include "methods/neighbour/tsne/tsne.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "framework/affinity/perplexity.hpp"
#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/pca.hpp"
#include "framework/linalg/sparse_pca.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/neighbours/sparse_knn.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/neighbour/tsne/kl_gradient.hpp"

namespace drbench {

namespace {

// The KL divergence over the embedding flattened column by column (x = vec(Y), one column per
// point), for the optimiser table. The gradient is dKL/dY / 4 (what the learning rate is scaled
// for); `exaggeration` multiplies P, set by the phases.
class KlObjective final : public Objective {
 public:
  using Estimator =
      std::function<double(const arma::mat& Y, double exaggeration, bool want_kl, arma::mat& g)>;
  KlObjective(arma::uword dim, arma::uword n, Estimator est)
      : dim_(dim), n_(n), est_(std::move(est)) {}
  double exaggeration = 1.0;
  double evaluate(const arma::vec& x, arma::vec* grad) override {
    arma::vec scratch;
    return run(x, true, grad ? *grad : scratch);
  }
  // The KL's logs over all pairs cost more than the gradient: skipped here.
  void gradient(const arma::vec& x, arma::vec& grad) override { run(x, false, grad); }

 private:
  double run(const arma::vec& x, bool want, arma::vec& grad) {
    // Views, not copies: the estimators read Y and write the gradient in place.
    const arma::mat Y(const_cast<double*>(x.memptr()), dim_, n_, false, true);
    grad.set_size(x.n_elem);
    arma::mat G(grad.memptr(), dim_, n_, false, true);
    return est_(Y, exaggeration, want, G);
  }
  arma::uword dim_, n_;
  Estimator est_;
};

}  // namespace

std::string tsne_gradient_for(const std::string& choice, arma::uword n, arma::uword dim) {
  if (choice != "auto") return choice;
  const bool fft = (dim == 1 && n >= kTsneFftFrom1d) || (dim == 2 && n >= kTsneFftFrom2d);
  return fft ? "fft" : "barnes_hut";
}

void Tsne::fit(const FitInput& in) {
  const arma::uword n = in.n_points();
  const double perplexity = s_.perplexity;
  const std::string gradient = tsne_gradient_for(s_.gradient, n, in.dim);
  const bool exact = gradient == "exact", fft = gradient == "fft";
  const double theta = s_.theta;
  const int iterations = s_.iterations;
  const int early = std::min<int>(iterations, s_.exaggeration_iterations);
  const unsigned threads = std::max(1u, in.threads);
  double lr = s_.learning_rate;
  if (lr <= 0) lr = std::max(static_cast<double>(n) / s_.early_exaggeration, 200.0);
  if (fft && in.dim > 2)
    throw MethodError("tsne: the FFT gradient works in 1 or 2 dimensions, asked for " +
                      std::to_string(in.dim) +
                      " (fix: 'gradient: barnes_hut' for dims 3, 'gradient: exact' above)");
  if (!exact && in.dim > 3)
    throw MethodError("tsne: Barnes-Hut works in 1 to 3 dimensions, asked for " +
                      std::to_string(in.dim) + " (fix: 'gradient: exact' or dims <= 3)");

  // openTSNE's start: PCA scaled to std 1e-4 along the first axis; the score sign rule keeps the
  // committed t-SNE results' bits.
  // Sparse points (FitInput::Xs): sparse PCA, equal to the dense start to rounding.
  const PcaStartOptions start{PcaSigns::Scores, PcaStartScale::FirstAxisSd, 1e-4};
  if (!s_.pca_init)
    Y_ = arma::mat(in.rng.randn(in.dim, n) * 1e-4);
  else
    Y_ = in.Xs ? pca_start_of_sparse(*in.Xs, in.dim, start).Y : pca_start(in.X, in.dim, start).Y;

  const double exaggeration = s_.early_exaggeration;
  OptimOptions opt;
  opt.max_iterations = iterations;
  opt.momentum.learning_rate = lr;
  opt.momentum.grad_norm_scale = 4.0;  // the trace shows |dKL/dY|
  // The KL costs more than the gradient (exact: logs over all n^2 pairs): every 10th iteration.
  opt.momentum.objective_every = 10;
  opt.trace = in.trace;
  arma::mat Pd;
  arma::sp_mat Ps;
  double plogp = 0.0;
  bool approximate_graph = false;
  FftGridInfo grid;
  FftKernelSums sums;  // the FFT plans and grids, kept from iteration to iteration
  KlObjective::Estimator est;
  if (exact) {
    // The exact gradient holds n x n affinities anyway: sparse points are densified for them.
    Pd = in.Xs ? joint_affinities(arma::mat(*in.Xs), perplexity)
               : joint_affinities(in.X, perplexity);
    plogp = p_log_p(Pd);
    est = [&](const arma::mat& Y, double e, bool want, arma::mat& g) {
      return tsne_exact_gradient(Pd, plogp, Y, e, want, g);
    };
  } else {
    // P over the shared neighbour graph: 3 x perplexity neighbours unless `neighbours` says.
    const std::int64_t nb = s_.neighbours;
    const arma::uword k =
        nb > 0 ? static_cast<arma::uword>(nb)
               : std::min<arma::uword>(n - 1, static_cast<arma::uword>(std::floor(3 * perplexity)));
    if (k > n - 1)
      throw MethodError("tsne: 'neighbours' = " + std::to_string(k) +
                        " exceeds n - 1 = " + std::to_string(n - 1) + " (fix: lower 'neighbours')");
    GraphOptions go;
    go.kind = parse_graph_kind(s_.neighbour_graph);
    go.threads = threads;
    // Drawn after the start, and only when HNSW is used: the other paths use the engine as before.
    if (use_approximate(n, in.n_features(), k, go.kind)) go.seed = in.rng.engine()();
    // Sparse points: the exact sparse search (the dense exact graph, bit for bit) whatever
    // neighbour_graph says, and the affinities from the sparse columns (the dense bits).
    SparseKnnOptions so;
    so.threads = threads;
    const NeighbourGraph g =
        in.Xs ? sparse_neighbour_graph(*in.Xs, k, so) : neighbour_graph(in.X, k, go);
    approximate_graph = g.approximate;
    Ps = in.Xs ? graph_joint_affinities(*in.Xs, g, perplexity, threads)
               : graph_joint_affinities(in.X, g, perplexity, threads);
    plogp = p_log_p(Ps);
    if (fft) {
      est = [&](const arma::mat& Y, double e, bool want, arma::mat& gr) {
        return tsne_fft_gradient(Ps, plogp, Y, FftInterpolationOptions{}, e, want, gr, threads,
                                 &grid, &sums);
      };
    } else {
      est = [&](const arma::mat& Y, double e, bool want, arma::mat& gr) {
        return tsne_bh_gradient(Ps, plogp, Y, theta, e, want, gr, threads);
      };
    }
  }
  KlObjective obj(in.dim, n, std::move(est));
  opt.phases = {{"early_exaggeration", early, [&] { obj.exaggeration = exaggeration; }, 0.5},
                {"main", iterations - early, [&] { obj.exaggeration = 1.0; }, 0.8}};
  const OptimResult r = minimize("momentum", obj, arma::vectorise(Y_), opt);
  if (in.trace) {
    in.trace->optimizer = "tsne_gd_" + gradient;
    in.trace->note("learning_rate", std::to_string(lr));
    in.trace->note("objective_every", std::to_string(opt.momentum.objective_every));
    if (!exact)
      in.trace->note("neighbour_graph", in.Xs               ? "exact (sparse points)"
                                        : approximate_graph ? "approximate"
                                                            : "exact");
    if (fft) in.trace->note("fft_intervals_last", std::to_string(grid.intervals));
  }
  if (r.stop_reason == "not_finite")
    throw MethodError("tsne: the embedding diverged (non-finite values) at iteration " +
                      std::to_string(r.iterations) + " (fix: lower 'learning_rate')");
  Y_ = arma::reshape(r.x, in.dim, n);
  kl_ = r.f;
}

namespace {

// The parameters the contract and the budget both read.
struct TsneKeys {
  // Added after results existed: at its default (exact below 20,000 points) P is unchanged.
  ChoiceKey neighbour_graph = keywords::neighbour_graph("auto").with(keywords::unkeyed);
  RealKey perplexity = keywords::perplexity(30.0, "the input affinities");
  ChoiceKey gradient =
      keywords::gradient("auto", {"auto", "barnes_hut", "exact", "fft"},
                         "exact O(n^2) with a dense P, or over a sparse P on 3 x perplexity "
                         "neighbours: Barnes-Hut (dims <= 3) or FFT-accelerated interpolation "
                         "(dims <= 2); auto = fft from 5,000 points in 1-D and 40,000 in 2-D, "
                         "else barnes_hut");
  IntKey iterations = keywords::iterations(1000, 1000000, "gradient-descent iterations in all");
};

MethodInfo tsne_info() {
  const auto [neighbour_graph, perplexity, gradient, iterations] = TsneKeys{};
  MethodInfo m;
  m.name = "tsne";
  m.family = "neighbour";
  m.summary =
      "t-SNE, exact, Barnes-Hut or FFT-interpolation gradient, openTSNE optimisation schedule "
      "(transductive)";
  m.reference =
      "van der Maaten & Hinton 2008, JMLR 9 (eq. 1-5); van der Maaten 2014, JMLR 15 (Barnes-Hut); "
      "Linderman et al. 2019, Nat. Methods 16 (FFT interpolation); Belkina et al. 2019 (learning "
      "rate n/12)";
  const RealKey theta = keywords::theta(0.5);
  const RealKey early_exaggeration =
      ParamSpec::real("early_exaggeration", 12.0, 1.0, std::nullopt,
                      "factor on P during the first exaggeration_iterations");
  const IntKey exaggeration_iterations =
      ParamSpec::integer("exaggeration_iterations", 250, 0, 1000000,
                         "iterations with early exaggeration and momentum 0.5");
  const RealKey learning_rate =
      ParamSpec::real("learning_rate", 0.0, 0.0, std::nullopt,
                      "step on the gradient / 4; 0 = max(n / early_exaggeration, 200)");
  const IntKey neighbours =
      keywords::neighbours(0, 0, 1000000, "the sparse P (barnes_hut, fft); 0 = 3 x perplexity");
  const ChoiceKey init = ParamSpec::choice("init", "pca", {"pca", "random"},
                                           "start: PCA or Gaussian, scaled to std 1e-4");
  const GraphPathKeys path{gradient, theta, neighbours, neighbour_graph};
  m.params = {
      perplexity,    gradient,   theta, iterations,     early_exaggeration, exaggeration_iterations,
      learning_rate, neighbours, init,  neighbour_graph};
  m.iterative = true;
  m.out_of_sample = false;
  m.sparse_input = true;
  m.max_dim = [gradient](const DataShape& s, const ParamSet& p) {
    const std::string g = gradient(p);
    const arma::uword lim = g == "exact" ? s.d : std::min<arma::uword>(g == "fft" ? 2 : 3, s.d);
    return std::min<arma::uword>(lim, s.n > 0 ? s.n - 1 : 0);
  };
  m.make = [=](const ParamSet& p) {
    TsneSetting t;
    t.perplexity = perplexity(p);
    path.read(p, t);
    t.iterations = int(iterations(p));
    t.early_exaggeration = early_exaggeration(p);
    t.exaggeration_iterations = int(exaggeration_iterations(p));
    t.learning_rate = learning_rate(p);
    t.pca_init = init(p) == "pca";
    return std::make_unique<Tsne>(t);
  };
  return m;
}

Budget tsne_budget() {
  const TsneKeys keys;
  TaskEstimate cost = [=](const TaskSize& z) {
    const double n = z.n, it = static_cast<double>(keys.iterations(z.p));
    const std::string g = tsne_gradient_for(keys.gradient(z.p), z.shape.n, z.dim);
    if (g == "exact") return n * n * (z.d + 5.0 * it * z.q);
    const double attract = 3.0 * keys.perplexity(z.p);
    // The neighbour search: quadratic when exact, about n log n x 50 distance evaluations on HNSW.
    const bool approx = use_approximate(z.shape.n, z.shape.d, static_cast<arma::uword>(attract),
                                        parse_graph_kind(keys.neighbour_graph(z.p)));
    const double search = approx ? n * std::log2(n + 1.0) * 50.0 * z.d : n * n * z.d;
    if (g == "fft") return search + it * n * (60.0 + attract) * z.q;
    return search + it * n * (std::log2(n + 1.0) * 20.0 + attract) * z.q;
  };
  // Exact: the dense P, distances and their exponentials (n x n each). Sparse: the graph, P and
  // its transpose, the optimiser's vectors and, for fft, the padded grids FftKernelSums keeps (the
  // kernel, 4 charges and 4 sums, with the transforms of the kernel and the charges).
  TaskEstimate memory = [=](const TaskSize& z) {
    const double n = z.n, d = z.d;
    const std::string g = tsne_gradient_for(keys.gradient(z.p), z.shape.n, z.dim);
    if (g == "exact") return 8.0 * (3.0 * n * n + 4.0 * n * d + 8.0 * n * z.q);
    const double k = 3.0 * keys.perplexity(z.p);
    const double grid = g == "fft" ? 8.0 * 14.0 * std::pow(2.0 * 3.0 * 200.0, z.q) : 0.0;
    return 8.0 * (4.0 * n * d + 10.0 * n * k + 12.0 * n * z.q) + grid;
  };
  return make_budget(std::move(cost), std::move(memory));
}

}  // namespace

DRBENCH_METHOD(tsne_info, tsne_budget())

}  // namespace drbench
