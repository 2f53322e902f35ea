#include <catch2/catch.hpp>
#include <memory>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/gplvm/back_constraints/linear.hpp"
#include "methods/gplvm/back_constraints/mlp.hpp"
#include "methods/gplvm/back_constraints/rbf.hpp"

using namespace drbench;

namespace {

// Relative error of chain() against finite differences of a nonlinear function of the latent
// points, f(X) = <R, X> + 1/2 |X|^2, whose gradient R + X differs at every entry (quadratic in X,
// so central differences of the linear maps are exact up to rounding).
double chain_error(BackConstraint& bc, const arma::mat& R) {
  FunctionObjective obj([&](const arma::vec& p, arma::vec* g) {
    bc.set_params(p);
    const arma::mat X = bc.latent();
    if (g) *g = bc.chain(R + X);
    return arma::accu(R % X) + 0.5 * arma::accu(arma::square(X));
  });
  const arma::vec p0 = bc.params();
  const double err = check_gradient(obj, p0).max_rel_error;
  bc.set_params(p0);
  return err;
}

std::vector<std::unique_ptr<BackConstraint>> all_maps() {
  std::vector<std::unique_ptr<BackConstraint>> v;
  v.push_back(std::make_unique<RbfBackConstraint>(0.1));
  v.push_back(std::make_unique<MlpBackConstraint>(7, 42));
  v.push_back(std::make_unique<LinearBackConstraint>());
  return v;
}

}  // namespace

TEST_CASE("Back-constraint maps: chain rule matches finite differences", "[back_constraints]") {
  Rng rng(11);
  const arma::uword d = 5, n = 20, q = 2;
  const arma::mat Y = rng.randn(d, n);
  const arma::mat X0 = 0.5 * rng.randn(q, n);
  const arma::mat R = rng.randn(q, n);
  for (auto& bc : all_maps()) {
    INFO(bc->name());
    bc->setup(Y, X0);
    // Move away from the least-squares start so that no structure of it hides an error.
    bc->set_params(bc->params() + 0.05 * rng.randn(bc->params().n_elem, 1));
    CHECK(chain_error(*bc, R) < 1e-6);
    // The out-of-sample map of the training data is the training latent points.
    CHECK(arma::abs(bc->map(Y) - bc->latent()).max() < 1e-10);
    CHECK_THROWS_AS(bc->map(rng.randn(d + 1, 3)), MethodError);
  }
}

TEST_CASE("Back-constraint setup fits the initial latent points", "[back_constraints]") {
  Rng rng(12);
  const arma::uword d = 4, n = 30;
  const arma::mat Y = rng.randn(d, n);
  arma::mat X0 = rng.randn(2, d) * Y;  // linear in Y: every map can represent it
  X0.each_col() += arma::vec{0.3, -0.2};

  LinearBackConstraint lin;
  lin.setup(Y, X0);
  CHECK(arma::abs(lin.latent() - X0).max() < 1e-10);

  // Kernel regression interpolates any X0 (K is positive definite for distinct points), up to the
  // tiny ridge the least-squares start uses.
  RbfBackConstraint rbf(0.5);
  const arma::mat Xr = rng.randn(2, n);
  rbf.setup(Y, Xr);
  CHECK(arma::abs(rbf.latent() - Xr).max() < 1e-3);
  // A new point close to a training point maps close to that point's latent position.
  const arma::mat ynear = Y.col(3) + 1e-6;
  CHECK(arma::abs(rbf.map(ynear) - rbf.latent().col(3)).max() < 1e-3);

  // The MLP's output layer is the least-squares fit given its random hidden layer: with more
  // hidden units than points it interpolates.
  MlpBackConstraint mlp(40, 7);
  mlp.setup(Y, Xr);
  CHECK(arma::abs(mlp.latent() - Xr).max() < 1e-6);
  // Same seed, same map.
  MlpBackConstraint mlp2(40, 7);
  mlp2.setup(Y, Xr);
  CHECK(arma::abs(mlp2.params() - mlp.params()).max() == 0.0);

  CHECK_THROWS_AS(RbfBackConstraint(0.0), MethodError);
  CHECK_THROWS_AS(MlpBackConstraint(0, 1), MethodError);
}
