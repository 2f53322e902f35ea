#include "methods/manifold/spe/spe.hpp"

#include <chrono>
#include <cmath>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/neighbours/graph_memory.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

namespace {

// Keeps the update finite when two points coincide (the paper's epsilon).
constexpr double kEps = 1e-10;
// Pairs in the fixed sample the trace's stress and the radius's mean distance are measured on.
constexpr arma::uword kSamplePairs = 2000;

double input_distance(const arma::mat& X, arma::uword i, arma::uword j) {
  return arma::norm(X.col(i) - X.col(j));
}

arma::uword draw(Rng& rng, arma::uword n) {
  return std::min<arma::uword>(n - 1, arma::uword(rng.uniform() * double(n)));
}

}  // namespace

void spe_pair_update(double* yi, double* yj, arma::uword dim, double r, double lambda) {
  double d2 = 0;
  for (arma::uword c = 0; c < dim; ++c) d2 += (yi[c] - yj[c]) * (yi[c] - yj[c]);
  const double d = std::sqrt(d2);
  const double f = 0.5 * lambda * (r - d) / (d + kEps);
  for (arma::uword c = 0; c < dim; ++c) {
    const double step = f * (yi[c] - yj[c]);
    yi[c] += step;
    yj[c] -= step;
  }
}

void Spe::fit(const FitInput& in) {
  const arma::mat& X = in.X;
  const arma::uword n = X.n_cols, dim = in.dim;
  if (n < 2) throw MethodError("spe: needs at least 2 training points");
  // A fixed sample of pairs: the trace's stress, and the scale of a relative radius.
  arma::umat sample(2, kSamplePairs);
  arma::vec sample_r(kSamplePairs);
  for (arma::uword s = 0; s < kSamplePairs; ++s) {
    arma::uword i = draw(in.rng, n), j = draw(in.rng, n - 1);
    if (j >= i) ++j;
    sample(0, s) = i;
    sample(1, s) = j;
    sample_r(s) = input_distance(X, i, j);
  }
  const double rc = s_.radius > 0 ? s_.radius * arma::mean(sample_r) : arma::datum::inf;
  Y_ = in.rng.randu(dim, n);
  const arma::uword steps = s_.pairs_per_point * n;
  const double lambda_end = 0.01 * s_.learning_rate;
  const auto t0 = std::chrono::steady_clock::now();
  for (arma::uword cycle = 0; cycle < s_.iterations; ++cycle) {
    check_task_deadline(int(cycle), std::nan(""), int(s_.iterations));
    const double lambda = s_.iterations > 1
                              ? s_.learning_rate + (lambda_end - s_.learning_rate) * double(cycle) /
                                                       double(s_.iterations - 1)
                              : s_.learning_rate;
    for (arma::uword s = 0; s < steps; ++s) {
      const arma::uword i = draw(in.rng, n);
      arma::uword j = draw(in.rng, n - 1);
      if (j >= i) ++j;
      const double r = input_distance(X, i, j);
      double* yi = Y_.colptr(i);
      double* yj = Y_.colptr(j);
      if (r > rc) {
        double d2 = 0;
        for (arma::uword c = 0; c < dim; ++c) d2 += (yi[c] - yj[c]) * (yi[c] - yj[c]);
        if (std::sqrt(d2) >= r) continue;  // far in the input and already far enough apart
      }
      spe_pair_update(yi, yj, dim, r, lambda);
    }
    if (in.trace) {
      // Kruskal's raw stress over the fixed sample, relative to its squared distances.
      double num = 0;
      for (arma::uword s = 0; s < kSamplePairs; ++s) {
        const double d = arma::norm(Y_.col(sample(0, s)) - Y_.col(sample(1, s)));
        num += (d - sample_r(s)) * (d - sample_r(s));
      }
      in.trace->log(int(cycle), num / std::max(arma::accu(arma::square(sample_r)), 1e-300), 0.0,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  if (!Y_.is_finite()) throw MethodError("spe: the embedding diverged; lower 'learning_rate'");
}

namespace {

// The parameters the contract and the budget both read.
struct SpeKeys {
  IntKey iterations = keywords::iterations(100, 1000000, "cycles (the paper's C)");
  IntKey pairs =
      ParamSpec::integer("pairs_per_point", 10, 1, std::nullopt,
                         "random pair updates per cycle, per training point (the paper's S / n)");
};

MethodInfo spe_info() {
  MethodInfo m = describe_method(
      "spe", "manifold",
      "stochastic proximity embedding: random pair updates towards the input distances",
      "Agrafiotis, Stochastic proximity embedding, J. Comput. Chem. 24 (2003) 1215-1221");
  const auto [iterations, pairs] = SpeKeys{};
  const RealKey learning_rate = keywords::learning_rate(
      1.0, "lambda of the first cycle, falling linearly to a hundredth of it by the last");
  const RealKey radius = ParamSpec::real(
      "radius", 0.0, 0.0, std::nullopt,
      "neighbourhood radius in multiples of the mean input distance: farther pairs only push "
      "apart (0 = every pair, global SPE)");
  m.params = {iterations, pairs, learning_rate, radius};
  m.out_of_sample = false;
  m.iterative = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Spe>(
        SpeSetting{arma::uword(iterations(p)), arma::uword(pairs(p)), learning_rate(p), radius(p)});
  };
  return m;
}

}  // namespace
// The embedding and the pair sample: no n x n matrix.
DRBENCH_METHOD(spe_info, make_budget(
                             [keys = SpeKeys{}](const TaskSize& z) {
                               return double(keys.iterations(z.p)) * double(keys.pairs(z.p)) * z.n *
                                      (z.d + 3.0 * z.q);
                             },
                             [](const TaskSize& z) {
                               return kProcessBaseBytes + 8.0 * 2.0 * z.n * (z.q + z.d) +
                                      8.0 * 3.0 * kSamplePairs;
                             }))
}  // namespace drbench
