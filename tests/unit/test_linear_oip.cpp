#include <catch2/catch.hpp>

#include "framework/neighbours/geodesic.hpp"
#include "linear_support.hpp"
#include "methods/linear/ip/ip.hpp"
#include "methods/linear/isometric_projection.hpp"
#include "methods/linear/oip/oip.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("oip matches the numpy eigensolution of Algorithm 1", "[linear][oip]") {
  auto [X, y] = fixture_problem();
  auto m = fit_method("oip", X, nullptr, 0, 3);
  // Eigenvalues within 1e-8 of the largest in magnitude.
  const double scale = arma::abs(linear_fixture("oip_values")).max();
  check_fixture_solution<Oip>(*m, "oip", "absdiff", 1e-8 * scale);
}

TEST_CASE("oip projection is orthonormal and solves M V = V Lambda for the smallest eigenvalues",
          "[linear][oip]") {
  Rng rng(81);
  const arma::mat X = rng.randn(7, 60) + 2.0;
  auto m = fit_method("oip", X, nullptr, 0, 3);
  const auto& oip = dynamic_cast<const Oip&>(*m);
  const arma::mat& V = oip.projection();
  CHECK(arma::approx_equal(V.t() * V, arma::eye(3, 3), "absdiff", 1e-12));
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  const arma::mat M =
      oip_matrix(Xc, isometric_kernel(X, GeodesicGraphSpec::knn_graph(5, true), "test", nullptr));
  CHECK(arma::approx_equal(M, oip.objective_matrix(), "reldiff", 1e-12));
  // The same M written as in the paper, X (X^T X - 2 tau^T) X^T.
  const arma::mat tau = isometric_kernel(X, GeodesicGraphSpec::knn_graph(5, true), "test", nullptr);
  CHECK(arma::approx_equal(M, Xc * (Xc.t() * Xc - 2.0 * tau.t()) * Xc.t(), "reldiff", 1e-9));
  const double scale = arma::abs(oip.eigenvalues()).max();
  CHECK(arma::abs(M * V - V * arma::diagmat(oip.eigenvalues())).max() < 1e-9 * scale);
  const arma::vec all = arma::eig_sym(M);
  CHECK(arma::approx_equal(oip.eigenvalues(), arma::vec(all.head(3)), "absdiff", 1e-9 * scale));
  CHECK(arma::approx_equal(m->transform(X), m->embedding(), "absdiff", 1e-9));
}

TEST_CASE("isometric kernel: squared geodesics give the centred Gram matrix; plain ones do not",
          "[linear][oip]") {
  // Points on a line, unevenly spaced: kNN geodesics equal |t_i - t_j| exactly, so tau of the
  // squared distances is the Gram matrix of the centred positions (classical MDS), and tau of the
  // distances themselves is -H |t_i - t_j| H / 2.
  const arma::rowvec t = {0.0, 0.4, 1.0, 1.5, 2.7, 3.0, 4.2, 5.0};
  const arma::uword n = t.n_elem;
  arma::mat X(2, n, arma::fill::zeros);
  X.row(0) = t;
  const arma::vec tc = t.t() - arma::mean(t);
  const arma::mat H = arma::eye(n, n) - arma::ones(n, n) / double(n);
  arma::mat D(n, n);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j) D(i, j) = std::abs(t(i) - t(j));
  CHECK(arma::approx_equal(
      isometric_kernel(X, GeodesicGraphSpec::knn_graph(2, false), "test", nullptr), tc * tc.t(),
      "absdiff", 1e-12));
  CHECK(arma::approx_equal(
      isometric_kernel(X, GeodesicGraphSpec::knn_graph(2, false), "test", nullptr, false),
      -0.5 * H * D * H, "absdiff", 1e-12));
  // The option reaches the method: oip with tau_of=distance builds M from the plain kernel.
  ParamSet p;
  p.set("tau_of", std::string("distance"));
  p.set("neighbours", std::int64_t(2));
  auto m = fit_method("oip", X, nullptr, 0, 1, p);
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  CHECK(arma::approx_equal(dynamic_cast<const Oip&>(*m).objective_matrix(),
                           oip_matrix(Xc, -0.5 * H * D * H), "reldiff", 1e-10));
}
