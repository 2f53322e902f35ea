#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "linear_support.hpp"
#include "methods/linear/mmpa/mmpa.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("mmpa graphs: far same-class pairs and near other-class pairs", "[linear][mmpa]") {
  Rng rng(111);
  arma::mat X;
  arma::uvec y;
  blobs(rng, 3, 3, 8, 1.5, X, y);
  double ew = 0, eb = 0;
  arma::mat Ww, Wb;
  mmpa_graphs(X, y, ew, eb, Ww, Wb);
  double sw = 0, sb = 0, nw = 0, nb = 0;
  for (arma::uword i = 0; i < 24; ++i)
    for (arma::uword j = 0; j < 24; ++j) {
      if (i == j) continue;
      const double dij = arma::norm(X.col(i) - X.col(j));
      (y(i) == y(j) ? sw : sb) += dij;
      (y(i) == y(j) ? nw : nb) += 1;
    }
  CHECK(ew == Approx(sw / nw));
  CHECK(eb == Approx(sb / nb));
  for (arma::uword i = 0; i < 24; ++i)
    for (arma::uword j = 0; j < 24; ++j) {
      const double dij = arma::norm(X.col(i) - X.col(j));
      CHECK(Ww(i, j) == (i != j && y(i) == y(j) && dij > ew ? 1.0 : 0.0));
      CHECK(Wb(i, j) == (y(i) != y(j) && dij < eb ? 1.0 : 0.0));
    }
}

TEST_CASE("mmpa solves its generalized eigenproblem at the smallest ratio", "[linear][mmpa]") {
  Rng rng(112);
  arma::mat X;
  arma::uvec y;
  blobs(rng, 6, 4, 15, 2.0, X, y);
  auto m = fit_method("mmpa", X, &y, 4, 3);
  const auto& mm = dynamic_cast<const Mmpa&>(*m);
  double ew = 0, eb = 0;
  arma::mat Ww, Wb;
  mmpa_graphs(X, y, ew, eb, Ww, Wb);
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  const arma::mat Aw = Xc * (arma::diagmat(arma::sum(Ww, 1)) - Ww) * Xc.t();
  arma::mat Ab = Xc * (arma::diagmat(arma::sum(Wb, 1)) - Wb) * Xc.t();
  Ab.diag() += 1e-3 * arma::trace(Ab) / 6.0;  // the default relative sigma
  const arma::mat& A = mm.projection();
  CHECK(arma::abs(Aw * A - Ab * A * arma::diagmat(mm.eigenvalues())).max() <
        1e-9 * arma::abs(Aw).max());
  for (int i = 0; i < 20; ++i) {
    const arma::vec a = rng.randn(6, 1);
    CHECK(arma::as_scalar(a.t() * Aw * a) / arma::as_scalar(a.t() * Ab * a) >=
          mm.eigenvalues()(0) * (1 - 1e-12));
  }
  CHECK(arma::approx_equal(m->transform(X), m->embedding(), "absdiff", 1e-10));
  CHECK_THROWS_AS(fit_method("mmpa", X, nullptr, 0, 2), MethodError);
}
