#include <catch2/catch.hpp>
#include <cmath>

#include "framework/linalg/lars.hpp"
#include "linear_support.hpp"
#include "methods/linear/oip/oip.hpp"
#include "methods/linear/soip/soip.hpp"

using namespace drbench;
using namespace drbench::testing;

namespace {

// Cyclic coordinate descent for 1/2 |y - X b|^2 + lambda |b|_1: the independent reference.
arma::vec lasso_cd(const arma::mat& X, const arma::vec& y, double lambda) {
  arma::vec b(X.n_cols, arma::fill::zeros), r = y;
  const arma::rowvec sq = arma::sum(arma::square(X), 0);
  for (int sweep = 0; sweep < 100000; ++sweep) {
    double change = 0.0;
    for (arma::uword j = 0; j < X.n_cols; ++j) {
      const double rho = arma::dot(X.col(j), r) + sq(j) * b(j);
      const double nb = (rho > lambda ? rho - lambda : rho < -lambda ? rho + lambda : 0.0) / sq(j);
      if (nb != b(j)) {
        r -= X.col(j) * (nb - b(j));
        change = std::max(change, std::abs(nb - b(j)));
        b(j) = nb;
      }
    }
    if (change < 1e-15) break;
  }
  return b;
}

// Correlated columns make the path drop variables as well as add them.
arma::mat correlated_design(Rng& rng, arma::uword n, arma::uword p) {
  arma::mat X = rng.randn(n, p);
  for (arma::uword j = 1; j < p; ++j) X.col(j) = 0.6 * X.col(j - 1) + 0.8 * X.col(j);
  return X;
}

}  // namespace

TEST_CASE("LARS lasso equals coordinate descent at the same lambda", "[linear][soip]") {
  Rng rng(91);
  for (int rep = 0; rep < 4; ++rep) {
    const arma::mat X = correlated_design(rng, 40, 12);
    const arma::vec y = X * rng.randn(12, 1) + 0.5 * rng.randn(40, 1);
    const double lmax = arma::abs(X.t() * y).max();
    for (double frac : {0.6, 0.2, 0.05, 0.005}) {
      const LassoSolution s = lasso_lars(X, y, frac * lmax, 0);
      CHECK(s.lambda == Approx(frac * lmax).epsilon(1e-12));
      const arma::vec ref = lasso_cd(X, y, frac * lmax);
      CHECK(arma::abs(s.beta - ref).max() < 1e-8 * std::max(1.0, arma::abs(ref).max()));
      // KKT: |x_j^T r| <= lambda, with equality and matching sign on the support.
      const arma::vec corr = X.t() * (y - X * s.beta);
      CHECK(arma::abs(corr).max() <= frac * lmax * (1 + 1e-9));
      for (arma::uword j = 0; j < 12; ++j)
        if (s.beta(j) != 0.0) CHECK(corr(j) == Approx(frac * lmax * (s.beta(j) > 0 ? 1 : -1)));
    }
  }
}

TEST_CASE("LARS stops at the requested number of nonzeros", "[linear][soip]") {
  Rng rng(92);
  const arma::mat X = correlated_design(rng, 60, 15);
  const arma::vec y = X * rng.randn(15, 1);
  for (arma::uword card : {1u, 3u, 7u}) {
    const LassoSolution s = lasso_lars(X, y, 0.0, card);
    CHECK(s.nonzeros <= card);
    CHECK(s.nonzeros >= 1);
    // The point where it stopped is the lasso solution at its own lambda.
    const arma::vec ref = lasso_cd(X, y, s.lambda);
    CHECK(arma::abs(s.beta - ref).max() < 1e-7 * std::max(1.0, arma::abs(ref).max()));
  }
  // lambda = 0 without a cardinality limit: least squares.
  const LassoSolution ls = lasso_lars(X, y, 0.0, 0);
  CHECK(arma::approx_equal(ls.beta, arma::solve(X, y), "absdiff", 1e-8));
}

TEST_CASE("soip without sparsity is OIP; with a cardinality it is sparse", "[linear][soip]") {
  Rng rng(93);
  const arma::mat X = rng.randn(8, 70) + 1.0;
  auto oip = fit_method("oip", X, nullptr, 0, 3);
  ParamSet dense;
  dense.set("lambda", 0.0);
  auto s0 = fit_method("soip", X, nullptr, 0, 3, dense);
  const auto& soip0 = dynamic_cast<const Soip&>(*s0);
  CHECK(signed_column_diff(soip0.projection(), dynamic_cast<const Oip&>(*oip).projection()) < 1e-8);
  ParamSet sparse;
  sparse.set("nonzeros", std::int64_t(2));
  sparse.set("lambda", 0.0);
  auto s2 = fit_method("soip", X, nullptr, 0, 3, sparse);
  const arma::mat& A = dynamic_cast<const Soip&>(*s2).projection();
  for (arma::uword j = 0; j < 3; ++j) {
    CHECK(arma::accu(A.col(j) != 0.0) <= 2);
    CHECK(arma::norm(A.col(j)) == Approx(1.0));
  }
  CHECK(arma::approx_equal(s2->transform(X), s2->embedding(), "absdiff", 1e-10));
}
