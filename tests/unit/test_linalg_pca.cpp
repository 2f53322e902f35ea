// The one PCA: its two solvers agree with each other and with a dense reference, and every user
// (preprocessing step, pca method, PCA pre-step, GP-LVM start) gets the same directions from it.
#include <catch2/catch.hpp>
#include <cmath>

#include "framework/core/rng.hpp"
#include "framework/data/preprocess.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/pca.hpp"
#include "methods/gplvm/init.hpp"

using namespace drbench;

namespace {

// Data with a clear spectrum: column scales 5, 4, 3, ... so the directions are well separated.
arma::mat spread_data(arma::uword d, arma::uword n, std::uint64_t seed) {
  Rng rng(seed);
  arma::mat X = rng.randn(d, n);
  for (arma::uword i = 0; i < d; ++i) X.row(i) *= 5.0 / (1.0 + 0.5 * i);
  return X;
}

double max_abs_up_to_sign(const arma::mat& A, const arma::mat& B) {
  double worst = 0.0;
  for (arma::uword j = 0; j < A.n_cols; ++j) {
    const double s = arma::dot(A.col(j), B.col(j)) < 0 ? -1.0 : 1.0;
    worst = std::max(worst, arma::abs(s * A.col(j) - B.col(j)).max());
  }
  return worst;
}

}  // namespace

TEST_CASE("one PCA: both solvers match the covariance eigenvectors", "[linalg][pca]") {
  for (const auto& [d, n] : {std::pair<arma::uword, arma::uword>{6, 40}, {40, 12}}) {
    INFO("d=" << d << " n=" << n);
    const arma::mat X = spread_data(d, n, 11 + d);
    const PcaBasis b = pca_full_basis(X);
    const arma::mat Xc = X.each_col() - arma::mean(X, 1);
    arma::vec ev;
    arma::mat V;
    arma::eig_sym(ev, V, arma::mat(Xc * Xc.t() / double(n - 1)));
    const arma::uword r = std::min(d, n - 1);
    REQUIRE(pca_rank(b, n) == r);
    CHECK(arma::approx_equal(b.variances.head(r), arma::vec(arma::flipud(ev)).head(r), "reldiff",
                             1e-10));
    CHECK(max_abs_up_to_sign(b.W.head_cols(r), arma::mat(arma::fliplr(V)).head_cols(r)) < 1e-8);
    CHECK(b.total_variance == Approx(arma::accu(ev)).epsilon(1e-12));
  }
}

TEST_CASE("one PCA: the preprocessing step, pca_basis and the GP-LVM start agree",
          "[linalg][pca]") {
  for (const auto& [d, n] : {std::pair<arma::uword, arma::uword>{8, 50}, {30, 14}}) {
    INFO("d=" << d << " n=" << n);
    const arma::mat X = spread_data(d, n, 7 + n);
    const arma::uword k = 3;
    PcaBasis b = pca_basis(X, k);  // signs fixed
    PreprocStep step;
    step.kind = PreprocStep::Kind::Pca;
    step.components = k;
    Pipeline pipe({step});
    const arma::mat Z = pipe.fit_apply(X);  // k x n scores of the preprocessing step
    const arma::mat scores = b.W.t() * (X.each_col() - b.mean);
    CHECK(arma::abs(Z - scores).max() < 1e-9);  // same directions, same signs
    Rng rng(1);
    const arma::mat Yc = X.each_col() - arma::mean(X, 1);
    const arma::mat X0 = pca_latent_init(Yc, k, false, rng);
    CHECK(arma::abs(X0 - scores).max() < 1e-9);
    const arma::mat X1 = pca_latent_init(Yc, k, true, rng);
    CHECK(arma::approx_equal(arma::var(X1, 1, 1), arma::ones(k), "absdiff", 1e-10));
  }
}
