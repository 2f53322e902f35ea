#include <catch2/catch.hpp>
#include <limits>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/geodesic.hpp"
#include "linear_support.hpp"
#include "methods/linear/ip/ip.hpp"
#include "neighbour_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("Dijkstra geodesics equal Floyd-Warshall", "[linear][ip]") {
  Rng rng(61);
  const arma::mat X = rng.randn(2, 40);
  const arma::sp_mat G = symmetric_adjacency(neighbour_graph(X, 3, testing::exact_graph()));
  const arma::mat D = geodesic_distances(G);
  arma::mat F(40, 40);
  F.fill(std::numeric_limits<double>::infinity());
  F.diag().zeros();
  const arma::mat Gd(G);
  for (arma::uword i = 0; i < 40; ++i)
    for (arma::uword j = 0; j < 40; ++j)
      if (Gd(i, j) > 0) F(i, j) = Gd(i, j);
  for (arma::uword m = 0; m < 40; ++m)
    for (arma::uword i = 0; i < 40; ++i)
      for (arma::uword j = 0; j < 40; ++j) F(i, j) = std::min(F(i, j), F(i, m) + F(m, j));
  const arma::uvec fin = arma::find_finite(F);
  CHECK(arma::approx_equal(arma::vec(D.elem(fin)), arma::vec(F.elem(fin)), "absdiff", 1e-12));
  CHECK(arma::uvec(arma::find_nonfinite(D)).n_elem == arma::uvec(arma::find_nonfinite(F)).n_elem);
}

TEST_CASE("components are found and joined at their closest pair", "[linear][ip]") {
  Rng rng(62);
  arma::mat X = arma::join_rows(rng.randn(2, 10), rng.randn(2, 10) + 50.0);
  const arma::sp_mat G = symmetric_adjacency(neighbour_graph(X, 3, testing::exact_graph()));
  arma::uword parts = 0;
  const arma::uvec comp = connected_components(G, parts);
  CHECK(parts == 2);
  CHECK(arma::all(comp.head(10) == comp(0)));
  CHECK(arma::all(comp.tail(10) != comp(0)));
  const arma::sp_mat H = connect_components(X, G, parts);
  arma::uword after = 0;
  connected_components(H, after);
  CHECK(after == 1);
  CHECK(H.n_nonzero == G.n_nonzero + 2);
  const arma::mat cross = sq_distances(X.cols(0, 9), X.cols(10, 19));
  CHECK(arma::accu(arma::mat(H - G)) == Approx(2.0 * std::sqrt(cross.min())));
  CHECK(geodesic_distances(H).is_finite());
}

TEST_CASE("ip matches the scipy generalized eigensolution", "[linear][ip]") {
  auto [X, y] = fixture_problem();
  auto m = fit_method("ip", X, nullptr, 0, 3, ridge(0.0));
  check_fixture_solution<Ip>(*m, "ip", "reldiff", 1e-9);
  CHECK(arma::approx_equal(m->transform(X), m->embedding(), "absdiff", 1e-9));
}

TEST_CASE("ip on a disconnected graph: joins it or names 'neighbours'", "[linear][ip]") {
  Rng rng(63);
  arma::mat X = arma::join_rows(rng.randn(3, 15), rng.randn(3, 15) + 40.0);
  ParamSet strict;
  strict.set("disconnected", std::string("error"));
  CHECK_THROWS_WITH(fit_method("ip", X, nullptr, 0, 2, strict), Catch::Contains("'neighbours'"));
  Trace trace;
  const MethodInfo& info = Registry::instance().get("ip");
  auto m = info.make(info.complete(ParamSet()));
  Rng r2(1);
  m->fit(FitInput{X, nullptr, 0, 2, r2, &trace});
  CHECK(m->embedding().is_finite());
  REQUIRE(trace.notes.size() == 1);
  CHECK(trace.notes[0].first == "graph_components_joined");
}
