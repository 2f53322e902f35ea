#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "linear_support.hpp"
#include "methods/linear/dcv/dcv.hpp"
#include "methods/linear/lda/lda.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("dcv maps every training sample of a class to its common vector", "[linear][dcv]") {
  Rng rng(101);
  auto [X, y] = blob_problem(rng, 20, 3, 4, 2.0);  // n - C = 9 < d = 20: small-sample case
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
  auto [X, y] = blob_problem(rng, 25, 4, 5, 2.0);
  auto dcv = fit_method("dcv", X, &y, 4, 3);
  ParamSet p;
  p.set("ridge", 1e-10);
  auto lda = fit_method("lda", X, &y, 4, 3, p);
  const arma::mat Wd = dynamic_cast<const Dcv&>(*dcv).projection();
  arma::mat Q, R;
  arma::qr_econ(Q, R, dynamic_cast<const Lda&>(*lda).projection());
  CHECK(arma::norm(Wd * Wd.t() - Q * Q.t(), "fro") < 1e-4);
}

TEST_CASE("dcv limits dims to C-1 and explains a missing null space", "[linear][dcv]") {
  Rng rng(103);
  auto [X, y] = blob_problem(rng, 4, 3, 30, 3.0);  // large-sample case: S_w has full rank
  CHECK_THROWS_WITH(fit_method("dcv", X, &y, 3, 3), Catch::Contains("C-1 = 2"));
  CHECK_THROWS_WITH(fit_method("dcv", X, &y, 3, 2), Catch::Contains("null_tol"));
  CHECK_THROWS_WITH(fit_method("dcv", X, &y, 3, 2), Catch::Contains("(d = 4, n - C = 87)"));
  ParamSet p;
  p.set("null_tol", 0.9);  // treat the low-variance within-class directions as null
  auto m = fit_method("dcv", X, &y, 3, 1, p);
  CHECK(m->embedding().is_finite());
  CHECK_THROWS_AS(fit_method("dcv", X, nullptr, 0, 2), MethodError);
}

namespace {

// The fixture of scripts/make_dcv_fixture.py: points as columns, labels, the reference W
// (d x C-1) and the common vectors (d x C).
void dcv_fixture(arma::mat& X, arma::uvec& y, arma::mat& W, arma::mat& common) {
  X = linear_fixture("dcv_X").t();
  y = arma::conv_to<arma::uvec>::from(arma::vectorise(linear_fixture("dcv_y")));
  W = linear_fixture("dcv_W");
  common = linear_fixture("dcv_common").t();
}

}  // namespace

TEST_CASE("dcv matches the Gram-Schmidt reference of the paper (numpy)", "[linear][dcv]") {
  arma::mat X, Wref, common;
  arma::uvec y;
  dcv_fixture(X, y, Wref, common);
  auto m = fit_method("dcv", X, &y, 4, 3);
  const auto& dcv = dynamic_cast<const Dcv&>(*m);
  // d = 22, n - C = 16: the null space of S_w has dimension 6 (2 of them the constant pixels).
  CHECK(dcv.null_dim() == 6);
  CHECK(signed_column_diff(dcv.projection(), Wref) < 1e-8);
  // Every training sample lands on its class's discriminative common vector W^T x_com^c.
  const arma::mat dcvs = dcv.projection().t() * (common.each_col() - dcv.mean());
  const arma::mat Y = m->embedding();
  for (arma::uword i = 0; i < y.n_elem; ++i)
    CHECK(arma::norm(Y.col(i) - dcvs.col(y(i))) < 1e-9 * arma::abs(dcvs).max());
  // W spans the scatter of the common vectors: projecting them on W loses nothing.
  const arma::mat Cc = common.each_col() - arma::mean(common, 1);
  const arma::mat& W = dcv.projection();
  CHECK(arma::norm(Cc - W * (W.t() * Cc), "fro") < 1e-9 * arma::norm(Cc, "fro"));
}

TEST_CASE("dcv ignores constant coordinates and the scale and offset of the data",
          "[linear][dcv]") {
  arma::mat X, Wref, common;
  arma::uvec y;
  dcv_fixture(X, y, Wref, common);
  const arma::mat W = dynamic_cast<const Dcv&>(*fit_method("dcv", X, &y, 4, 3)).projection();
  // The last two coordinates are constant: in the null space of S_w but not of S_b, so W has
  // no weight on them and dropping them leaves the rest of W unchanged.
  CHECK(arma::abs(W.tail_rows(2)).max() < 1e-12);
  const arma::mat Xv = X.head_rows(20);
  auto trimmed = fit_method("dcv", Xv, &y, 4, 3);
  CHECK(signed_column_diff(dynamic_cast<const Dcv&>(*trimmed).projection(), W.head_rows(20)) <
        1e-9);
  // Units must not matter: tiny pixel values (1e-12) and an offset give the same directions.
  const arma::mat Xs = 1e-12 * X + 5e-12;
  auto scaled = fit_method("dcv", Xs, &y, 4, 3);
  CHECK(signed_column_diff(dynamic_cast<const Dcv&>(*scaled).projection(), W) < 1e-8);
}

TEST_CASE("dcv with one sample per class keeps the span of the centred samples", "[linear][dcv]") {
  // S_w = 0: the whole space is null, each sample is its own common vector and W spans the
  // centred samples (the one-image-per-person case of face recognition).
  Rng rng(104);
  auto [X, y] = blob_problem(rng, 8, 4, 1, 2.0);
  auto m = fit_method("dcv", X, &y, 4, 3);
  CHECK(dynamic_cast<const Dcv&>(*m).null_dim() == 8);
  const arma::mat& W = dynamic_cast<const Dcv&>(*m).projection();
  CHECK(arma::approx_equal(W.t() * W, arma::eye(3, 3), "absdiff", 1e-12));
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  CHECK(arma::norm(Xc - W * (W.t() * Xc), "fro") < 1e-10 * arma::norm(Xc, "fro"));
}
