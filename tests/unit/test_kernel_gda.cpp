#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "methods/kernel/gda/gda.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("gda with a linear kernel spans the LDA subspace", "[kernel][gda]") {
  const auto [X, y] = labelled_blobs(11, 6, 4, 30, 2.0);
  auto m = fit_linear_kernel("gda", 1e-10, X, 3, y, 4);
  // Reference LDA: generalized eigenvectors of (Sb, Sw) by QZ (arma::eig_pair), not Cholesky.
  const arma::vec mu = arma::mean(X, 1);
  arma::mat Sw(6, 6, arma::fill::zeros), Sb(6, 6, arma::fill::zeros);
  for (arma::uword c = 0; c < 4; ++c) {
    const arma::mat Xc = X.cols(arma::find(y == c));
    const arma::vec mc = arma::mean(Xc, 1);
    const arma::mat D = Xc.each_col() - mc;
    Sw += D * D.t();
    Sb += Xc.n_cols * (mc - mu) * (mc - mu).t();
  }
  arma::cx_vec ev;
  arma::cx_mat V;
  REQUIRE(arma::eig_pair(ev, V, Sb, Sw));
  const arma::uvec order = arma::sort_index(arma::real(ev), "descend");
  const arma::mat W = arma::real(V.cols(order.head(3)));
  const arma::mat lda = W.t() * (X.each_col() - mu);
  const arma::vec cosines = subspace_cosines(m->embedding(), lda);
  CHECK(cosines.min() > 1 - 1e-8);
  CHECK(arma::abs(m->transform(X) - m->embedding()).max() < 1e-8);
}

TEST_CASE("gda rbf: eigenvalues are the Fisher ratios of the embedded coordinates",
          "[kernel][gda]") {
  Rng rng(12);
  const auto [X, y] = labelled_blobs(rng, 3, 3, 25, 1.5);
  const double reg = 1e-3;
  auto m = fit_method("gda", {{"kernel_width", 1.0}, {"ridge", reg}}, X, 2, &y, 3);
  const auto& g = dynamic_cast<const GDA&>(*m);
  const arma::mat Y = m->embedding();
  CHECK(arma::abs(m->transform(X) - Y).max() < 1e-8);
  // Directly from the embedding: between-class over total scatter of each coordinate. The ridge
  // sits in the denominator of the eigenvalue, so the direct ratio is the larger of the two, and
  // close to it for a small ridge.
  for (arma::uword j = 0; j < 2; ++j) {
    const arma::rowvec yj = Y.row(j) - arma::mean(Y.row(j));
    double between = 0;
    for (arma::uword c = 0; c < 3; ++c) {
      const arma::uvec idx = arma::find(y == c);
      const double mc = arma::mean(arma::rowvec(yj.cols(idx)));
      between += idx.n_elem * mc * mc;
    }
    const double ratio = between / arma::dot(yj, yj);
    CHECK(ratio >= g.ratios()(j) - 1e-10);
    CHECK(ratio <= 1.0 + 1e-12);
    CHECK(ratio == Approx(g.ratios()(j)).epsilon(0.05));
  }
  CHECK(g.ratios()(0) >= g.ratios()(1));
  CHECK(g.ratios()(0) > 0.9);  // separated blobs: nearly all variance is between classes
}

TEST_CASE("gda refuses more than C-1 dimensions", "[kernel][gda]") {
  Rng rng(13);
  const auto [X, y] = labelled_blobs(rng, 3, 3, 10, 1.0);
  CHECK_THROWS_AS(fit_method("gda", {}, X, 3, &y, 3), MethodError);
  CHECK_THROWS_AS(fit_method("gda", {}, X, 2, nullptr, 0), MethodError);
}
