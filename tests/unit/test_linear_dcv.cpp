#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "linear_support.hpp"
#include "methods/linear/dcv/dcv.hpp"
#include "methods/linear/lda/lda.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("dcv maps every training sample of a class to its common vector", "[linear][dcv]") {
  Rng rng(101);
  arma::mat X;
  arma::uvec y;
  blobs(rng, 20, 3, 4, 2.0, X, y);  // n - C = 9 < d = 20: small-sample case
  auto m = fit_method("dcv", X, &y, 3, 2);
  const auto& dcv = dynamic_cast<const Dcv&>(*m);
  CHECK(dcv.null_dim() == 11);
  const arma::mat Y = m->embedding();
  for (arma::uword i = 0; i < y.n_elem; ++i) {
    const arma::uword first = y(i) * 4;
    CHECK(arma::norm(Y.col(i) - Y.col(first)) < 1e-9 * arma::abs(Y).max());
  }
  // Distinct classes stay apart, W is orthonormal and inside the null space of S_w.
  CHECK(arma::norm(Y.col(0) - Y.col(4)) > 1e-3);
  const arma::mat& W = dcv.projection();
  CHECK(arma::approx_equal(W.t() * W, arma::eye(2, 2), "absdiff", 1e-12));
  const Scatter s = class_scatter(X, y, 3);
  CHECK(arma::abs(W.t() * s.Sw * W).max() < 1e-9 * arma::abs(s.Sw).max());
  CHECK(arma::approx_equal(m->transform(X), m->embedding(), "absdiff", 1e-10));
}

TEST_CASE("dcv spans the same subspace as LDA in the limit of a vanishing ridge", "[linear][dcv]") {
  Rng rng(102);
  arma::mat X;
  arma::uvec y;
  blobs(rng, 25, 4, 5, 2.0, X, y);
  auto dcv = fit_method("dcv", X, &y, 4, 3);
  ParamSet p;
  p.set("reg", 1e-10);
  auto lda = fit_method("lda", X, &y, 4, 3, p);
  const arma::mat Wd = dynamic_cast<const Dcv&>(*dcv).projection();
  arma::mat Q, R;
  arma::qr_econ(Q, R, dynamic_cast<const Lda&>(*lda).projection());
  CHECK(arma::norm(Wd * Wd.t() - Q * Q.t(), "fro") < 1e-4);
}

TEST_CASE("dcv limits dims to C-1 and explains a missing null space", "[linear][dcv]") {
  Rng rng(103);
  arma::mat X;
  arma::uvec y;
  blobs(rng, 4, 3, 30, 3.0, X, y);  // large-sample case: S_w has full rank
  CHECK_THROWS_WITH(fit_method("dcv", X, &y, 3, 3), Catch::Contains("C-1 = 2"));
  CHECK_THROWS_WITH(fit_method("dcv", X, &y, 3, 2), Catch::Contains("null_tol"));
  ParamSet p;
  p.set("null_tol", 0.9);  // treat the low-variance within-class directions as null
  auto m = fit_method("dcv", X, &y, 3, 1, p);
  CHECK(m->embedding().is_finite());
  CHECK_THROWS_AS(fit_method("dcv", X, nullptr, 0, 2), MethodError);
}
