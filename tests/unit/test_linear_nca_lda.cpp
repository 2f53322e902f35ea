// The LDA start of NCA and LMNN (methods/common/lda_start) against scikit-learn
// (scripts/make_nca_lda_fixture.py, on the wine halves of tests/fixtures/nca_sklearn.txt): the
// same directions with the same scale as LinearDiscriminantAnalysis().scalings_, and NCA from
// that start with a 1-NN test error near NeighborhoodComponentsAnalysis(init='lda')'s.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "methods/common/lda_start.hpp"
#include "methods/linear/lmnn/lmnn.hpp"
#include "methods/linear/nca/nca.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::one_nn_error;
using drbench::testing::sklearn_fixture;

TEST_CASE("the lda start is scikit-learn's LDA scalings", "[linear][nca][lda_start]") {
  const arma::mat W = sklearn_fixture("nca_sklearn.txt"),
                  S = sklearn_fixture("nca_lda_sklearn.txt");
  const arma::mat X = W.rows(0, 12);
  const arma::uvec y = arma::conv_to<arma::uvec>::from(W.row(13));
  const arma::mat want = S.rows(0, 1);
  const arma::mat got = lda_start(X, y, 2, "nca");
  REQUIRE(got.n_rows == 2);
  REQUIRE(got.n_cols == 13);
  for (arma::uword r = 0; r < 2; ++r) {  // each direction up to its sign
    const double sign = arma::dot(got.row(r), want.row(r)) < 0 ? -1.0 : 1.0;
    INFO("direction " << r);
    CHECK(arma::abs(sign * got.row(r) - want.row(r)).max() < 1e-9 * arma::abs(want).max());
  }
  CHECK(lda_scalings(X, y).n_cols == 2);  // classes - 1
  CHECK_THROWS_WITH(lda_start(X, y, 3, "nca"),
                    Catch::Contains("'dims'") && Catch::Contains("'init'"));
}

TEST_CASE("nca from the lda start on wine is scikit-learn's", "[linear][nca][lda_start]") {
  const arma::mat W = sklearn_fixture("nca_sklearn.txt"),
                  S = sklearn_fixture("nca_lda_sklearn.txt");
  const arma::mat X = W.rows(0, 12), Xte = W.rows(14, 26);
  const arma::uvec y = arma::conv_to<arma::uvec>::from(W.row(13));
  const arma::uvec yte = arma::conv_to<arma::uvec>::from(W.row(27));
  auto m = fit_method("nca", {{"init", std::string("lda")}}, X, 2, &y, 3);
  const double err = one_nn_error(m->embedding(), y, m->transform(Xte), yte);
  auto lmnn = fit_method("lmnn", {{"init", std::string("lda")}}, X, 2, &y, 3);
  const double lmnn_err = one_nn_error(lmnn->embedding(), y, lmnn->transform(Xte), yte);
  INFO("nca(lda): drbench " << err << ", scikit-learn " << S(2, 0) << " (init pca: " << S(2, 1)
                            << "); lmnn(lda) " << lmnn_err);
  CHECK(std::abs(err - S(2, 0)) <= 2.0 / 89 + 1e-12);  // within two test points
  CHECK(lmnn_err <= 0.1);
}
