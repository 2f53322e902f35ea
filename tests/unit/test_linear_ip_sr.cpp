#include <catch2/catch.hpp>

#include "framework/neighbours/geodesic.hpp"
#include "linear_support.hpp"
#include "methods/linear/ip/ip.hpp"
#include "methods/linear/ip_sr/ip_sr.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("ip_sr matches the numpy spectral regression", "[linear][ip_sr]") {
  auto [X, y] = fixture_problem();
  auto m = fit_method("ip_sr", X, nullptr, 0, 3);
  const auto& sr = dynamic_cast<const IpSr&>(*m);
  CHECK(signed_column_diff(sr.projection(), linear_fixture("ip_sr_A")) < 1e-9);
  CHECK(arma::approx_equal(m->transform(X), m->embedding(), "absdiff", 1e-10));
}

TEST_CASE("ip_sr responses are eigenvectors of tau; alpha -> 0 interpolates them",
          "[linear][ip_sr]") {
  Rng rng(71);
  const arma::mat X = rng.randn(30, 25);  // d > n: X^T a = y is solvable exactly
  const arma::mat tau = isometric_kernel(X, GeodesicGraphSpec::knn_graph(5, true), "test", nullptr);
  ParamSet p;
  p.set("ridge", 1e-10);
  auto m = fit_method("ip_sr", X, nullptr, 0, 2, p);
  const auto& sr = dynamic_cast<const IpSr&>(*m);
  const arma::mat Yr = sr.responses().t();  // n x 2
  const arma::mat TY = tau * Yr;
  for (arma::uword j = 0; j < 2; ++j) {
    const double lam = arma::dot(Yr.col(j), TY.col(j));
    CHECK(arma::norm(TY.col(j) - lam * Yr.col(j)) < 1e-8 * std::abs(lam));
  }
  CHECK(arma::approx_equal(m->embedding(), sr.responses(), "absdiff", 1e-5));
}
