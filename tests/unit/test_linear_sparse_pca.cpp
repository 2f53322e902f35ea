// Sparse PCA against scikit-learn's SparsePCA (scripts/make_sparse_pca_fixture.py): the same
// components, objective, iteration count and ridge transform; and the lasso it solves per feature
// checked by its optimality conditions.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "methods/linear/sparse_pca/sparse_pca.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;

TEST_CASE("sparse_pca matches scikit-learn's SparsePCA", "[linear][sparse_pca]") {
  const arma::mat F = drbench::testing::sklearn_fixture("sparse_pca_sklearn.txt");
  const arma::mat X = F.rows(0, 9), Xnew = F.submat(10, 0, 19, 9);
  for (int b = 0; b < 2; ++b) {
    const double lambda = b == 0 ? 1.0 : 5.0;
    INFO("lambda " << lambda);
    const arma::uword s = 20 + 10 * b;
    const arma::mat C = F.submat(s, 0, s + 2, 9), Y = F.rows(s + 3, s + 5),
                    T = F.submat(s + 6, 0, s + 8, 9);
    auto m = fit_method("sparse_pca", {{"lambda", lambda}}, X, 3);
    const auto& spca = dynamic_cast<const SparsePca&>(*m);
    CHECK(double(spca.iterations_run()) == F(s + 9, 1));
    CHECK(spca.objective() == Approx(F(s + 9, 0)).epsilon(1e-9));
    CHECK(arma::abs(spca.components() - C).max() < 1e-7);
    // The same loadings are exactly zero (sparsity is the point of the method).
    CHECK(arma::accu(spca.components() == 0.0) == arma::accu(C == 0.0));
    CHECK(arma::accu(C == 0.0) > 10);
    CHECK(arma::abs(m->embedding() - Y).max() < 1e-6);
    CHECK(arma::abs(m->transform(Xnew) - T).max() < 1e-6);
  }
}

TEST_CASE("sparse_pca's lasso meets its optimality conditions", "[linear][sparse_pca]") {
  Rng rng(9);
  const arma::mat D = rng.randn(4, 30);
  const arma::vec y = rng.randn(30, 1);
  const arma::mat G = D * D.t();
  const arma::vec b = D * y;
  for (const double lambda : {0.0, 1.0, 5.0, 1e3}) {
    INFO("lambda " << lambda);
    arma::vec c(4, arma::fill::zeros);
    lasso_gram(G, b, lambda, c);
    // Subgradient conditions of 1/2 |y - D'c|^2 + lambda |c|_1: on the support the correlation
    // of the residual equals lambda sign(c), off it it is at most lambda.
    const arma::vec r = b - G * c;
    for (arma::uword t = 0; t < 4; ++t) {
      if (c(t) != 0)
        CHECK(r(t) == Approx(lambda * (c(t) > 0 ? 1 : -1)).margin(1e-9));
      else
        CHECK(std::abs(r(t)) <= lambda + 1e-9);
    }
    if (lambda == 0) CHECK(arma::abs(c - arma::solve(G, b)).max() < 1e-9);
    if (lambda == 1e3) CHECK(arma::accu(arma::abs(c)) == 0.0);
  }
}
