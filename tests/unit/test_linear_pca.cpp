#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "linear_support.hpp"
#include "methods/linear/pca/pca.hpp"

using namespace drbench;
using drbench::testing::column_sign_mismatch;
using drbench::testing::fit_method;

namespace {

arma::mat anisotropic(Rng& rng, arma::uword d, arma::uword n) {
  arma::mat X = rng.randn(d, n);
  for (arma::uword i = 0; i < d; ++i) X.row(i) *= 1.0 + 3.0 * i;  // distinct variances
  return X + 5.0;                                                 // non-zero mean
}

}  // namespace

TEST_CASE("pca matches the SVD of the centred data up to sign", "[linear][pca]") {
  Rng rng(11);
  for (auto [d, n] : {std::pair<arma::uword, arma::uword>{8, 60}, {40, 15}}) {
    const arma::mat X = anisotropic(rng, d, n);
    const arma::uword k = 5;
    auto m = fit_method("pca", X, nullptr, 0, k);
    arma::mat U, V;
    arma::vec s;
    arma::svd_econ(U, s, V, arma::mat(X.each_col() - arma::mean(X, 1)));
    const auto& pca = dynamic_cast<const Pca&>(*m);
    CHECK(column_sign_mismatch(pca.projection(), U.head_cols(k)) < 1e-10);
    // Embedding rows are the principal scores s_i v_i^T, up to sign.
    const arma::mat scores = (V.head_cols(k) * arma::diagmat(s.head(k))).t();
    CHECK(column_sign_mismatch(m->embedding().t(), scores.t()) < 1e-10);
    CHECK(arma::approx_equal(pca.basis().variances, arma::square(s.head(k)) / (n - 1), "reldiff",
                             1e-10));
  }
}

TEST_CASE("pca orders components by decreasing variance", "[linear][pca]") {
  Rng rng(12);
  const arma::mat X = anisotropic(rng, 10, 200);
  auto m = fit_method("pca", X, nullptr, 0, 10);
  const arma::vec var = arma::var(m->embedding(), 0, 1);
  for (arma::uword i = 1; i < var.n_elem; ++i) CHECK(var(i) <= var(i - 1));
  // All components together keep all of the variance.
  CHECK(arma::accu(var) == Approx(arma::accu(arma::var(X, 0, 1))).epsilon(1e-10));
}

TEST_CASE("pca transform of the training points equals the embedding", "[linear][pca]") {
  Rng rng(13);
  const arma::mat X = anisotropic(rng, 6, 50);
  auto m = fit_method("pca", X, nullptr, 0, 3);
  CHECK(arma::approx_equal(m->transform(X), m->embedding(), "absdiff", 1e-10));
  CHECK(m->embedding().n_rows == 3);
  CHECK_THROWS_AS(m->transform(arma::mat(5, 2, arma::fill::zeros)), MethodError);
}

TEST_CASE("pca refuses more dims than min(d, n-1)", "[linear][pca]") {
  Rng rng(14);
  const arma::mat X = rng.randn(4, 10);
  CHECK_THROWS_WITH(fit_method("pca", X, nullptr, 0, 5), Catch::Contains("dims"));
}

TEST_CASE("pca_basis_ratio keeps the fewest components reaching the variance ratio",
          "[linear][pca]") {
  Rng rng(15);
  const arma::mat X = anisotropic(rng, 10, 300);
  const PcaBasis full = pca_basis_ratio(X, 1.0);
  CHECK(full.W.n_cols == 10);
  const PcaBasis part = pca_basis_ratio(X, 0.9);
  const double kept = arma::accu(part.variances) / full.total_variance;
  CHECK(kept >= 0.9);
  CHECK((kept - part.variances(part.variances.n_elem - 1) / full.total_variance) < 0.9);
}
