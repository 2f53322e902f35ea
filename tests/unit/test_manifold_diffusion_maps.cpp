// Diffusion maps against the properties the construction guarantees (scikit-learn has none):
// evenly spaced points on a circle make P circulant, so its eigenvalues are the discrete Fourier
// transform of one normalised kernel row and the 2-D embedding is a circle; P is row-stochastic
// and the Nystroem map returns the training embedding.
#include <catch2/catch.hpp>

#include <cmath>

#include "framework/core/error.hpp"
#include "methods/manifold/diffusion_maps/diffusion_maps.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;

TEST_CASE("diffusion_maps on a circle: circulant eigenvalues, a circle embedding",
          "[manifold][diffusion_maps]") {
  const arma::uword n = 60;
  const double pi = arma::datum::pi;
  arma::mat X(3, n);
  for (arma::uword i = 0; i < n; ++i) {
    const double a = 2 * pi * double(i) / n;
    X.col(i) = arma::vec{std::cos(a), std::sin(a), 0.0};
  }
  const double sigma = 0.3;
  for (const double alpha : {0.0, 0.5, 1.0}) {
    INFO("density_normalisation " << alpha);
    auto m = fit_method("diffusion_maps",
                        {{"kernel_width", sigma},
                         {"width", std::string("absolute")},
                         {"density_normalisation", alpha},
                         {"diffusion_time", 2.0}},
                        X, 2);
    const auto& dm = dynamic_cast<const DiffusionMaps&>(*m);
    // On a uniform circle every density is the same, so P is the circulant kernel row
    // k(m) / sum k whatever a is: eigenvalue of frequency f is sum_m k(m) cos(2 pi f m / n) / sum
    // k.
    arma::vec k(n);
    for (arma::uword j = 0; j < n; ++j) {
      const double chord = 2 * std::sin(pi * double(j) / n);
      k(j) = std::exp(-chord * chord / (2 * sigma * sigma));
    }
    double l1 = 0;
    for (arma::uword j = 0; j < n; ++j) l1 += k(j) * std::cos(2 * pi * double(j) / n);
    l1 /= arma::accu(k);
    const arma::vec& l = dm.eigenvalues();
    CHECK(std::abs(l(0) - 1) < 1e-12);
    CHECK(std::abs(l(1) - l1) < 1e-12);
    CHECK(std::abs(l(2) - l1) < 1e-12);
    // The first frequency pair (cos, sin) spans a circle: every radius the same, and its value
    // l1^t sqrt(2) (sum pi psi^2 = 1 with uniform pi: psi = sqrt(2) cos).
    const arma::mat Y = m->embedding();
    const arma::rowvec r = arma::sqrt(arma::sum(arma::square(Y), 0));
    CHECK(r.max() - r.min() < 1e-9);
    CHECK(std::abs(r(0) - l1 * l1 * std::sqrt(2.0)) < 1e-9);
    CHECK(arma::abs(m->transform(X) - Y).max() < 1e-9);
  }
}

TEST_CASE("diffusion_maps out-of-sample map and diffusion distances",
          "[manifold][diffusion_maps]") {
  Rng rng(4);
  const arma::mat X = rng.randn(3, 80);
  auto m = fit_method("diffusion_maps", {{"density_normalisation", 0.5}}, X, 3);
  const arma::mat Y = m->embedding();
  // Nystroem: a training point maps onto its embedding; a new point next to one lands near it.
  CHECK(arma::abs(m->transform(X) - Y).max() < 1e-9);
  const arma::vec near = X.col(7) + 1e-6;
  CHECK(arma::norm(m->transform(near) - Y.col(7)) < 1e-4 * arma::abs(Y).max());
  // t = 0 gives the eigenvectors themselves, stationary-weighted orthonormal; t scales axis j by
  // l_j^t.
  auto e0 =
      fit_method("diffusion_maps", {{"density_normalisation", 0.5}, {"diffusion_time", 0.0}}, X, 3);
  const arma::vec l = dynamic_cast<const DiffusionMaps&>(*m).eigenvalues();
  for (arma::uword j = 0; j < 3; ++j)
    CHECK(arma::abs(e0->embedding().row(j) * l(j + 1) - Y.row(j)).max() < 1e-9);
  CHECK_THROWS_AS(fit_method("diffusion_maps",
                             {{"kernel_width", 1e-6}, {"width", std::string("absolute")}}, X, 2),
                  MethodError);
}
