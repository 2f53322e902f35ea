// The one PCA: its two solvers agree with each other and with a dense reference, and every user
// (preprocessing step, pca method, PCA pre-step, GP-LVM start, the embeddings' pca_start) gets
// the same directions from it.
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

TEST_CASE("one PCA: pca_start's directions, sign rules, sizes and zero rows", "[linalg][pca]") {
  for (const auto& [d, n] : {std::pair<arma::uword, arma::uword>{8, 50}, {30, 14}}) {
    INFO("d=" << d << " n=" << n);
    const arma::mat X = spread_data(d, n, 3 + d);
    const arma::uword k = 3;
    const PcaBasis b = pca_basis(X, k);
    const PcaStart s = pca_start(X, k);
    CHECK(arma::approx_equal(s.mean, arma::vec(arma::mean(X, 1)), "absdiff", 0.0));
    CHECK(arma::approx_equal(s.projection, arma::mat(b.W.t()), "absdiff", 0.0));
    CHECK(arma::abs(s.Y - s.projection * (X.each_col() - s.mean)).max() < 1e-12);
    // Directions: each direction's largest-magnitude loading positive; scores: each coordinate's
    // largest-magnitude value positive, and the map flipped with it.
    const PcaStart by_scores = pca_start(X, k, {PcaSigns::Scores, PcaStartScale::None, 1.0});
    for (arma::uword r = 0; r < k; ++r) {
      CHECK(s.projection(r, arma::index_max(arma::abs(s.projection.row(r)))) > 0);
      CHECK(by_scores.Y(r, arma::index_max(arma::abs(by_scores.Y.row(r)))) > 0);
      const double sign = arma::dot(s.Y.row(r), by_scores.Y.row(r)) < 0 ? -1.0 : 1.0;
      CHECK(
          arma::approx_equal(by_scores.Y.row(r), arma::rowvec(sign * s.Y.row(r)), "absdiff", 0.0));
      CHECK(arma::approx_equal(by_scores.projection.row(r),
                               arma::rowvec(sign * s.projection.row(r)), "absdiff", 0.0));
    }
    const PcaStart sd = pca_start(X, k, {PcaSigns::Directions, PcaStartScale::FirstAxisSd, 0.01});
    CHECK(arma::stddev(sd.Y.row(0)) == Approx(0.01).epsilon(1e-12));
    const PcaStart rms = pca_start(X, k, {PcaSigns::Directions, PcaStartScale::RmsRadius, 0.5});
    CHECK(std::sqrt(arma::accu(arma::square(rms.Y)) / double(n)) == Approx(0.5).epsilon(1e-12));
    CHECK(arma::abs(rms.Y - rms.projection * (X.each_col() - rms.mean)).max() < 1e-12);
    const PcaStart f = pca_start(X, k, {PcaSigns::Directions, PcaStartScale::Factor, 0.25});
    CHECK(arma::approx_equal(f.Y, arma::mat(0.25 * s.Y), "absdiff", 0.0));
    // More rows than the data has directions (min(d, n - 1)): the rest are zero.
    const arma::uword r = std::min(d, n - 1), dim = r + 2;
    const PcaStart wide = pca_start(X, dim);
    REQUIRE(wide.Y.n_rows == dim);
    REQUIRE(wide.projection.n_rows == dim);
    CHECK(arma::approx_equal(wide.projection.rows(0, r - 1), arma::mat(pca_basis(X, r).W.t()),
                             "absdiff", 0.0));
    CHECK(arma::abs(wide.Y.rows(r, dim - 1)).max() == 0.0);
    CHECK(arma::abs(wide.projection.rows(r, dim - 1)).max() == 0.0);
  }
}

TEST_CASE("one PCA: DEE's and DSNE's start rows are the SVD's left singular vectors up to sign",
          "[linalg][pca]") {
  // The start they took from their own thin SVD before the one PCA: the same directions to
  // round-off (covariance eigenvectors when d <= n, the same SVD otherwise).
  for (const auto& [d, n] : {std::pair<arma::uword, arma::uword>{8, 50}, {30, 14}}) {
    INFO("d=" << d << " n=" << n);
    const arma::mat X = spread_data(d, n, 5 + n);
    const arma::mat Xc = X.each_col() - arma::mean(X, 1);
    arma::mat U, V;
    arma::vec sv;
    REQUIRE(arma::svd_econ(U, sv, V, Xc, "left"));
    const arma::uword k = 4;
    const PcaStart s = pca_start(X, k, {PcaSigns::Directions, PcaStartScale::RmsRadius, 1e-2});
    const arma::mat A = U.head_cols(k).t();
    const arma::mat A0 = A * (1e-2 / std::sqrt(arma::accu(arma::square(A * Xc)) / double(n)));
    CHECK(max_abs_up_to_sign(s.projection.t(), A0.t()) < 1e-12);
  }
}
