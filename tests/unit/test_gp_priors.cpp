#include <catch2/catch.hpp>
#include <cmath>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/gplvm/priors/discriminative.hpp"
#include "methods/gplvm/priors/gmrf.hpp"
#include "methods/gplvm/priors/locally_linear.hpp"
#include "methods/gplvm/priors/rank.hpp"
#include "methods/gplvm/priors/tsne.hpp"

using namespace drbench;

namespace {

// Finite-difference check of a prior's gradient with respect to X at X.
double prior_grad_error(const LatentPrior& prior, const arma::mat& X) {
  FunctionObjective obj([&](const arma::vec& x, arma::vec* g) {
    const arma::mat Xm = arma::reshape(x, X.n_rows, X.n_cols);
    arma::mat gX;
    const double f = prior.value_grad(Xm, g ? &gX : nullptr);
    if (g) *g = arma::vectorise(gX);
    return f;
  });
  return check_gradient(obj, arma::vectorise(X)).max_rel_error;
}

arma::uvec balanced_labels(arma::uword n, arma::uword C) {
  arma::uvec y(n);
  for (arma::uword i = 0; i < n; ++i) y(i) = i % C;
  return y;
}

}  // namespace

TEST_CASE("GMRF prior equals alpha/2 sum_ij W_ij |x_i - x_j|^2 and X L", "[gp_priors]") {
  Rng rng(1);
  const arma::uword n = 23, q = 3, C = 4;
  const arma::uvec y = balanced_labels(n, C);
  const arma::mat X = rng.randn(q, n);
  const double alpha = 0.7;
  GmrfPrior prior(y, C, alpha);

  arma::mat W(n, n, arma::fill::zeros);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j)
      if (i != j && y(i) == y(j)) W(i, j) = 1.0;
  const arma::mat L = arma::diagmat(arma::sum(W, 1)) - W;
  double pairwise = 0.0;
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j)
      pairwise += W(i, j) * arma::accu(arma::square(X.col(i) - X.col(j)));

  arma::mat g;
  const double f = prior.value_grad(X, &g);
  CHECK(f == Approx(0.25 * alpha * pairwise).epsilon(1e-12));  // eq. 7
  CHECK(f == Approx(0.5 * alpha * arma::trace(X * L * X.t())).epsilon(1e-12));
  CHECK(arma::abs(g - alpha * X * L).max() < 1e-12);
  CHECK(prior_grad_error(prior, X) < 1e-6);

  // Zero exactly when every class sits on one point.
  arma::mat Xc = rng.randn(q, C);
  CHECK(prior.value_grad(Xc.cols(y), nullptr) == Approx(0.0).margin(1e-12));
  CHECK_THROWS_AS(GmrfPrior(y, C, 0.0), MethodError);
}

TEST_CASE("Discriminative prior is 1/(sigma_d^2 tr(Sw^-1 Sb)) with a correct gradient",
          "[gp_priors]") {
  Rng rng(2);
  const arma::uword n = 30, C = 3, q = 2;
  const arma::uvec y = balanced_labels(n, C);
  arma::mat X = rng.randn(q, n);
  for (arma::uword i = 0; i < n; ++i) X(0, i) += 1.5 * static_cast<double>(y(i));
  const double sigma_d = 0.8;
  DiscriminativePrior prior(y, C, sigma_d, 0.0);

  // Brute-force scatter matrices, written out as in Urtasun & Darrell (2007).
  arma::mat Sw(q, q, arma::fill::zeros), Sb(q, q, arma::fill::zeros);
  const arma::vec m0 = arma::mean(X, 1);
  for (arma::uword c = 0; c < C; ++c) {
    const arma::mat Xc = X.cols(arma::find(y == c));
    const arma::vec mc = arma::mean(Xc, 1);
    for (arma::uword i = 0; i < Xc.n_cols; ++i) Sw += (Xc.col(i) - mc) * (Xc.col(i) - mc).t();
    Sb += static_cast<double>(Xc.n_cols) * (mc - m0) * (mc - m0).t();
  }
  Sw /= static_cast<double>(n);
  Sb /= static_cast<double>(n);
  const double J = arma::trace(arma::inv(Sw) * Sb);
  CHECK(prior.criterion(X) == Approx(J).epsilon(1e-10));
  CHECK(prior.value_grad(X, nullptr) == Approx(1.0 / (sigma_d * sigma_d * J)).epsilon(1e-10));
  CHECK(prior_grad_error(prior, X) < 1e-6);
  CHECK(prior_grad_error(DiscriminativePrior(y, C, 2.0, 1e-3), rng.randn(q, n)) < 1e-6);

  // J is invariant to invertible linear maps of the latent space; moving the class means apart
  // with the within-class spread unchanged raises it and lowers the penalty.
  arma::mat Xlin = arma::mat{{2.0, 1.0}, {0.5, -1.0}} * X;
  CHECK(prior.value_grad(Xlin, nullptr) == Approx(prior.value_grad(X, nullptr)).epsilon(1e-10));
  arma::mat Xfar = X;
  for (arma::uword i = 0; i < n; ++i) Xfar(1, i) += 2.0 * static_cast<double>(y(i));
  CHECK(prior.value_grad(Xfar, nullptr) < prior.value_grad(X, nullptr));
}

TEST_CASE("LLE weights reconstruct planar data; the locally linear prior vanishes on affine maps",
          "[gp_priors]") {
  Rng rng(3);
  const arma::uword n = 40;
  // Points on a 2-D plane inside R^5: with k = 4 > 2 neighbours and a tiny regulariser each point
  // is an exact affine combination of its neighbours.
  const arma::mat T = rng.randn(2, n);
  const arma::mat Y = rng.randn(5, 2) * T;
  const arma::sp_mat W = lle_weights(Y, 4, 1e-9);
  CHECK(arma::abs(arma::vec(arma::sum(arma::mat(W), 1)) - 1.0).max() < 1e-12);
  CHECK(arma::abs(Y - Y * W.t()).max() < 1e-5);
  for (arma::uword i = 0; i < n; ++i) CHECK(W(i, i) == 0.0);

  LocallyLinearPrior prior(W, 0.5);
  const arma::mat A = rng.randn(3, 5);
  arma::mat Xaff = A * Y;
  Xaff.each_col() += arma::vec{1.0, -2.0, 0.5};
  CHECK(prior.value_grad(Xaff, nullptr) < 1e-8);

  const arma::mat X = rng.randn(3, n);
  const arma::mat M = (arma::eye(n, n) - arma::mat(W)).t() * (arma::eye(n, n) - arma::mat(W));
  CHECK(prior.value_grad(X, nullptr) ==
        Approx(arma::trace(X * M * X.t()) / (2 * 0.25)).epsilon(1e-10));
  CHECK(prior_grad_error(prior, X) < 1e-6);
  CHECK(prior_grad_error(LocallyLinearPrior(lle_weights(rng.randn(6, n), 7, 1e-3), 2.0), X) < 1e-6);
  CHECK_THROWS_AS(lle_weights(Y, n, 1e-3), MethodError);
}

TEST_CASE("Rank prior matches its log-det form, value and gradient", "[gp_priors]") {
  Rng rng(4);
  const arma::uword q = 4, n = 25;
  arma::mat X = rng.randn(q, n);
  X.row(3) *= 0.01;  // one nearly unused direction
  X.each_col() += arma::vec{3.0, -1.0, 0.0, 2.0};
  const double alpha = 1.3, beta = 0.7;
  RankPrior prior(alpha, beta);

  // Reference: sum_i ln(1 + s_i^2/beta^2) = ln det(I + Xc Xc^T/beta^2), whose gradient is
  // 2 alpha (beta^2 I + Xc Xc^T)^-1 Xc (the implementation works from the SVD instead).
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  arma::mat G = Xc * Xc.t();
  G.diag() += beta * beta;
  const double expected = alpha * (arma::log_det_sympd(G) - q * std::log(beta * beta));
  const arma::mat g_logdet = 2.0 * alpha * arma::solve(G, Xc);

  arma::mat g;
  CHECK(prior.value_grad(X, &g) == Approx(expected).epsilon(1e-10));
  CHECK(arma::abs(g - g_logdet).max() < 1e-10);
  CHECK(prior_grad_error(prior, X) < 1e-6);
  // Translation invariant: the prior acts on the centred matrix.
  CHECK(prior.value_grad(X + 5.0, nullptr) == Approx(expected).epsilon(1e-10));
}

TEST_CASE("Rank prior stays exact with more latent dimensions than points and far-out X",
          "[gp_priors]") {
  // rankGPLVM starts at the data (q >= D), so q can exceed the rank n - 1 of the centred X, and
  // the optimiser's trial steps can make s_i^2 / beta^2 pass 1e16, where I + Xc Xc^T / beta^2
  // is no longer numerically positive definite. X is built with known singular values: U0 and
  // V0 orthonormal, V0's columns orthogonal to the ones vector so that centring keeps them.
  Rng rng(6);
  const arma::uword q = 6, n = 5, r = 4;
  const double alpha = 0.8, beta = 0.5;
  RankPrior prior(alpha, beta);
  arma::mat U0, V0, R;
  arma::qr_econ(U0, R, rng.randn(q, r));
  arma::mat B = rng.randn(n, r);
  B.each_row() -= arma::mean(B, 0);
  arma::qr_econ(V0, R, B);
  for (const double scale : {1.0, 1e9}) {
    const arma::vec s0 = scale * arma::vec{3.0, 1.0, 0.2, 0.05};
    arma::mat X = U0 * arma::diagmat(s0) * V0.t();
    X.each_col() += arma::vec{1.0, -2.0, 0.5, 0.0, 3.0, 1.0};
    const double ref = alpha * arma::accu(arma::log1p(arma::square(s0) / (beta * beta)));
    const arma::mat g_ref =
        U0 * arma::diagmat(2.0 * alpha * s0 / (beta * beta + arma::square(s0))) * V0.t();
    arma::mat g;
    CHECK(prior.value_grad(X, &g) == Approx(ref).epsilon(1e-10));
    // Rounding X (eps |X|) already moves the gradient by up to 2 alpha / beta^2 times that in
    // the null directions of Xc, where the prior is quadratic; no evaluation can beat it.
    const double rounding = 16 * arma::datum::eps * arma::abs(X).max() * 2 * alpha / (beta * beta);
    CHECK(arma::abs(g - g_ref).max() < 1e-10 * arma::abs(g_ref).max() + rounding);
    if (scale == 1.0) CHECK(prior_grad_error(prior, X) < 1e-6);
  }
  // A non-finite X is a step the optimiser must reject, as the GP likelihood does.
  arma::mat X = rng.randn(q, n), g;
  X(2, 3) = arma::datum::nan;
  CHECK(std::isinf(prior.value_grad(X, &g)));
  CHECK(g.n_rows == q);
  CHECK(g.n_cols == n);
}

TEST_CASE("t-SNE regulariser: affinities at the requested perplexity, KL value and gradient",
          "[gp_priors]") {
  Rng rng(5);
  const arma::uword n = 35;
  const arma::mat Y = rng.randn(6, n);
  const double perplexity = 8.0;
  const arma::mat P = tsne_joint_affinities(Y, perplexity);
  CHECK(arma::accu(P) == Approx(1.0).epsilon(1e-12));
  CHECK(arma::abs(P - P.t()).max() < 1e-15);
  CHECK(arma::abs(P.diag()).max() == 0.0);

  // Independent reference: each conditional row by a plain bisection on its entropy (here to
  // machine precision), then the symmetrisation (P_c + P_c^T) / 2n.
  arma::mat Pc(n, n, arma::fill::zeros);
  for (arma::uword i = 0; i < n; ++i) {
    arma::vec d(n);
    for (arma::uword j = 0; j < n; ++j) d(j) = arma::accu(arma::square(Y.col(i) - Y.col(j)));
    double lo = 0, hi = 1e6;
    arma::vec p(n);
    for (int it = 0; it < 200; ++it) {
      const double b = 0.5 * (lo + hi);
      p = arma::exp(-b * (d - d.min()));
      p(i) = 0;
      p /= arma::accu(p);
      double H = 0;
      for (arma::uword j = 0; j < n; ++j)
        if (p(j) > 0) H -= p(j) * std::log(p(j));
      (H > std::log(perplexity) ? lo : hi) = b;
    }
    Pc.col(i) = p;
  }
  CHECK(arma::abs(P - (Pc + Pc.t()) / (2.0 * n)).max() < 1e-4 * P.max());

  const double lambda = 2.5;
  TsnePrior prior(P, lambda);
  const arma::mat X = rng.randn(2, n);
  arma::mat num(n, n);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j)
      num(i, j) = i == j ? 0.0 : 1.0 / (1.0 + arma::accu(arma::square(X.col(i) - X.col(j))));
  const arma::mat Q = num / arma::accu(num);
  double kl = 0;
  for (arma::uword k = 0; k < P.n_elem; ++k)
    if (P(k) > 0) kl += P(k) * std::log(P(k) / Q(k));
  CHECK(prior.value_grad(X, nullptr) == Approx(lambda * kl).epsilon(1e-10));
  CHECK(prior_grad_error(prior, X) < 1e-6);
  CHECK_THROWS_AS(tsne_joint_affinities(Y, 100.0), MethodError);
}
