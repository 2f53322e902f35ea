#include "methods/manifold/smacof/smacof.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/mds_spectrum.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

namespace {

arma::mat distances(const arma::mat& Y) {
  return arma::sqrt(sq_distances(Y));
}

}  // namespace

double raw_stress(const arma::mat& Y, const arma::mat& Dhat, arma::mat* grad) {
  const arma::mat D = distances(Y);
  const double s = 0.5 * arma::accu(arma::square(D - Dhat));
  if (grad) {
    // 2 sum_j (1 - dhat_ij/d_ij)(y_i - y_j) = 2 (Y diag(rowsum W) - Y W), W_ij = 1 - dhat/d.
    arma::mat W = 1.0 - Dhat / D;
    W.elem(arma::find(D == 0.0)).zeros();
    *grad = 2.0 * (Y * arma::diagmat(arma::sum(W, 1)) - Y * W);
  }
  return s;
}

arma::mat guttman_transform(const arma::mat& Y, const arma::mat& Dhat) {
  arma::mat D = distances(Y);
  D.elem(arma::find(D == 0.0)).fill(1e-5);  // scikit-learn's guard for coinciding points
  arma::mat B = -Dhat / D;
  B.diag().zeros();
  B.diag() = -arma::sum(B, 1);
  return Y * B / double(Y.n_cols);  // B symmetric: (B Y')' = Y B
}

arma::vec place_point(const arma::mat& Y, const arma::vec& dhat, arma::uword iterations,
                      std::vector<double>* stresses) {
  const double n = double(Y.n_cols);
  arma::vec y = Y.col(dhat.index_min());
  const arma::vec mean = arma::sum(Y, 1) / n;
  const double still = 1e-12 * (1.0 + arma::mean(dhat));
  for (arma::uword it = 0; it < iterations; ++it) {
    check_task_deadline(int(it), arma::datum::nan, int(iterations));
    arma::mat diff = Y;
    diff.each_col() -= y;
    diff *= -1.0;  // columns y - y_i
    const arma::rowvec d = arma::sqrt(arma::sum(arma::square(diff), 0));
    if (stresses) stresses->push_back(arma::accu(arma::square(d.t() - dhat)));
    // A coinciding training point pulls only through the mean term (de Leeuw's convention).
    arma::rowvec w = dhat.t() / d;
    w.elem(arma::find(d == 0.0)).zeros();
    const arma::vec next = mean + diff * w.t() / n;
    const double step = arma::norm(next - y);
    y = next;
    if (step <= still) break;
  }
  return y;
}

arma::vec isotonic_regression(const arma::vec& y) {
  // Blocks of pooled values: mean and weight; merge while the last two are out of order.
  std::vector<double> mean, weight;
  std::vector<arma::uword> count;
  for (arma::uword i = 0; i < y.n_elem; ++i) {
    mean.push_back(y(i));
    weight.push_back(1.0);
    count.push_back(1);
    while (mean.size() > 1 && mean[mean.size() - 2] > mean.back()) {
      const std::size_t b = mean.size() - 1;
      const double w = weight[b - 1] + weight[b];
      mean[b - 1] = (weight[b - 1] * mean[b - 1] + weight[b] * mean[b]) / w;
      weight[b - 1] = w;
      count[b - 1] += count[b];
      mean.pop_back();
      weight.pop_back();
      count.pop_back();
    }
  }
  arma::vec out(y.n_elem);
  arma::uword at = 0;
  for (std::size_t b = 0; b < mean.size(); ++b)
    for (arma::uword c = 0; c < count[b]; ++c) out(at++) = mean[b];
  return out;
}

namespace {

// Kruskal's disparities: the current distances D regressed monotonically on the order of the
// input distances Delta over the pairs i < j (ties in Delta keep their index order), made
// symmetric and scaled to sum_{i<j} dhat^2 = n(n-1)/2.
arma::mat disparities(const arma::mat& D, const arma::uvec& upper, const arma::uvec& order) {
  const arma::uword n = D.n_rows;
  const arma::vec d = D.elem(upper);
  const arma::vec fit = isotonic_regression(d(order));
  arma::vec dhat(d.n_elem);
  dhat(order) = fit;
  arma::mat Dhat(n, n, arma::fill::zeros);
  Dhat.elem(upper) = dhat;
  Dhat = Dhat + Dhat.t();
  const double pairs = 0.5 * double(n) * double(n - 1);
  return Dhat * std::sqrt(pairs / arma::accu(arma::square(dhat)));
}

}  // namespace

void Smacof::fit_from(const arma::mat& X, const arma::mat& start, Trace* trace) {
  const arma::mat Delta = distances(X);
  arma::uvec upper;
  arma::uvec order;
  if (!s_.metric) {
    upper = arma::trimatu_ind(arma::size(Delta), 1);
    order = arma::stable_sort_index(arma::vec(Delta.elem(upper)));
  }
  arma::mat Y = start;
  double old = arma::datum::inf;
  bool first = true;
  const auto t0 = std::chrono::steady_clock::now();
  for (arma::uword it = 0; it < s_.iterations; ++it) {
    const arma::mat Dhat = s_.metric ? Delta : disparities(distances(Y), upper, order);
    arma::mat g;
    stress_ = raw_stress(Y, Dhat, trace ? &g : nullptr);
    if (trace)
      trace->log(int(it), stress_, arma::norm(g, "fro"),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    check_task_deadline(int(it), stress_, int(s_.iterations));
    Y = guttman_transform(Y, Dhat);
    const double size = arma::accu(arma::sqrt(arma::sum(arma::square(Y), 0)));
    if (!first && old - stress_ / size < s_.tolerance) break;
    first = false;
    old = stress_ / size;
  }
  if (!Y.is_finite()) throw MethodError("smacof: the iteration diverged");
  Y_ = Y;
  X_ = X;
  if (!s_.metric) {
    const arma::mat Dhat = disparities(distances(Y_), upper, order);
    const arma::vec delta = Delta.elem(upper), dhat = Dhat.elem(upper);
    delta_sorted_ = delta(order);
    dhat_sorted_ = dhat(order);
  }
}

arma::vec Smacof::targets(const arma::vec& delta) const {
  if (s_.metric) return delta;
  arma::vec out(delta.n_elem);
  const double* lo = delta_sorted_.memptr();
  const double* hi = lo + delta_sorted_.n_elem;
  for (arma::uword i = 0; i < delta.n_elem; ++i) {
    const double t = delta(i);
    const std::size_t k = std::size_t(std::lower_bound(lo, hi, t) - lo);
    if (k == 0)  // below the smallest pair: proportionally, so a duplicate gets target 0
      out(i) = lo[0] > 0 ? t * dhat_sorted_(0) / lo[0] : dhat_sorted_(0);
    else if (k == delta_sorted_.n_elem)
      out(i) = t * dhat_sorted_(k - 1) / lo[k - 1];
    else if (lo[k] == lo[k - 1])
      out(i) = dhat_sorted_(k);
    else
      out(i) = dhat_sorted_(k - 1) +
               (dhat_sorted_(k) - dhat_sorted_(k - 1)) * (t - lo[k - 1]) / (lo[k] - lo[k - 1]);
  }
  return out;
}

arma::mat Smacof::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != X_.n_rows)
    throw MethodError("smacof: new points have " + std::to_string(Xnew.n_rows) +
                      " dimensions, the training data " + std::to_string(X_.n_rows));
  arma::mat out(Y_.n_rows, Xnew.n_cols);
  for (arma::uword j = 0; j < Xnew.n_cols; ++j) {
    arma::mat diff = X_;
    diff.each_col() -= Xnew.col(j);
    const arma::vec delta = arma::sqrt(arma::sum(arma::square(diff), 0)).t();
    out.col(j) = place_point(Y_, targets(delta), s_.iterations);
  }
  return out;
}

void Smacof::fit(const FitInput& in) {
  MdsSpectrum classical;
  classical.fit(sq_distances(in.X), in.dim, "smacof");
  fit_from(in.X, classical.embedding(), in.trace);
}

namespace {

// The parameters the contract and the budget both read.
struct SmacofKeys {
  IntKey iterations = keywords::iterations(
      300, 100000, "Guttman transforms (scikit-learn: 300); also the cap for each new point");
};

MethodInfo smacof_info() {
  MethodInfo m = describe_method(
      "smacof", "manifold",
      "metric or non-metric MDS: raw stress by SMACOF's Guttman transform; new points by their own "
      "stress against the fixed configuration",
      "de Leeuw 1977; Borg & Groenen 2005, ch. 8 and 9.2; Kruskal 1964 (scikit-learn's MDS); "
      "Trosset & Priebe 2008 (new points)");
  const BoolKey metric = ParamSpec::boolean(
      "metric", true, "targets: the input distances, or their monotone regression (Kruskal)");
  const auto [iterations] = SmacofKeys{};
  const RealKey tolerance = keywords::tolerance(
      1e-3, std::nullopt, "on the decrease of stress / sum_i |y_i| (scikit-learn's eps)");
  m.params = {metric, iterations, tolerance};
  m.iterative = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 1 ? s.n - 1 : 0; };
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Smacof>(
        SmacofSetting{metric(p), arma::uword(iterations(p)), tolerance(p)});
  };
  return m;
}

}  // namespace
// Input distances, current distances, targets, B and the classical start's double-centred
// matrix with its eigensolver's copy.
DRBENCH_METHOD(smacof_info, dense_budget(
                                [keys = SmacofKeys{}](const TaskSize& z) {
                                  return z.n * z.n * z.d + 5.0 * z.n * z.n * z.n +
                                         double(keys.iterations(z.p)) * z.n * z.n * (4.0 + z.q);
                                },
                                6.0, 1.0))
}  // namespace drbench
