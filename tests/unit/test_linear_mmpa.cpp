#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "linear_support.hpp"
#include "methods/linear/mmpa/mmpa.hpp"

using namespace drbench;
using namespace drbench::testing;

namespace {

ParamSet mmpa_params(const std::string& graph, double sigma) {
  ParamSet p;
  p.set("graph", graph);
  p.set("ridge", sigma);
  p.set("neighbours_within", std::int64_t(4));  // scripts/make_mmpa_fixture.py uses the same values
  p.set("neighbours_between", std::int64_t(6));
  return p;
}

double dist(const arma::mat& X, arma::uword i, arma::uword j) {
  return arma::norm(X.col(i) - X.col(j));
}

}  // namespace

TEST_CASE("mmpa threshold graphs: far same-class pairs and near other-class pairs",
          "[linear][mmpa]") {
  Rng rng(111);
  auto [X, y] = blob_problem(rng, 3, 3, 8, 1.5);
  const MmpaGraphs g = mmpa_threshold_graphs(X, y, 0.0, 0.0);
  double sw = 0, sb = 0, nw = 0, nb = 0;
  for (arma::uword i = 0; i < 24; ++i)
    for (arma::uword j = 0; j < 24; ++j) {
      if (i == j) continue;
      (y(i) == y(j) ? sw : sb) += dist(X, i, j);
      (y(i) == y(j) ? nw : nb) += 1;
    }
  CHECK(g.eps_w == Approx(sw / nw));
  CHECK(g.eps_b == Approx(sb / nb));
  for (arma::uword i = 0; i < 24; ++i)
    for (arma::uword j = 0; j < 24; ++j) {
      CHECK(g.W_intra(i, j) == (i != j && y(i) == y(j) && dist(X, i, j) > g.eps_w ? 1.0 : 0.0));
      CHECK(g.W_inter(i, j) == (y(i) != y(j) && dist(X, i, j) < g.eps_b ? 1.0 : 0.0));
    }
  CHECK_THROWS_AS(mmpa_threshold_graphs(X, y, 0.0, 1e-9), MethodError);  // nothing that close
  CHECK_THROWS_AS(mmpa_threshold_graphs(X, y, 1e9, 0.0), MethodError);   // nothing that far
}

TEST_CASE(
    "mmpa knn graphs: neighbours_within farthest same-class and neighbours_between nearest "
    "other-class points",
    "[linear][mmpa]") {
  Rng rng(113);
  auto [X, y] = blob_problem(rng, 3, 3, 7, 1.5);
  const arma::uword n = X.n_cols, kw = 2, kb = 3;
  const MmpaGraphs g = mmpa_knn_graphs(X, y, kw, kb);
  CHECK(arma::approx_equal(g.W_intra, g.W_intra.t(), "absdiff", 0.0));
  CHECK(arma::approx_equal(g.W_inter, g.W_inter.t(), "absdiff", 0.0));
  // i -> j selected iff fewer than k candidates of i's kind beat j (farther / nearer).
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j) {
      auto chosen = [&](arma::uword a, arma::uword b, bool same, bool farther, arma::uword k) {
        if (a == b || (y(a) == y(b)) != same) return false;
        arma::uword beat = 0;
        for (arma::uword c = 0; c < n; ++c)
          if (c != a && (y(a) == y(c)) == same && c != b)
            beat += farther ? dist(X, a, c) > dist(X, a, b) : dist(X, a, c) < dist(X, a, b);
        return beat < k;
      };
      const bool w = chosen(i, j, true, true, kw) || chosen(j, i, true, true, kw);
      const bool b = chosen(i, j, false, false, kb) || chosen(j, i, false, false, kb);
      CHECK(g.W_intra(i, j) == (w ? 1.0 : 0.0));
      CHECK(g.W_inter(i, j) == (b ? 1.0 : 0.0));
    }
  CHECK_THROWS_AS(mmpa_knn_graphs(X, y, 0, 3), MethodError);
}

TEST_CASE("mmpa matches the numpy/scipy reference for both graph rules", "[linear][mmpa]") {
  auto [X, y] = fixture_problem();
  for (const std::string graph : {"threshold", "knn"}) {
    INFO("graph=" << graph);
    auto m = fit_method("mmpa", X, &y, 3, 3, mmpa_params(graph, 0.5));
    const auto& mm = dynamic_cast<const Mmpa&>(*m);
    const arma::mat A_ref = linear_fixture("mmpa_" + graph + "_A");
    const arma::rowvec mu_ref = linear_fixture("mmpa_" + graph + "_values");
    CHECK(arma::approx_equal(mm.eigenvalues().t(), mu_ref, "reldiff", 1e-8));
    CHECK(signed_column_diff(mm.projection(), A_ref) < 1e-8 * arma::abs(A_ref).max());
  }
}

TEST_CASE("mmpa solves S_b a = mu (S_w + ridge) a at the largest mu", "[linear][mmpa]") {
  Rng rng(112);
  auto [X, y] = blob_problem(rng, 6, 4, 15, 2.0);
  const double sigma = 0.2;
  auto m = fit_method("mmpa", X, &y, 4, 3, mmpa_params("threshold", sigma));
  const auto& mm = dynamic_cast<const Mmpa&>(*m);
  const MmpaGraphs g = mmpa_threshold_graphs(X, y, 0.0, 0.0);
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  auto form = [&](const arma::mat& W) {
    return arma::mat(Xc * (arma::diagmat(arma::sum(W, 1)) - W) * Xc.t());
  };
  const arma::mat Sb = form(g.W_inter);
  arma::mat Sw = form(g.W_intra);
  Sw.diag() += sigma * arma::trace(Sw) / 6.0;
  const arma::mat& A = mm.projection();
  const arma::vec& mu = mm.eigenvalues();
  CHECK(arma::abs(Sb * A - Sw * A * arma::diagmat(mu)).max() < 1e-9 * arma::abs(Sb).max());
  CHECK(arma::approx_equal(A.t() * Sw * A, arma::eye(3, 3), "absdiff", 1e-9));
  CHECK(mu.is_sorted("descend"));
  // mu(0) is the largest Rayleigh quotient: no direction separates better.
  for (int i = 0; i < 20; ++i) {
    const arma::vec a = rng.randn(6, 1);
    CHECK(arma::as_scalar(a.t() * Sb * a) / arma::as_scalar(a.t() * Sw * a) <= mu(0) * (1 + 1e-12));
  }
  CHECK(arma::approx_equal(m->transform(X), m->embedding(), "absdiff", 1e-10));
}

TEST_CASE("mmpa embedding is invariant to rotating and shifting the data", "[linear][mmpa]") {
  // Distances, graphs and the trace-relative ridge do not change under x -> Q x + c, so the
  // solution must rotate with the data: A' = Q A and identical embeddings (up to column sign).
  Rng rng(114);
  auto [X, y] = blob_problem(rng, 5, 3, 10, 2.0);
  arma::mat Q, R;
  arma::qr(Q, R, rng.randn(5, 5));
  const arma::mat X2 = (Q * X).eval().each_col() + 3.0 * rng.randn(5, 1);
  for (const std::string graph : {"threshold", "knn"}) {
    INFO("graph=" << graph);
    auto m1 = fit_method("mmpa", X, &y, 3, 2, mmpa_params(graph, 1.0));
    auto m2 = fit_method("mmpa", X2, &y, 3, 2, mmpa_params(graph, 1.0));
    const auto& a = dynamic_cast<const LinearMethod&>(*m1);
    const auto& b = dynamic_cast<const LinearMethod&>(*m2);
    CHECK(signed_column_diff(Q * a.projection(), b.projection()) < 1e-8);
    CHECK(signed_column_diff(m1->embedding().t(), m2->embedding().t()) < 1e-8);
  }
}

TEST_CASE("mmpa errors name the fix", "[linear][mmpa]") {
  Rng rng(115);
  auto [X, y] = blob_problem(rng, 8, 2, 3, 2.0);  // n = 6 < d = 8: X L_intra X^T is singular
  CHECK_THROWS_AS(fit_method("mmpa", X, nullptr, 0, 2), MethodError);
  CHECK_THROWS_WITH(fit_method("mmpa", X, &y, 2, 2, mmpa_params("threshold", 0.0)),
                    Catch::Contains("'reg'"));
  CHECK_NOTHROW(fit_method("mmpa", X, &y, 2, 2, mmpa_params("threshold", 1.0)));
  const arma::uvec one(6, arma::fill::zeros);
  CHECK_THROWS_WITH(fit_method("mmpa", X, &one, 1, 2), Catch::Contains("two classes"));
  CHECK_THROWS_WITH(fit_method("mmpa", X, &y, 2, 9), Catch::Contains("dims"));
}
