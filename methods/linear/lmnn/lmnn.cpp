#include "methods/linear/lmnn/lmnn.hpp"

#include <algorithm>
#include <string>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/column_distance.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/common/lda_start.hpp"
#include "methods/common/metric_learning.hpp"

namespace drbench {

namespace {

// Adds w (y_a - y_b) to column a of M and subtracts it from column b: the pair's share of
// Y Lap(W), whose product with X^T is half the gradient of w |L(x_a - x_b)|^2.
void add_pair(const arma::mat& Y, arma::uword a, arma::uword b, double w, arma::mat& M) {
  for (arma::uword r = 0; r < Y.n_rows; ++r) {
    const double v = w * (Y(r, a) - Y(r, b));
    M(r, a) += v;
    M(r, b) -= v;
  }
}

}  // namespace

arma::umat lmnn_targets(const arma::mat& X, const arma::uvec& labels, arma::uword k) {
  const arma::uword n = X.n_cols;
  arma::umat T(k, n);
  for (arma::uword c = 0; c <= labels.max(); ++c) {
    const arma::uvec idx = arma::find(labels == c);
    if (idx.is_empty()) continue;
    if (idx.n_elem <= k)
      throw MethodError("lmnn: class " + std::to_string(c) + " has " + std::to_string(idx.n_elem) +
                        " training points, too few for " + std::to_string(k) +
                        " target neighbours of the same class; lower " + "'neighbours' below " +
                        std::to_string(idx.n_elem));
    arma::mat D = sq_distances(X.cols(idx));
    D.diag().fill(arma::datum::inf);
    for (arma::uword a = 0; a < idx.n_elem; ++a) {
      const arma::uvec order = arma::stable_sort_index(D.col(a));
      for (arma::uword t = 0; t < k; ++t) T(t, idx(a)) = idx(order(t));
    }
  }
  return T;
}

LmnnObjective::LmnnObjective(const arma::mat& X, const arma::uvec& labels,
                             const arma::umat& targets, arma::uword dim, double mu)
    : X_(X), labels_(labels), targets_(targets), dim_(dim), mu_(mu) {}

void LmnnObjective::find_active(const arma::mat& Y, std::vector<Impostor>& imp,
                                arma::umat& target_count) const {
  const arma::uword n = Y.n_cols, k = targets_.n_rows;
  imp.clear();
  target_count.zeros(k, n);
  arma::mat dt(k, n);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword t = 0; t < k; ++t) dt(t, i) = column_sq_distance(Y, i, targets_(t, i));
  // An impostor of i lies within 1 + its farthest target distance; the candidates come from
  // blocks of the expanded distance formula (n x 256 at a time, not n x n), with a little slack
  // for its rounding, and are then judged on the exact distance.
  const arma::rowvec radius = 1.0 + arma::max(dt, 0);
  const arma::rowvec norms = arma::sum(arma::square(Y), 0);
  constexpr arma::uword kBlock = 256;
  for (arma::uword b0 = 0; b0 < n; b0 += kBlock) {
    const arma::uword b1 = std::min(n, b0 + kBlock);
    const arma::mat D = sq_distances(Y, Y.cols(b0, b1 - 1));
    for (arma::uword i = b0; i < b1; ++i) {
      const double* Di = D.colptr(i - b0);
      for (arma::uword l = 0; l < n; ++l) {
        if (labels_(l) == labels_(i)) continue;
        if (Di[l] > radius(i) + 1e-9 * (radius(i) + norms(i) + norms(l))) continue;
        const double dil = column_sq_distance(Y, i, l);
        arma::uword count = 0;
        for (arma::uword t = 0; t < k; ++t)
          if (dil < 1.0 + dt(t, i)) {
            ++count;
            ++target_count(t, i);
          }
        if (count) imp.push_back({i, l, count});
      }
    }
  }
}

void LmnnObjective::freeze_active(const arma::vec& x) {
  frozen_ = false;
  evaluate(x, nullptr);
  frozen_ = true;
}

double LmnnObjective::evaluate(const arma::vec& x, arma::vec* grad) {
  const arma::uword d = X_.n_rows, n = X_.n_cols, k = targets_.n_rows;
  const arma::mat Y = arma::reshape(x, dim_, d) * X_;
  if (!frozen_) find_active(Y, imp_, target_count_);
  double pull = 0, push = 0;
  active_ = 0;
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword t = 0; t < k; ++t) {
      const double dij = column_sq_distance(Y, i, targets_(t, i));
      pull += dij;
      push += double(target_count_(t, i)) * (1.0 + dij);
      active_ += target_count_(t, i);
    }
  for (const Impostor& m : imp_) push -= double(m.count) * column_sq_distance(Y, m.i, m.l);
  if (grad) {
    arma::mat M(dim_, n, arma::fill::zeros);
    for (arma::uword i = 0; i < n; ++i)
      for (arma::uword t = 0; t < k; ++t)
        add_pair(Y, i, targets_(t, i), (1.0 - mu_) + mu_ * double(target_count_(t, i)), M);
    for (const Impostor& m : imp_) add_pair(Y, m.i, m.l, -mu_ * double(m.count), M);
    *grad = arma::vectorise(2.0 * M * X_.t());
  }
  return (1.0 - mu_) * pull + mu_ * push;
}

void Lmnn::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  const arma::uword d = in.X.n_rows, k = in.dim;
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  const arma::umat targets = lmnn_targets(Xc, y, s_.neighbours);
  start_ = linear_map_start(s_.init, Xc, y, k, in.rng, "lmnn");
  LmnnObjective obj(Xc, y, targets, k, s_.mu);
  OptimOptions opt;
  opt.max_iterations = int(s_.iterations);
  opt.x_tol = 0;
  opt.f_tol = 0;
  opt.g_tol = 0;  // the hinge's gradient jumps; only the objective's progress says when to stop
  // L-BFGS stops on the objective's relative decrease over one iteration, gradient descent
  // (which has no such test) on the map's relative change over one step.
  const bool gd = s_.optimizer == "gd";
  (gd ? opt.rel_x_tol : opt.rel_f_tol) = s_.tolerance;
  opt.f_window = 1;
  // Backtracking, as metric-learn halves its rate until the objective falls: a Wolfe search's
  // curvature condition cannot hold on the far side of a hinge's kink.
  opt.line_search = LineSearchKind::Armijo;
  opt.trace = in.trace;
  const OptimResult r = minimize(gd ? "gd" : "lbfgs", obj, arma::vectorise(start_), opt);
  objective_ = obj.evaluate(r.x, nullptr);
  if (in.trace) in.trace->note("active_triples", std::to_string(obj.active_triples()));
  set_projection(in.X, mean, arma::reshape(r.x, k, d).t());
}

namespace {

// The parameters the contract and the budget both read.
struct LmnnKeys {
  IntKey neighbours = keywords::neighbours(
      3, 1, 1000,
      "target neighbours: the nearest same-class points each point is pulled to "
      "(metric-learn: 3)");
  IntKey iterations = keywords::iterations(1000, 100000, "of the optimiser (metric-learn: 1000)");
};

MethodInfo lmnn_info() {
  MethodInfo m = describe_method(
      "lmnn", "linear",
      "large margin nearest neighbour: the linear map pulling k same-class target neighbours in "
      "and pushing other-class impostors a unit margin beyond them",
      "Weinberger & Saul, JMLR 10 (2009), eq. 13-14, with metric-learn's (0.7) LMNN objective "
      "and active set");
  const auto [neighbours, iterations] = LmnnKeys{};
  const RealKey mu = keywords::lambda(
      0.5, 1.0, false,
      "mu, the weight of the impostors' hinge; the target pull weighs 1 - mu (Weinberger & "
      "Saul: 0.5; metric-learn's regularization is 1 - mu)");
  const RealKey tolerance = keywords::tolerance(
      1e-5, std::nullopt,
      "stop when the objective's relative decrease over one iteration (lbfgs), or the map's "
      "relative change over one step (gd), falls below this");
  const ChoiceKey optimizer = keywords::optimizer(
      "lbfgs", {"lbfgs", "gd"},
      "L-BFGS, or gradient descent with a Wolfe line search; both re-find the impostors at "
      "every evaluation");
  const ChoiceKey init = linear_map_init("metric-learn's");
  m.params = {neighbours, mu, iterations, tolerance, optimizer, init};
  m.supervised = true;
  m.iterative = true;
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Lmnn>(LmnnSetting{arma::uword(neighbours(p)), mu(p),
                                              arma::uword(iterations(p)), tolerance(p),
                                              optimizer(p), init(p)});
  };
  return m;
}

}  // namespace
// Every evaluation scans all pairs for impostors in the embedding and forms L X and the
// gradient's product with X^T; a line search takes about two evaluations per iteration. Memory: a
// block of 256 distance columns, the target lists and the impostor pairs, counted at 200 per
// point (metric-learn's active sets on ordinary data are far below that; all pairs can be
// impostors only when every class overlaps every other at the start).
DRBENCH_METHOD(lmnn_info, make_budget(metric_learning_cost(LmnnKeys{}.iterations, 2.0, 4.0),
                                      [keys = LmnnKeys{}](const TaskSize& z) {
                                        return memory_linear(z.shape, z.dim) +
                                               8.0 * z.n *
                                                   (256.0 + 3.0 * double(keys.neighbours(z.p))) +
                                               24.0 * z.n * std::min(z.n, 200.0);
                                      }))
}  // namespace drbench
