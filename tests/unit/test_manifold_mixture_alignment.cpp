// LLC and manifold charting, which have no reference implementation on Debian: the mixture's EM
// never lowers the log-likelihood; each method's alignment matrix equals the one built densely
// from its definition (LLC: U'(I - W)'(I - W)U with an n x n W; charting: the pairwise chart
// disagreement sum_n sum_{k,j} r_nk r_nj |G_k u_nk - G_j u_nj|^2 / 2 evaluated as a quadratic
// form); on a noisy plane embedded linearly in 5-D the embedding is an affine image of the plane;
// new points map through the mixture like the training points.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "framework/linalg/distances.hpp"
#include "methods/manifold/local_alignment.hpp"
#include "methods/manifold/manifold_charting/manifold_charting.hpp"
#include "methods/manifold/mixture_alignment.hpp"
#include "tests/unit/neighbour_helpers.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;

namespace {

// A 3 x 2 rectangle mapped into 5-D by an orthonormal 5 x 2 map plus a shift, with noise of
// standard deviation `noise`; `T` receives the plane coordinates.
arma::mat noisy_plane(Rng& rng, arma::uword n, double noise, arma::mat& T) {
  arma::mat P, R;
  arma::qr_econ(P, R, rng.randn(5, 5));
  T = arma::join_cols(3.0 * rng.randu(1, n), 2.0 * rng.randu(1, n));
  arma::mat X = P.head_cols(2) * T + noise * rng.randn(5, n);
  X.each_col() += arma::vec{1.0, -2.0, 0.5, 3.0, 0.0};
  return X;
}

// Relative residual of the least-squares affine fit Y ~ A T + b.
double affine_residual(const arma::mat& Y, const arma::mat& T) {
  const arma::mat T1 = arma::join_cols(T, arma::ones(1, T.n_cols));
  const arma::mat coef = arma::solve(T1.t(), Y.t());
  const arma::mat Yc = Y.each_col() - arma::mean(Y, 1);
  return arma::norm(Y - coef.t() * T1, "fro") / arma::norm(Yc, "fro");
}

}  // namespace

TEST_CASE("the analyser mixture's EM never lowers the log-likelihood", "[manifold][llc][mixture]") {
  Rng rng(21);
  arma::mat T;
  const arma::mat X = noisy_plane(rng, 300, 0.05, T);
  for (const arma::uword m : {arma::uword(1), arma::uword(6), arma::uword(15)}) {
    INFO("components " << m);
    AnalyserMixture mix;
    MixtureSetting s;
    s.components = m;
    s.latent = 2;
    s.iterations = 60;
    s.tolerance = 0.0;  // every iteration
    Rng r(4);
    mix.fit(X, s, r, nullptr, "test");
    const auto& h = mix.history();
    REQUIRE(h.size() >= 2);
    for (std::size_t i = 1; i < h.size(); ++i) CHECK(h[i] >= h[i - 1] - 1e-8 * std::abs(h[i]));
    // The final responsibilities are a distribution per point.
    const arma::mat R = mix.responsibilities(X);
    CHECK(arma::abs(arma::sum(R, 1) - 1.0).max() < 1e-12);
    // One component is PPCA: its log-likelihood is the closed-form maximum (Tipping & Bishop
    // 1999, eq. 4 with the ML sigma^2 and W) from the covariance's eigenvalues.
    if (m == 1) {
      const arma::mat Xc = X.each_col() - arma::mean(X, 1);
      const arma::vec ev = arma::sort(arma::eig_sym(Xc * Xc.t() / double(X.n_cols)), "descend");
      const double s2 = arma::mean(ev.tail(3));
      const double logdet = std::log(ev(0)) + std::log(ev(1)) + 3.0 * std::log(s2);
      const double ll =
          -0.5 * double(X.n_cols) * (5.0 * std::log(2 * arma::datum::pi) + logdet + 5.0);
      CHECK(std::abs(h.back() - ll) < 1e-8 * std::abs(ll));
    }
  }
}

TEST_CASE("llc's alignment matrix is U'(I - W)'(I - W)U built densely", "[manifold][llc]") {
  Rng rng(22);
  arma::mat T;
  const arma::mat X = noisy_plane(rng, 40, 0.05, T);
  auto m =
      fit_method("llc", {{"analysers", std::int64_t(3)}, {"neighbours", std::int64_t(5)}}, X, 2);
  const auto& llc = dynamic_cast<const MixtureAlignmentMethod&>(*m);
  const arma::mat U = llc.mixture().stacked(X);
  const arma::umat nn = testing::brute_knn(X, X, 5, true);
  arma::mat IW = arma::eye(40, 40);
  for (arma::uword i = 0; i < 40; ++i) {
    const arma::vec w = reconstruction_weights(X.col(i), X.cols(nn.col(i)), 1e-3);
    for (arma::uword j = 0; j < 5; ++j) IW(i, nn(j, i)) -= w(j);
  }
  const arma::mat A = U.t() * IW.t() * IW * U / 40.0;
  CHECK(arma::abs(llc.cost_matrix() - A).max() < 1e-10 * arma::abs(A).max());
  CHECK(arma::abs(llc.constraint_matrix() - U.t() * U / 40.0).max() < 1e-12);
  // The embedding solves the generalised eigenproblem: unit covariance, and A v = lambda B v.
  const arma::mat Y = m->embedding();
  CHECK(arma::abs(Y * Y.t() / 40.0 - arma::eye(2, 2)).max() < 1e-6);
}

TEST_CASE("manifold charting's alignment matrix is the pairwise chart disagreement",
          "[manifold][manifold_charting]") {
  Rng rng(23);
  const arma::uword n = 12, m = 3, q = 2, p = q + 1;
  arma::mat R = rng.randu(n, m);
  R.each_col() /= arma::sum(R, 1);
  std::vector<arma::mat> Z(m);
  for (auto& z : Z) z = rng.randn(q, n);
  arma::mat U(n, m * p);
  for (arma::uword k = 0; k < m; ++k) {
    U.cols(k * p, k * p + q - 1) = Z[k].t();
    U.cols(k * p, k * p + q - 1).each_col() %= R.col(k);
    U.col(k * p + q) = R.col(k);
  }
  const arma::mat A = charting_cost(U, R, Z);
  // The cost of one output coordinate g (stacked G_k rows), evaluated from its definition.
  const auto cost = [&](const arma::vec& g) {
    double c = 0.0;
    for (arma::uword i = 0; i < n; ++i)
      for (arma::uword k = 0; k < m; ++k)
        for (arma::uword j = 0; j < m; ++j) {
          const double yk = arma::dot(g.subvec(k * p, k * p + q - 1), Z[k].col(i)) + g(k * p + q);
          const double yj = arma::dot(g.subvec(j * p, j * p + q - 1), Z[j].col(i)) + g(j * p + q);
          c += 0.5 * R(i, k) * R(i, j) * (yk - yj) * (yk - yj);
        }
    return c / double(n);
  };
  // A quadratic form is fixed by its values: polarise on the basis vectors.
  arma::mat Ad(m * p, m * p);
  for (arma::uword a = 0; a < m * p; ++a)
    for (arma::uword b = 0; b < m * p; ++b) {
      arma::vec ea(m * p, arma::fill::zeros), eb(m * p, arma::fill::zeros);
      ea(a) = 1.0;
      eb(b) = 1.0;
      Ad(a, b) = 0.5 * (cost(ea + eb) - cost(ea) - cost(eb));
    }
  CHECK(arma::abs(A - Ad).max() < 1e-12);
}

TEST_CASE("llc and manifold charting recover a noisy plane up to an affine map",
          "[manifold][llc][manifold_charting]") {
  Rng rng(24);
  arma::mat T, Tn;
  const arma::mat X = noisy_plane(rng, 400, 0.02, T);
  Rng rng2(24);
  const arma::mat Xall = noisy_plane(rng2, 430, 0.02, Tn);  // same map, 30 more points
  const arma::mat Xnew = Xall.tail_cols(30), Tnew = Tn.tail_cols(30);
  for (const std::string name : {"llc", "manifold_charting"}) {
    INFO(name);
    auto m = fit_method(name, {{"analysers", std::int64_t(8)}}, X, 2);
    const arma::mat Y = m->embedding();
    CHECK(affine_residual(Y, T) < 0.05);
    CHECK(arma::abs(m->transform(X) - Y).max() < 1e-10);
    const arma::mat Yn = m->transform(Xnew);
    CHECK(affine_residual(arma::join_rows(Y, Yn), arma::join_rows(T, Tnew)) < 0.05);
  }
}
