#include <catch2/catch.hpp>
#include <memory>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/gplvm/back_constraints/linear.hpp"
#include "methods/gplvm/back_constraints/mlp.hpp"
#include "methods/gplvm/back_constraints/rbf.hpp"
#include "methods/gplvm/init.hpp"
#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/model.hpp"
#include "methods/gplvm/objective.hpp"
#include "methods/gplvm/priors/discriminative.hpp"
#include "methods/gplvm/priors/gmrf.hpp"
#include "methods/gplvm/priors/locally_linear.hpp"
#include "methods/gplvm/priors/rank.hpp"
#include "methods/gplvm/priors/tsne.hpp"

using namespace drbench;

namespace {

// Three Gaussian classes in R^d around well separated means, n_per points each.
struct Toy {
  arma::mat X;
  arma::uvec y;
  Toy(arma::uword n_per, arma::uword d, std::uint64_t seed, arma::uword C = 3) {
    Rng rng(seed);
    const arma::mat means = 2.0 * rng.randn(d, C);
    X.set_size(d, n_per * C);
    y.set_size(n_per * C);
    for (arma::uword i = 0; i < X.n_cols; ++i) {
      y(i) = i % C;
      X.col(i) = means.col(y(i)) + 0.7 * rng.randn(d, 1);
    }
  }
};

std::unique_ptr<Method> make(const std::string& name, ParamSet given) {
  const MethodInfo& info = Registry::instance().get(name);
  return info.make(info.complete(given));
}

double within_over_total(const arma::mat& X, const arma::uvec& y, arma::uword C) {
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  double within = 0;
  for (arma::uword c = 0; c < C; ++c) {
    const arma::mat Z = X.cols(arma::find(y == c));
    within += arma::accu(arma::square(Z.each_col() - arma::mean(Z, 1)));
  }
  return within / arma::accu(arma::square(Xc));
}

}  // namespace

TEST_CASE("Back-constrained GP-LVM objective with priors matches finite differences",
          "[gp_models]") {
  const Toy t(8, 5, 21);
  const arma::mat Y = t.X.each_col() - arma::mean(t.X, 1);
  const arma::uword q = 2;
  Rng rng(3);
  // A start that is smooth in Y, as the PCA start is: random latent points would need huge RBF
  // weights, and the checker's relative step would then be too coarse for them.
  const arma::mat X0 = 0.3 * rng.randn(q, Y.n_rows) * Y;
  std::vector<std::shared_ptr<BackConstraint>> maps{
      std::make_shared<RbfBackConstraint>(0.1), std::make_shared<MlpBackConstraint>(6, 5),
      std::make_shared<LinearBackConstraint>(), nullptr};
  for (auto& bc : maps) {
    INFO((bc ? bc->name() : std::string("none")));
    GplvmObjective obj(Y, make_kernel("rbf+bias+white"), q);
    obj.add_prior(std::make_shared<GmrfPrior>(t.y, 3, 0.3));
    obj.add_prior(std::make_shared<DiscriminativePrior>(t.y, 3, 1.0));
    obj.add_prior(std::make_shared<LocallyLinearPrior>(lle_weights(Y, 4, 1e-3), 2.0));
    obj.add_prior(std::make_shared<RankPrior>(0.5, 1.0));
    obj.add_prior(std::make_shared<TsnePrior>(tsne_joint_affinities(Y, 5.0), 0.7));
    if (bc) {
      bc->setup(Y, X0);
      obj.set_back_constraint(bc);
    }
    arma::vec x = obj.pack(X0);
    x += 0.02 * rng.randn(x.n_elem, 1);
    CHECK(check_gradient(obj, x).max_rel_error < 1e-6);
  }
}

TEST_CASE("GPLRF: classes collapse toward their means as alpha grows", "[gp_models]") {
  // GPLRF's discussion of eq. 9: for large alpha the GMRF term dominates and
  // its minimisers put every class on one point, so within-class / total
  // scatter must fall toward 0.
  const Toy t(10, 6, 22);
  double prev = 1.0;
  for (double alpha : {1e-3, 1e-1, 1e1, 1e3}) {
    ParamSet p;
    p.set("lambda", alpha);
    p.set("back_constraint", std::string("none"));
    p.set("iterations", std::int64_t(150));
    auto m = make("gplrf", p);
    Rng rng(7);
    m->fit({t.X, &t.y, 3, 2, rng, nullptr});
    const double r = within_over_total(m->embedding(), t.y, 3);
    INFO("alpha " << alpha << " within/total " << r);
    CHECK(r < prev);
    prev = r;
  }
  CHECK(prev < 1e-2);
}

TEST_CASE("GPLRF with alpha -> 0 is the GP-LVM", "[gp_models]") {
  const Toy t(10, 5, 23);
  ParamSet p;
  p.set("lambda", 1e-12);
  p.set("back_constraint", std::string("none"));
  p.set("iterations", std::int64_t(30));
  auto m = make("gplrf", p);
  Rng r1(9), r2(9);
  m->fit({t.X, &t.y, 3, 2, r1, nullptr});
  GplvmSettings s;
  s.iterations = 30;
  GplvmModel plain(s);
  plain.fit(t.X, 2, r2, nullptr);
  CHECK(arma::abs(m->embedding() - plain.latent()).max() < 1e-6 * arma::abs(plain.latent()).max());
}

TEST_CASE("Back-constrained methods map a training point to its own latent point", "[gp_models]") {
  const Toy t(8, 5, 24);
  for (const std::string bc : {"rbf", "mlp", "linear"}) {
    INFO(bc);
    ParamSet p;
    p.set("lambda", 1.0);
    p.set("back_constraint", bc);
    p.set("kernel_width", 3.162277660168379);  // gamma 0.1
    p.set("iterations", std::int64_t(20));
    auto m = make("gplrf", p);
    Rng rng(4);
    Trace trace;
    m->fit({t.X, &t.y, 3, 2, rng, &trace});
    CHECK(!trace.rows.empty());
    const arma::mat E = m->embedding();
    CHECK(arma::abs(m->transform(t.X) - E).max() < 1e-8 * (1.0 + arma::abs(E).max()));
  }
}

TEST_CASE("DGPLVM caps the latent dimension at C-1 with a clear error", "[gp_models]") {
  const Toy t(8, 5, 25);
  const MethodInfo& info = Registry::instance().get("dgplvm");
  DataShape shape;
  shape.n = t.X.n_cols;
  shape.d = t.X.n_rows;
  shape.n_classes = 3;
  CHECK(info.dim_limit(shape, info.complete({})) == 2);
  auto m = make("dgplvm", {});
  Rng rng(1);
  CHECK_THROWS_WITH(m->fit({t.X, &t.y, 3, 3, rng, nullptr}), Catch::Contains("C-1"));
  // gplrf has no such cap.
  CHECK(Registry::instance().get("gplrf").dim_limit(shape, {}) > 2);
}

TEST_CASE("Every GPLRF rival fits, logs a trace and maps new points", "[gp_models]") {
  const Toy train(8, 5, 26), test(3, 5, 27);
  for (const std::string name :
       {"gplrf", "dgplvm", "llgplvm", "rankgplvm", "tsnegplvm", "bcgplvm"}) {
    INFO(name);
    const MethodInfo& info = Registry::instance().get(name);
    CHECK(info.family == "gplvm");
    CHECK(info.iterative);
    ParamSet p;
    p.set("iterations", std::int64_t(8));
    auto m = info.make(info.complete(p));
    Rng rng(2);
    Trace trace;
    m->fit({train.X, &train.y, 3, 2, rng, &trace});
    CHECK(trace.rows.size() >= 2);
    const arma::mat E = m->embedding();
    CHECK(E.n_rows == 2);
    CHECK(E.n_cols == train.X.n_cols);
    CHECK(E.is_finite());
    const arma::mat Z = m->transform(test.X);
    CHECK(Z.n_rows == 2);
    CHECK(Z.n_cols == test.X.n_cols);
    CHECK(Z.is_finite());
  }
  // Supervised methods refuse to run without labels.
  Rng rng(3);
  CHECK_THROWS_AS(make("gplrf", {})->fit({train.X, nullptr, 0, 2, rng, nullptr}), MethodError);
}

TEST_CASE("init: slpp starts from the SLPP coordinates at unit variance (supervised variants only)",
          "[gp_models]") {
  const Toy t(10, 6, 31);
  const arma::mat X0 = slpp_latent_init(t.X, t.y, 2);
  REQUIRE(X0.n_rows == 2);
  CHECK(arma::abs(arma::mean(X0, 1)).max() < 1e-12);
  CHECK(arma::approx_equal(arma::stddev(X0, 1, 1), arma::ones(2), "absdiff", 1e-12));
  // The same directions as the registered slpp method (heat weights, t = 0, no PCA pre-step).
  ParamSet sp;
  auto slpp = make("slpp", sp);
  Rng rng(4);
  slpp->fit({t.X, &t.y, 3, 2, rng, nullptr});
  arma::mat E = slpp->embedding();
  E.each_col() -= arma::mean(E, 1);
  for (arma::uword k = 0; k < 2; ++k) {
    const double c =
        arma::dot(E.row(k), X0.row(k)) / (arma::norm(E.row(k)) * arma::norm(X0.row(k)));
    CHECK(std::abs(c) == Approx(1.0).epsilon(1e-9));
  }
  // SLPP separates the classes from the start, so the start already has a small within-class share.
  CHECK(within_over_total(X0, t.y, 3) < 0.2);
  // gplrf accepts it, starts there and fits; the unsupervised variants reject it when configured.
  ParamSet p;
  p.set("init", std::string("slpp"));
  p.set("iterations", std::int64_t(5));
  auto m = make("gplrf", p);
  m->fit({t.X, &t.y, 3, 2, rng, nullptr});
  CHECK(m->embedding().is_finite());
  auto init_spec = [](const std::string& method) {
    for (const auto& s : Registry::instance().get(method).params)
      if (s.name == "init") return s;
    FAIL("no init parameter");
    return ParamSpec{};
  };
  CHECK(init_spec("gplrf").check(std::string("slpp")).empty());
  CHECK(init_spec("dgplvm").check(std::string("slpp")).empty());
  CHECK_THAT(init_spec("bcgplvm").check(std::string("slpp")), Catch::Contains("{ppca, pca}"));
}
