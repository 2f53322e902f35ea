#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "linear_support.hpp"
#include "methods/linear/ppca/ppca.hpp"

using namespace drbench;
using drbench::testing::fit_method;

namespace {

// Data from a PPCA model with well separated spectrum so the EM reference converges quickly.
arma::mat ppca_data(Rng& rng, arma::uword d, arma::uword q, arma::uword n) {
  arma::mat W = rng.randn(d, q);
  W.each_row() %= arma::linspace<arma::rowvec>(4.0, 2.0, q);
  arma::mat Y = W * rng.randn(q, n) + 0.5 * rng.randn(d, n);
  Y.each_col() += arma::linspace<arma::vec>(1.0, 3.0, d);
  return Y;
}

}  // namespace

TEST_CASE("ppca closed form agrees with EM (Tipping & Bishop eq. 29-30)", "[linear][ppca]") {
  Rng rng(31);
  const arma::mat Y = ppca_data(rng, 6, 2, 400);
  const PpcaModel m = ppca_fit(Y, 2);
  // EM from a random start: an independent route to the same maximum.
  const arma::mat Yc = Y.each_col() - arma::mean(Y, 1);
  const arma::mat S = Yc * Yc.t() / Y.n_cols;
  arma::mat W = rng.randn(6, 2);
  double s2 = 1.0;
  for (int it = 0; it < 20000; ++it) {
    const arma::mat Minv = arma::inv_sympd(W.t() * W + s2 * arma::eye(2, 2));
    const arma::mat SW = S * W;
    const arma::mat Wn = SW * arma::inv(s2 * arma::eye(2, 2) + Minv * W.t() * SW);
    s2 = arma::trace(S - SW * Minv * Wn.t()) / 6.0;
    W = Wn;
  }
  CHECK(m.sigma2 == Approx(s2).epsilon(1e-8));
  // W is identified up to a rotation; W W^T is not.
  const arma::mat WWt = m.W * m.W.t();
  CHECK(arma::norm(WWt - W * W.t(), "fro") < 1e-7 * arma::norm(WWt, "fro"));
}

TEST_CASE("ppca maximises the likelihood: zero gradient, perturbations lose", "[linear][ppca]") {
  Rng rng(32);
  const arma::mat Y = ppca_data(rng, 8, 3, 300);
  const PpcaModel m = ppca_fit(Y, 3);
  const double L0 = m.log_likelihood(Y);
  // dL/dW = n (C^-1 S C^-1 W - C^-1 W) vanishes at the maximum (Tipping & Bishop eq. 5).
  const arma::mat Yc = Y.each_col() - m.mean;
  const arma::mat S = Yc * Yc.t() / Y.n_cols;
  const arma::mat Ci = arma::inv_sympd(m.W * m.W.t() + m.sigma2 * arma::eye(8, 8));
  const arma::mat G = Ci * S * Ci * m.W - Ci * m.W;
  CHECK(arma::norm(G, "fro") < 1e-8 * arma::norm(Ci * m.W, "fro"));
  for (int t = 0; t < 20; ++t) {
    PpcaModel p = m;
    p.W += 0.05 * rng.randn(8, 3);
    CHECK(p.log_likelihood(Y) < L0);
    PpcaModel s = m;
    s.sigma2 *= (t % 2 ? 1.1 : 0.9);
    CHECK(s.log_likelihood(Y) < L0);
  }
}

TEST_CASE("ppca embedding is the posterior mean and equals transform", "[linear][ppca]") {
  Rng rng(33);
  const arma::mat Y = ppca_data(rng, 7, 2, 120);
  auto fitted = fit_method("ppca", Y, nullptr, 0, 2);
  const auto& ppca = dynamic_cast<const Ppca&>(*fitted);
  const PpcaModel& m = ppca.model();
  const arma::mat M = m.W.t() * m.W + m.sigma2 * arma::eye(2, 2);
  const arma::mat post = arma::inv(M) * m.W.t() * (Y.each_col() - m.mean);
  CHECK(arma::approx_equal(fitted->embedding(), post, "absdiff", 1e-9));
  CHECK(arma::approx_equal(fitted->transform(Y), fitted->embedding(), "absdiff", 1e-10));
  CHECK(arma::approx_equal(ppca_init(Y, 2), post, "absdiff", 1e-9));
}

TEST_CASE("ppca refuses q >= d", "[linear][ppca]") {
  Rng rng(34);
  const arma::mat Y = rng.randn(3, 50);
  CHECK_THROWS_WITH(ppca_fit(Y, 3), Catch::Contains("dims"));
}
