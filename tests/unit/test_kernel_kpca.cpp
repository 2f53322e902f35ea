#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/kernel_matrix.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::max_diff_up_to_sign;

TEST_CASE("kpca with a linear kernel is PCA up to sign", "[kernel][kpca]") {
  Rng rng(3);
  const arma::mat X = arma::diagmat(arma::vec{5, 3, 2, 1, 0.5}) * rng.randn(5, 60) + 2.0;
  auto m = fit_method("kpca", {{"kernel", std::string("linear")}}, X, 3);
  // Reference: PCA scores from the SVD of the centred data.
  arma::mat Xc = X.each_col() - arma::mean(X, 1);
  arma::mat U, V;
  arma::vec s;
  arma::svd_econ(U, s, V, Xc);
  const arma::mat scores = U.head_cols(3).t() * Xc;
  CHECK(max_diff_up_to_sign(m->embedding(), scores) < 1e-8);
  // New points are mapped like PCA maps them.
  const arma::mat Xn = rng.randn(5, 7);
  const arma::mat pca_new = U.head_cols(3).t() * (Xn.each_col() - arma::mean(X, 1));
  arma::mat got = m->transform(Xn);
  for (arma::uword r = 0; r < 3; ++r)
    if (arma::dot(m->embedding().row(r), scores.row(r)) < 0) got.row(r) *= -1;
  CHECK(arma::abs(got - pca_new).max() < 1e-8);
}

TEST_CASE("kpca rbf: transform(train) reproduces the embedding", "[kernel][kpca]") {
  Rng rng(4);
  const arma::mat X = rng.randn(4, 80);
  auto m = fit_method("kpca", {{"kernel_width", 0.8}}, X, 5);
  CHECK(arma::abs(m->transform(X) - m->embedding()).max() < 1e-8);
  // Embedding rows are orthogonal (they are scaled eigenvectors of the centred Gram matrix).
  const arma::mat G = m->embedding() * m->embedding().t();
  CHECK(arma::abs(G - arma::diagmat(G.diag())).max() < 1e-8 * G.max());
}

TEST_CASE("kpca rbf matches an explicit centred-Gram eigendecomposition", "[kernel][kpca]") {
  Rng rng(5);
  const arma::mat X = rng.randn(3, 50);
  const double sigma = 1.3;
  auto m = fit_method("kpca", {{"kernel_width", sigma}, {"width", std::string("absolute")}}, X, 2);
  // Straight from the definition, without any of the library's kernel code.
  arma::mat K(50, 50);
  for (arma::uword i = 0; i < 50; ++i)
    for (arma::uword j = 0; j < 50; ++j)
      K(i, j) = std::exp(-arma::accu(arma::square(X.col(i) - X.col(j))) / (2 * sigma * sigma));
  const arma::mat H = arma::eye(50, 50) - arma::ones(50, 50) / 50.0;
  arma::vec ev;
  arma::mat V;
  arma::eig_sym(ev, V, H * K * H);
  arma::mat ref(2, 50);
  for (arma::uword j = 0; j < 2; ++j) ref.row(j) = std::sqrt(ev(49 - j)) * V.col(49 - j).t();
  CHECK(max_diff_up_to_sign(m->embedding(), ref) < 1e-8);
}

TEST_CASE("kpca rbf above 800 points (largest_eigs_sym's path) matches the full decomposition",
          "[kernel][kpca]") {
  Rng rng(15);
  const arma::uword n = 900;
  const arma::mat X = rng.randn(4, n);
  const double sigma = 2.0;
  auto m = fit_method("kpca", {{"kernel_width", sigma}, {"width", std::string("absolute")}}, X, 3);
  arma::mat D2(n, n);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j) D2(i, j) = arma::accu(arma::square(X.col(i) - X.col(j)));
  const arma::mat H = arma::eye(n, n) - arma::ones(n, n) / double(n);
  arma::vec ev;
  arma::mat V;
  arma::eig_sym(ev, V, H * arma::exp(-D2 / (2 * sigma * sigma)) * H);
  arma::mat ref(3, n);
  for (arma::uword j = 0; j < 3; ++j) ref.row(j) = std::sqrt(ev(n - 1 - j)) * V.col(n - 1 - j).t();
  CHECK(max_diff_up_to_sign(m->embedding(), ref) < 1e-8 * arma::abs(ref).max());
}

TEST_CASE("kpca rejects dims beyond the rank of a linear kernel", "[kernel][kpca]") {
  Rng rng(6);
  const arma::mat X = rng.randn(2, 30);
  CHECK_THROWS_AS(fit_method("kpca", {{"kernel", std::string("linear")}}, X, 3), MethodError);
}

TEST_CASE("centred test Gram matrix equals centring in feature space", "[kernel]") {
  // Polynomial degree 2 with offset 0 has the explicit feature map x -> vec(x x').
  Rng rng(7);
  const arma::mat X = rng.randn(3, 20), Xn = rng.randn(3, 4);
  KernelSpec k;
  k.type = KernelSpec::Type::Poly;
  k.degree = 2;
  k.offset = 0.0;
  auto phi = [](const arma::mat& A) {
    arma::mat F(9, A.n_cols);
    for (arma::uword i = 0; i < A.n_cols; ++i) F.col(i) = arma::vectorise(A.col(i) * A.col(i).t());
    return F;
  };
  const arma::mat F = phi(X), Fn = phi(Xn);
  const arma::vec mu = arma::mean(F, 1);
  arma::mat K = gram(k, X, X);
  const GramCentring c = centre_gram(K);
  const arma::mat Fc = F.each_col() - mu;
  CHECK(arma::abs(K - Fc.t() * Fc).max() < 1e-9);
  const arma::mat Kt = centre_test_gram(gram(k, X, Xn), c);
  CHECK(arma::abs(Kt - Fc.t() * (Fn.each_col() - mu)).max() < 1e-9);
}

TEST_CASE("centre_gram gives the bits of the three broadcasts it fuses", "[kernel]") {
  Rng rng(8);
  const arma::mat X = rng.randn(5, 120);
  KernelSpec k;
  k.sigma = 1.7;
  arma::mat K = gram(k, X, X);
  arma::mat R = K;
  const GramCentring c = centre_gram(K);
  const arma::vec r = arma::mean(R, 1);
  R.each_col() -= r;
  R.each_row() -= r.t();
  R += arma::mean(r);
  CHECK(arma::approx_equal(K, R, "absdiff", 0.0));
  CHECK(c.mean == arma::mean(r));
}

TEST_CASE("the one-sweep centred RBF Gram agrees with kernel_from_setting, gram and centre_gram",
          "[kernel]") {
  // 1,500 points: median_distance takes every second one, so the strided pairs are exercised.
  Rng rng(9);
  const arma::mat X = rng.randn(7, 1500);
  const MethodInfo& info = Registry::instance().get("kpca");
  for (const double width : {0.5, 2.0}) {
    ParamSet ps;
    ps.set("kernel_width", width);
    const ParamSet p = info.complete(ps);
    KernelSpec k;
    GramCentring c;
    const KernelSetting s = kernel_keys()(p);
    const arma::mat K = centred_training_gram_upper(s, X, k, c);
    const KernelSpec ref = kernel_from_setting(s, X);
    arma::mat R = gram(ref, X, X);
    const GramCentring rc = centre_gram(R);
    CHECK(k.sigma == Approx(ref.sigma).epsilon(1e-14));
    CHECK(arma::abs(arma::trimatu(K) - arma::trimatu(R)).max() < 1e-13);
    CHECK(arma::abs(c.row_mean - rc.row_mean).max() < 1e-14);
    CHECK(c.mean == Approx(rc.mean).margin(1e-15));
  }
}

TEST_CASE("select_nonnegative gives nth_element's value", "[kernel]") {
  Rng rng(10);
  for (const arma::uword n : {1u, 2u, 7u, 1000u, 50000u}) {
    // Squared-distance-like values with ties, zeros (also -0) and a wide range.
    std::vector<double> v(n);
    for (auto& x : v) x = std::round(rng.uniform() * 50.0) * std::pow(10.0, rng.uniform() * 6 - 3);
    v[0] = -0.0;
    for (const std::size_t r : {std::size_t(0), std::size_t(n / 2), std::size_t(n - 1)}) {
      std::vector<double> w = v;
      std::nth_element(w.begin(), w.begin() + r, w.end());
      CHECK(select_nonnegative(v, r) == w[r]);
    }
  }
}
