#include <catch2/catch.hpp>
#include <cmath>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/data/generators.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/gplvm/kernels/sum.hpp"
#include "methods/gplvm/kernels/tps.hpp"
#include "methods/gplvm/kernels/white.hpp"
#include "methods/gplvm/objective.hpp"
#include "methods/gplvm/priors/dynamics.hpp"

using namespace drbench;

namespace {

// Two noisy circles in d dimensions, each a time-ordered sequence of m points.
arma::mat circles(Rng& rng, arma::uword m, arma::uword d, arma::uvec& ids) {
  const arma::mat W = rng.randn(d, 2);
  arma::mat Y(d, 2 * m);
  ids.set_size(2 * m);
  for (arma::uword s = 0; s < 2; ++s)
    for (arma::uword t = 0; t < m; ++t) {
      const double a = 2.0 * arma::datum::pi * double(t) / double(m);
      Y.col(s * m + t) = W * arma::vec{std::cos(a) + 3.0 * s, std::sin(a)} + 0.05 * rng.randn(d, 1);
      ids(s * m + t) = s;
    }
  return Y;
}

}  // namespace

TEST_CASE("sequences_from_ids groups points in order of appearance", "[dynamics]") {
  const auto seqs = sequences_from_ids(arma::uvec{3, 3, 1, 3, 1});
  REQUIRE(seqs.size() == 2);
  CHECK(arma::all(seqs[0] == arma::uvec({0, 1, 3})));
  CHECK(arma::all(seqs[1] == arma::uvec({2, 4})));
}

TEST_CASE("GP dynamics prior gradients in X and hyperparameters match finite differences",
          "[dynamics]") {
  Rng rng(41);
  const arma::uword q = 2;
  const std::vector<arma::uvec> seqs = {{0, 3, 1, 5}, {2, 4, 6}, {7}};
  for (bool diff : {true, false}) {
    INFO("differences " << diff);
    GpDynamicsSettings s;
    s.differences = diff;
    s.inv_width = 0.7;  // away from the defaults so that every term is visible
    s.variance = 0.5;
    s.white = 0.05;
    s.first_precision = 0.8;
    GpDynamicsPrior prior(seqs, s);
    CHECK(prior.transitions() == 5);
    const arma::mat X = rng.randn(q, 8);
    FunctionObjective by_x([&](const arma::vec& x, arma::vec* g) {
      arma::mat gX;
      const double f = prior.value_grad(arma::reshape(x, q, 8), g ? &gX : nullptr);
      if (g) *g = arma::vectorise(gX);
      return f;
    });
    CHECK(check_gradient(by_x, arma::vectorise(X)).max_rel_error < 1e-6);
    FunctionObjective by_theta([&](const arma::vec& t, arma::vec* g) {
      GpDynamicsPrior p2(prior);
      p2.set_params(t);
      return p2.value_grad_params(X, nullptr, g);
    });
    CHECK(check_gradient(by_theta, prior.params()).max_rel_error < 1e-6);
  }
}

TEST_CASE("GP dynamics prior on a two-point sequence has its closed form", "[dynamics]") {
  GpDynamicsSettings s;  // defaults: variance 0.01, white 1e-6, inverse width 0.01
  const arma::vec x1 = {0.3, -1.2}, x2 = {0.9, 0.4};
  const arma::mat X = arma::join_rows(x1, x2);
  const double k0 = s.variance + s.white, q = 2, pi = arma::datum::pi;
  for (bool diff : {true, false}) {
    s.differences = diff;
    GpDynamicsPrior prior({arma::uvec{0, 1}}, s);
    const arma::vec target = diff ? arma::vec(x2 - x1) : x2;
    const double expect = 0.5 * q * std::log(2.0 * pi * k0) + arma::dot(target, target) / (2 * k0) +
                          0.5 * s.first_precision * arma::dot(x1, x1);
    CHECK(prior.value_grad(X, nullptr) == Approx(expect).epsilon(1e-10));
  }
}

TEST_CASE("TPSLVM objective with a learnt dynamics prior matches finite differences",
          "[dynamics]") {
  Rng rng(42);
  arma::uvec ids;
  arma::mat Y = circles(rng, 6, 5, ids);
  Y.each_col() -= arma::mean(Y, 1);
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::make_unique<TpsKernel>());
  parts.push_back(std::make_unique<WhiteKernel>(0.3));
  GplvmObjective obj(Y, std::make_unique<SumKernel>(std::move(parts)), 2);
  GpDynamicsSettings s;
  s.inv_width = 0.5;
  s.variance = 0.4;
  s.white = 0.01;
  obj.add_tuned_prior(std::make_shared<GpDynamicsPrior>(sequences_from_ids(ids), s));
  const arma::vec x = obj.pack(rng.randn(2, 12));
  REQUIRE(x.n_elem == 2 * 12 + 1 + 3);  // X, log noise, the dynamics kernel's three logs
  CHECK(check_gradient(obj, x).max_rel_error < 1e-6);
}

TEST_CASE("Dynamics methods refuse data without a time order, naming the dataset", "[dynamics]") {
  Rng rng(43);
  arma::uvec ids;
  const arma::mat Y = circles(rng, 10, 6, ids);
  for (const char* name : {"tpslvm_dm", "bctpslvm_dm", "gplvm_dm", "bcgplvm_dm"}) {
    INFO(name);
    const MethodInfo& info = Registry::instance().get(name);
    ParamSet given;
    given.set("iterations", std::int64_t(20));
    auto method = info.make(info.complete(given));
    FitInput in{Y, nullptr, 0, 2, rng, nullptr};
    in.dataset = "circles";
    try {
      method->fit(in);
      FAIL("no error without an order");
    } catch (const MethodError& e) {
      CHECK(std::string(e.what()).find("'circles'") != std::string::npos);
    }
    in.sequence = &ids;
    method->fit(in);
    CHECK(method->embedding().n_cols == 20);
    CHECK(method->embedding().is_finite());
  }
}

TEST_CASE("swiss_roll_gmm: 400 points on the roll, labelled by mixture component", "[dynamics]") {
  const Dataset ds = generate_dataset("swiss_roll_gmm", {}, 7);
  CHECK(ds.n() == 400);
  CHECK(ds.d() == 3);
  CHECK(ds.n_classes == 4);
  for (arma::uword k = 0; k < 4; ++k) CHECK(arma::accu(ds.y == k) == 100);
  // Components lie in order along the roll: their mean angle parameter increases.
  const arma::vec t = generator_latent("swiss_roll_gmm", {}, 7).row(0).t();
  for (arma::uword k = 1; k < 4; ++k)
    CHECK(arma::mean(t.elem(arma::find(ds.y == k))) >
          arma::mean(t.elem(arma::find(ds.y == k - 1))));
}
