// NCA against scikit-learn's NeighborhoodComponentsAnalysis (scripts/make_nca_fixture.py): the
// same objective and gradient at a fixed map, the gradient against finite differences, and a
// 1-NN test error on wine close to scikit-learn's fit (the optimisers differ: L-BFGS-B there,
// drbench's L-BFGS here).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "framework/optim/grad_check.hpp"
#include "methods/linear/nca/nca.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::one_nn_error;
using drbench::testing::sklearn_fixture;

TEST_CASE("nca's objective and gradient match scikit-learn's", "[linear][nca]") {
  const arma::mat F = sklearn_fixture("nca_sklearn.txt");
  const arma::mat X = F.rows(0, 12);
  const arma::uvec y = arma::conv_to<arma::uvec>::from(F.row(13));
  const arma::mat L = F.submat(28, 0, 29, 12), G = F.submat(31, 0, 32, 12);
  NcaObjective obj(X, y, 2);
  arma::vec g;
  CHECK(obj.evaluate(arma::vectorise(L), &g) == Approx(F(30, 0)).epsilon(1e-12));
  CHECK(arma::abs(arma::reshape(g, 2, 13) - G).max() < 1e-10 * arma::abs(G).max());
  for (const double scale : {0.1, 1.0, 3.0}) {
    INFO("scale " << scale);
    CHECK(check_gradient(obj, arma::vectorise(scale * L)).max_rel_error < 1e-6);
  }
}

TEST_CASE("nca's 1-NN error on wine is scikit-learn's", "[linear][nca]") {
  const arma::mat F = sklearn_fixture("nca_sklearn.txt");
  const arma::mat X = F.rows(0, 12), Xte = F.rows(14, 26);
  const arma::uvec y = arma::conv_to<arma::uvec>::from(F.row(13));
  const arma::uvec yte = arma::conv_to<arma::uvec>::from(F.row(27));
  auto m = fit_method("nca", {}, X, 2, &y, 3);
  const double err = one_nn_error(m->embedding(), y, m->transform(Xte), yte);
  INFO("drbench " << err << ", scikit-learn " << F(33, 0) << ", PCA " << F(33, 1));
  // Within two test points of scikit-learn's, and no worse than PCA's start.
  CHECK(std::abs(err - F(33, 0)) <= 2.0 / 89 + 1e-12);
  CHECK(err <= F(33, 1) + 1e-12);
  const auto& nca = dynamic_cast<const Nca&>(*m);
  CHECK(nca.objective() < -0.9 * 89);  // most points' stochastic neighbour shares their class
}
