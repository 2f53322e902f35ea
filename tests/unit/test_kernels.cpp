#include <algorithm>
#include <catch2/catch.hpp>

#include "framework/core/rng.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/exp_block.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/gplvm/kernels/bias.hpp"
#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/kernels/poly.hpp"
#include "methods/gplvm/kernels/rbf.hpp"
#include "methods/gplvm/kernels/stationary.hpp"
#include "methods/gplvm/kernels/sum.hpp"
#include "methods/gplvm/kernels/tps.hpp"
#include "methods/gplvm/kernels/white.hpp"

using namespace drbench;

namespace {

const char* kSpecs[] = {"rbf",
                        "bias",
                        "white",
                        "linear",
                        "poly",
                        "mlp",
                        "matern32",
                        "matern52",
                        "matern32+bias+white",
                        "rbf*matern52",
                        "rbf+bias+white",
                        "mlp+bias+white",
                        "poly+linear+white",
                        "rbf*linear+white",
                        "mlp*poly*rbf+bias"};

// Hyperparameters away from the defaults so that no gradient term vanishes by symmetry.
void perturb(Kernel& k, Rng& rng) {
  arma::vec p = k.params();
  for (auto& v : p) v += 0.3 * rng.normal();
  k.set_params(p);
}

}  // namespace

TEST_CASE("Kernel hyperparameter and latent gradients match finite differences", "[kernels]") {
  Rng rng(11);
  const arma::uword q = 3, n = 7, m = 5;
  for (const char* spec : kSpecs) {
    INFO("kernel " << spec);
    auto kern = make_kernel(spec);
    perturb(*kern, rng);
    const arma::mat X = 0.8 * rng.randn(q, n), X2 = 0.8 * rng.randn(q, m);
    const arma::mat G = rng.randn(n, n), Gc = rng.randn(n, m);  // G deliberately not symmetric
    const arma::vec gd = rng.randn(n, 1);

    // L(theta) = sum(G .* K(X; theta)).
    FunctionObjective by_theta([&](const arma::vec& t, arma::vec* g) {
      auto k = kern->clone();
      k->set_params(t);
      if (g) *g = k->grad_params(X, G);
      return arma::accu(G % k->K(X));
    });
    CHECK(check_gradient(by_theta, kern->params()).max_rel_error < 1e-6);

    FunctionObjective by_x([&](const arma::vec& x, arma::vec* g) {
      const arma::mat Xv = arma::reshape(x, q, n);
      if (g) *g = arma::vectorise(kern->grad_X(Xv, G));
      return arma::accu(G % kern->K(Xv));
    });
    CHECK(check_gradient(by_x, arma::vectorise(X)).max_rel_error < 1e-6);

    FunctionObjective by_x_cross([&](const arma::vec& x, arma::vec* g) {
      const arma::mat Xv = arma::reshape(x, q, n);
      if (g) *g = arma::vectorise(kern->grad_X_cross(Xv, X2, Gc));
      return arma::accu(Gc % kern->K(Xv, X2));
    });
    CHECK(check_gradient(by_x_cross, arma::vectorise(X)).max_rel_error < 1e-6);

    FunctionObjective by_x_diag([&](const arma::vec& x, arma::vec* g) {
      const arma::mat Xv = arma::reshape(x, q, n);
      if (g) *g = arma::vectorise(kern->grad_X_diag(Xv, gd));
      return arma::dot(gd, kern->diag(Xv));
    });
    CHECK(check_gradient(by_x_diag, arma::vectorise(X)).max_rel_error < 1e-6);

    // The cross-covariance's gradients in the hyperparameters and the second input, and the
    // diagonal's in the hyperparameters: what a kernel states and what the defaults derive.
    FunctionObjective cross_theta([&](const arma::vec& t, arma::vec* g) {
      auto k = kern->clone();
      k->set_params(t);
      if (g) {
        arma::mat gx;
        k->cross_gradients(X, X2, Gc, *g, gx, nullptr);
      }
      return arma::accu(Gc % k->K(X, X2));
    });
    CHECK(check_gradient(cross_theta, kern->params()).max_rel_error < 1e-6);
    FunctionObjective cross_x2([&](const arma::vec& x, arma::vec* g) {
      const arma::mat X2v = arma::reshape(x, q, m);
      if (g) {
        arma::vec gp;
        arma::mat gx, gx2;
        kern->cross_gradients(X, X2v, Gc, gp, gx, &gx2);
        *g = arma::vectorise(gx2);
      }
      return arma::accu(Gc % kern->K(X, X2v));
    });
    CHECK(check_gradient(cross_x2, arma::vectorise(X2)).max_rel_error < 1e-6);
    FunctionObjective diag_theta([&](const arma::vec& t, arma::vec* g) {
      auto k = kern->clone();
      k->set_params(t);
      if (g) *g = k->grad_params_diag(X, gd);
      return arma::dot(gd, k->diag(X));
    });
    CHECK(check_gradient(diag_theta, kern->params()).max_rel_error < 1e-6);

    // The combined call agrees with the separate ones.
    arma::vec gp;
    arma::mat gx;
    kern->gradients(X, G, gp, gx);
    CHECK(arma::approx_equal(gp, kern->grad_params(X, G), "reldiff", 1e-10));
    CHECK(arma::approx_equal(gx, kern->grad_X(X, G), "absdiff", 1e-10));
  }
}

TEST_CASE("Kernel matrices are symmetric PSD and consistent with diag and cross", "[kernels]") {
  Rng rng(5);
  const arma::uword q = 2, n = 40;
  for (const char* spec : kSpecs) {
    INFO("kernel " << spec);
    auto kern = make_kernel(spec);
    perturb(*kern, rng);
    const arma::mat X = rng.randn(q, n);
    const arma::mat K = kern->K(X);
    REQUIRE(K.n_rows == n);
    REQUIRE(K.n_cols == n);
    CHECK(arma::approx_equal(K, K.t(), "absdiff", 1e-12));
    const arma::vec ev = arma::eig_sym(K);
    CHECK(ev.min() > -1e-9 * std::max(1.0, ev.max()));
    CHECK(arma::approx_equal(kern->diag(X), arma::diagvec(K), "absdiff", 1e-10));
    // Cross-covariance of X with itself is K without the white-noise diagonal.
    const arma::mat Kc = kern->K(X, X);
    const arma::mat white_part = K - Kc;
    CHECK(
        arma::approx_equal(white_part, arma::diagmat(arma::diagvec(white_part)), "absdiff", 1e-10));
    CHECK(kern->param_names().size() == kern->n_params());
  }
}

TEST_CASE("Kernels follow their closed forms", "[kernels]") {
  // GPLRF eq. (2): theta1 exp(-theta2/2 r^2) + theta3 + delta_ij / theta4.
  auto k = make_kernel("rbf+bias+white");
  k->set_params(arma::log(arma::vec{2.0, 0.5, 0.3, 0.1}));
  const arma::mat X = {{0.0, 1.0, 3.0}, {0.0, 1.0, -1.0}};
  const arma::mat K = k->K(X);
  CHECK(K(0, 1) == Approx(2.0 * std::exp(-0.25 * 2.0) + 0.3));
  CHECK(K(1, 2) == Approx(2.0 * std::exp(-0.25 * 8.0) + 0.3));
  CHECK(K(2, 2) == Approx(2.0 + 0.3 + 0.1));
  CHECK(k->param_names()[1] == "rbf.inv_width");

  PolyKernel p(3, 1.5, 0.5, 2.0);
  CHECK(p.K(X)(1, 2) == Approx(1.5 * std::pow(0.5 * 2.0 + 2.0, 3)));
  auto mlp = make_kernel("mlp");
  mlp->set_params(arma::log(arma::vec{1.0, 1.0, 1.0}));
  CHECK(mlp->K(X)(0, 1) == Approx(std::asin(1.0 / std::sqrt(2.0 * 4.0))));

  // Matern (Rasmussen & Williams eq. 4.17) with l = 1/sqrt(inv_width): r = 2 between points 1, 2.
  Matern32Kernel m32(1.5, 0.25);
  const double u3 = std::sqrt(3.0) * std::sqrt(8.0) * 0.5;
  CHECK(m32.K(X)(1, 2) == Approx(1.5 * (1 + u3) * std::exp(-u3)));
  Matern52Kernel m52(1.5, 0.25);
  const double u5 = std::sqrt(5.0) * std::sqrt(8.0) * 0.5;
  CHECK(m52.K(X)(1, 2) == Approx(1.5 * (1 + u5 + u5 * u5 / 3) * std::exp(-u5)));
  CHECK(m52.diag(X)(2) == Approx(1.5));

  CHECK_THROWS_WITH(make_kernel("rbf+gauss"), Catch::Contains("known: rbf"));
  CHECK_THROWS_WITH(make_kernel("rbf*"), Catch::Contains("unknown kernel ''"));

  // Products multiply elementwise; '*' binds tighter than '+'.
  auto prod = make_kernel("rbf*linear+white");
  CHECK(prod->name() == "rbf*linear+white");
  const arma::mat Kp = prod->K(X);
  CHECK(Kp(1, 2) == Approx(make_kernel("rbf")->K(X)(1, 2) * make_kernel("linear")->K(X)(1, 2)));
  CHECK(Kp(1, 2) != 0.0);
}

TEST_CASE("Kernel gradients hold across 64-point tiles and for many latent dimensions",
          "[kernels]") {
  // The stationary and thin-plate kernels walk their matrices in 64 x 64 tiles of the upper
  // triangle, and the stationary one accumulates X W in the pass only for q <= 2: n = 150 spans
  // three tile rows with a ragged edge, q = 17 takes the other branch.
  Rng rng(23);
  struct Case {
    std::unique_ptr<Kernel> kern;
    arma::uword q, n;
  };
  std::vector<Case> cases;
  cases.push_back({make_kernel("rbf"), 2, 150});
  cases.push_back({make_kernel("matern52+bias"), 2, 150});
  cases.push_back({make_kernel("rbf"), 17, 70});
  cases.push_back({std::make_unique<TpsKernel>(), 2, 150});
  for (auto& c : cases) {
    INFO("kernel " << c.kern->name() << ", q = " << c.q << ", n = " << c.n);
    perturb(*c.kern, rng);
    const arma::mat X = (c.q > 2 ? 0.3 : 1.0) * rng.randn(c.q, c.n);
    const arma::mat G = rng.randn(c.n, c.n);  // not symmetric
    FunctionObjective by_x([&](const arma::vec& x, arma::vec* g) {
      const arma::mat Xv = arma::reshape(x, c.q, c.n);
      if (g) *g = arma::vectorise(c.kern->grad_X(Xv, G));
      return arma::accu(G % c.kern->K(Xv));
    });
    CHECK(check_gradient(by_x, arma::vectorise(X)).max_rel_error < 1e-6);
    if (c.kern->n_params() > 0) {
      FunctionObjective by_theta([&](const arma::vec& t, arma::vec* g) {
        auto k = c.kern->clone();
        k->set_params(t);
        if (g) *g = k->grad_params(X, G);
        return arma::accu(G % k->K(X));
      });
      CHECK(check_gradient(by_theta, c.kern->params()).max_rel_error < 1e-6);
    }
    const arma::mat K = c.kern->K(X);
    CHECK(arma::approx_equal(K, K.t(), "absdiff", 0.0));  // both triangles written alike
  }
}

TEST_CASE("Static kernels get matrix and gradients from the static base", "[kernels]") {
  Rng rng(23);
  const arma::uword q = 2, n = 6, m = 4;
  const arma::mat X = rng.randn(q, n), X2 = rng.randn(q, m);
  const arma::mat G = rng.randn(n, n);  // not symmetric: the gradient must not assume it
  BiasKernel bias(0.7);
  WhiteKernel white(0.2);
  for (const StaticKernel* k :
       {static_cast<const StaticKernel*>(&bias), static_cast<const StaticKernel*>(&white)}) {
    INFO("kernel " << k->name());
    const bool every_pair = k == &bias;
    const double v = k == &bias ? 0.7 : 0.2;
    const arma::mat C = every_pair ? arma::mat(n, n, arma::fill::ones) : arma::mat(arma::eye(n, n));
    CHECK(arma::approx_equal(k->K(X), v * C, "absdiff", 0.0));
    arma::mat acc(n, n, arma::fill::value(0.5));
    upper_K_of(*k, X, UpperFill{false}, acc);
    CHECK(arma::approx_equal(arma::trimatu(acc), arma::trimatu(0.5 + v * C), "absdiff", 1e-15));
    CHECK(arma::approx_equal(k->diag(X), arma::vec(n, arma::fill::value(v)), "absdiff", 0.0));
    // Distinct points: the bias still covaries, white noise does not.
    CHECK(arma::approx_equal(k->K(X, X2), arma::mat(n, m, arma::fill::value(every_pair ? v : 0.0)),
                             "absdiff", 0.0));
    CHECK(k->param_names() == std::vector<std::string>{k->name() + ".variance"});

    // dL/dlog variance of L = sum(G .* K): the closed form and finite differences.
    CHECK(k->grad_params(X, G)(0) == Approx(v * arma::accu(G % C)).epsilon(1e-14));
    FunctionObjective by_log_variance([&](const arma::vec& t, arma::vec* g) {
      auto kt = k->clone();
      kt->set_params(t);
      if (g) *g = kt->grad_params(X, G);
      return arma::accu(G % kt->K(X));
    });
    const GradCheck gc = check_gradient(by_log_variance, k->params());
    CHECK(gc.max_rel_error < 1e-8);
    CHECK(std::abs(gc.analytic(0)) > 0.1);  // a vanishing gradient would pass trivially

    // Nothing depends on where the points are.
    CHECK(arma::norm(k->grad_X(X, G), "inf") == 0.0);
    CHECK(arma::norm(k->grad_X_cross(X, X2, rng.randn(n, m)), "inf") == 0.0);
    CHECK(arma::norm(k->grad_X_diag(X, rng.randn(n, 1)), "inf") == 0.0);
    CHECK(k->grad_X(X, G).n_rows == q);
    CHECK(k->grad_X(X, G).n_cols == n);
  }
}

TEST_CASE("GP kernels add bias and white noise to a registry covariance", "[kernels]") {
  const auto names = covariance_kernel_names();
  CHECK(std::find(names.begin(), names.end(), "rbf") != names.end());
  CHECK(std::find(names.begin(), names.end(), "bias") == names.end());
  CHECK(std::find(names.begin(), names.end(), "white") == names.end());

  // Bit for bit what the spec "<covariance>+bias+white" builds: the same parts, hyperparameters
  // and arithmetic, so fitted GP objectives do not move.
  Rng rng(29);
  const arma::mat X = rng.randn(3, 8), X2 = rng.randn(3, 5);
  const arma::mat G = rng.randn(8, 8);
  std::vector<std::string> covariances = names;
  covariances.push_back("rbf*linear");
  for (const auto& c : covariances) {
    INFO("covariance " << c);
    auto gp = make_gp_kernel(c);
    auto spec = make_kernel(c + "+bias+white");
    CHECK(gp->name() == c + "+bias+white");
    CHECK(gp->param_names() == spec->param_names());
    arma::vec p = spec->params();
    for (auto& v : p) v += 0.2 * rng.normal();
    gp->set_params(p);
    spec->set_params(p);
    CHECK(arma::approx_equal(gp->K(X), spec->K(X), "absdiff", 0.0));
    CHECK(arma::approx_equal(gp->K(X, X2), spec->K(X, X2), "absdiff", 0.0));
    arma::vec ga, gb;
    arma::mat xa, xb;
    gp->gradients(X, G, ga, xa);
    spec->gradients(X, G, gb, xb);
    CHECK(arma::approx_equal(ga, gb, "absdiff", 0.0));
    CHECK(arma::approx_equal(xa, xb, "absdiff", 0.0));
  }
  CHECK_THROWS_WITH(make_gp_kernel("gauss"), Catch::Contains("known: rbf"));
}

TEST_CASE("One-triangle kernel path equals the full-matrix path for every combination",
          "[kernels]") {
  // The GP objective builds K and reads G = dL/dK as upper triangles only, with the static parts
  // of a sum folded into another part's passes. NaN in the strict lower triangles shows that
  // nothing reads them; n = 150 spans three 64-point tiles; q = 1, 2 take the stationary pass's
  // in-pass products, q = 17 its symm branch.
  Rng rng(31);
  std::vector<std::string> specs(std::begin(kSpecs), std::end(kSpecs));
  for (const char* s : {"bias+rbf+white", "white+bias", "rbf+matern32+bias+white", "tps+white",
                        "white+linear+bias", "bias+matern52"})
    specs.push_back(s);
  const double nan = arma::datum::nan;
  for (const auto& spec : specs) {
    for (arma::uword q : {1u, 2u, 17u}) {
      if (spec.find("tps") != std::string::npos && q > 4) continue;
      INFO("kernel " << spec << ", q = " << q);
      std::unique_ptr<Kernel> kern;
      if (spec == "tps+white") {
        std::vector<std::unique_ptr<Kernel>> parts;
        parts.push_back(std::make_unique<TpsKernel>());
        parts.push_back(std::make_unique<WhiteKernel>());
        kern = std::make_unique<SumKernel>(std::move(parts));
      } else {
        kern = make_kernel(spec);
      }
      perturb(*kern, rng);
      const arma::uword n = 150;
      const arma::mat X = 0.8 * rng.randn(q, n);
      const arma::mat Kfull = kern->K(X);
      const double scale = arma::abs(Kfull).max();
      // Written over a NaN lower triangle, and added onto a known matrix.
      arma::mat K(n, n, arma::fill::value(nan));
      upper_K_of(*kern, X, UpperFill{}, K);
      arma::mat base = rng.randn(n, n);
      base.elem(arma::trimatl_ind(arma::size(base), -1)).fill(nan);
      arma::mat K2 = base;
      upper_K_of(*kern, X, UpperFill{false, 0.25, 0.5}, K2);
      const arma::uvec up = arma::trimatu_ind(arma::size(K));
      const arma::vec want = Kfull.elem(up);
      arma::mat D2 = K2 - base - 0.25;
      D2.diag() -= 0.5;
      CHECK(arma::abs(arma::vec(K.elem(up)) - want).max() <= 1e-12 * scale);
      CHECK(arma::abs(arma::vec(D2.elem(up)) - want).max() <= 1e-12 * (scale + 3.0));

      // Gradients from a symmetric G held in its upper triangle, against the full-matrix ones.
      arma::mat Gs = rng.randn(n, n);
      Gs = Gs + Gs.t();
      arma::vec gp_full, gp_up;
      arma::mat gx_full, gx_up;
      kern->gradients(X, Gs, gp_full, gx_full);
      arma::mat Gu = Gs;
      Gu.elem(arma::trimatl_ind(arma::size(Gu), -1)).fill(nan);
      upper_gradients_of(*kern, X, Gu, gp_up, gx_up, nullptr);
      REQUIRE(gp_up.n_elem == gp_full.n_elem);
      const double tol = 1e-10 * (1.0 + arma::abs(gp_full).max() + arma::abs(gx_full).max());
      if (gp_full.n_elem) CHECK(arma::abs(gp_up - gp_full).max() <= tol);
      CHECK(arma::abs(gx_up - gx_full).max() <= tol);
    }
  }
}

TEST_CASE("Folded bias and white gradients equal their own passes over G", "[kernels]") {
  // In rbf+bias+white the rbf pass over G also sums G for bias and white; alone, each static
  // kernel sums G itself. Both must give var * sum(G) and var * tr(G).
  Rng rng(37);
  const arma::uword n = 130, q = 2;
  const arma::mat X = rng.randn(q, n);
  arma::mat G = rng.randn(n, n);
  G = G + G.t();
  auto sum = make_kernel("rbf+bias+white");
  perturb(*sum, rng);
  const arma::vec p = sum->params();  // rbf variance, inv_width, bias, white (logs)
  arma::vec gp;
  arma::mat gx, Gu = G;
  UpperSums sums;
  upper_gradients_of(*sum, X, Gu, gp, gx, &sums);
  REQUIRE(sums.filled);
  CHECK(2.0 * sums.strict_upper + sums.diagonal == Approx(arma::accu(G)).epsilon(1e-12));
  CHECK(sums.diagonal == Approx(arma::trace(G)).epsilon(1e-12));
  BiasKernel bias(std::exp(p(2)));
  WhiteKernel white(std::exp(p(3)));
  arma::vec gb, gw;
  arma::mat gxb, gxw;
  bias.upper_gradients(X, Gu, gb, gxb, nullptr);
  white.upper_gradients(X, Gu, gw, gxw, nullptr);
  CHECK(gp(2) == Approx(gb(0)).epsilon(1e-12));
  CHECK(gp(3) == Approx(gw(0)).epsilon(1e-12));
  CHECK(gb(0) == Approx(std::exp(p(2)) * arma::accu(G)).epsilon(1e-12));
  CHECK(gw(0) == Approx(std::exp(p(3)) * arma::trace(G)).epsilon(1e-12));
  CHECK(arma::abs(gxb).max() == 0.0);
}

namespace {

// A kernel written against the base alone: K(X, X2) and its cross gradients, nothing else (the
// RBF, so that every derived call has an independent counterpart in RbfKernel's own code).
class BareRbf final : public KernelWithParams {
 public:
  BareRbf(double variance, double inv_width)
      : KernelWithParams({"variance", "inv_width"}, arma::vec{variance, inv_width}) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<BareRbf>(*this); }
  std::string name() const override { return "bare_rbf"; }
  using Kernel::K;  // K(X) from the base
  arma::mat K(const arma::mat& X, const arma::mat& X2) const override {
    return value(0) * arma::exp(-0.5 * value(1) * sq_distances(X, X2));
  }
  void cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                       arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const override {
    const arma::mat S = sq_distances(X, X2), GK = G % K(X, X2);
    g_params = {arma::accu(GK), -0.5 * value(1) * arma::accu(GK % S)};
    // dk_ij/dx_i = -a k_ij (x_i - x2_j).
    g_X = -value(1) * (X.each_row() % arma::sum(GK, 1).t() - X2 * GK.t());
    if (g_X2) *g_X2 = -value(1) * (X2.each_row() % arma::sum(GK, 0) - X * GK);
  }
};

}  // namespace

TEST_CASE("A kernel stating only K(X, X2) and its cross gradients gets every other call",
          "[kernels]") {
  // Against RbfKernel, whose matrix, gradients, diagonal and one-triangle path are its own code:
  // the base's defaults (K(X) = K(X, X), gradients from the cross ones, diag and its gradients
  // point by point) and the full-matrix fallback of the GP objective's one-triangle calls.
  Rng rng(41);
  const arma::uword q = 2, n = 70, m = 9;
  const arma::mat X = rng.randn(q, n), X2 = rng.randn(q, m);
  const arma::mat G = rng.randn(n, n), Gc = rng.randn(n, m);
  const arma::vec gd = rng.randn(n, 1);
  const BareRbf bare(1.7, 0.6);
  const RbfKernel rbf(1.7, 0.6);
  const double tol = 1e-11;
  CHECK(arma::approx_equal(bare.K(X), rbf.K(X), "absdiff", tol));
  CHECK(arma::approx_equal(bare.diag(X), rbf.diag(X), "absdiff", tol));
  arma::vec pa, pb;
  arma::mat xa, xb, x2a, x2b;
  bare.gradients(X, G, pa, xa);
  rbf.gradients(X, G, pb, xb);
  CHECK(arma::approx_equal(pa, pb, "reldiff", tol));
  CHECK(arma::approx_equal(xa, xb, "absdiff", tol * (1 + arma::abs(xb).max())));
  bare.cross_gradients(X, X2, Gc, pa, xa, &x2a);
  rbf.cross_gradients(X, X2, Gc, pb, xb, &x2b);
  CHECK(arma::approx_equal(pa, pb, "reldiff", tol));
  CHECK(arma::approx_equal(xa, xb, "absdiff", tol));
  CHECK(arma::approx_equal(x2a, x2b, "absdiff", tol));
  bare.diag_gradients(X, gd, pa, xa);
  rbf.diag_gradients(X, gd, pb, xb);
  CHECK(arma::approx_equal(pa, pb, "absdiff", tol * (1 + arma::abs(pb).max())));
  CHECK(arma::abs(xa).max() <= tol);

  // In a GP kernel's sum, the one-triangle calls take the full-matrix path for the bare part and
  // fold bias and white into it; RbfKernel's sum takes its own pass.
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(bare.clone());
  parts.push_back(std::make_unique<BiasKernel>(0.3));
  parts.push_back(std::make_unique<WhiteKernel>(0.05));
  const SumKernel bare_gp(std::move(parts));
  auto rbf_gp = make_kernel("rbf+bias+white");
  rbf_gp->set_params(bare_gp.params());
  arma::mat Ka(n, n, arma::fill::zeros), Kb(n, n, arma::fill::zeros);
  upper_K_of(bare_gp, X, UpperFill{}, Ka);
  upper_K_of(*rbf_gp, X, UpperFill{}, Kb);
  CHECK(arma::approx_equal(arma::trimatu(Ka), arma::trimatu(Kb), "absdiff", tol));
  arma::mat Gs = G + G.t(), Ga = Gs, Gb = Gs;
  upper_gradients_of(bare_gp, X, Ga, pa, xa, nullptr);
  upper_gradients_of(*rbf_gp, X, Gb, pb, xb, nullptr);
  CHECK(arma::approx_equal(pa, pb, "reldiff", tol));
  CHECK(arma::approx_equal(xa, xb, "absdiff", tol * (1 + arma::abs(xb).max())));
  CHECK(bare_gp.noise_variance() == Approx(0.05));
}

// The stationary kernels' cross gradients at q = 2 take a vectorised one-sweep path (four
// lanes, n mod 4 points apart) of their own; the test above runs q = 3. Both the cached path
// (cross_K first, as the sparse likelihoods call it) and the fresh one, against finite
// differences of sum(G .* K(X, X2)) in the hyperparameters and both inputs.
TEST_CASE("Stationary cross gradients at q = 2 match finite differences, cached or not",
          "[kernels]") {
  Rng rng(23);
  const arma::uword q = 2, m = 5;
  for (const char* spec : {"rbf", "matern32", "matern52", "rbf+bias+white", "matern52+bias"})
    for (arma::uword n : {3, 8, 13})
      for (bool cached : {false, true}) {
        INFO("kernel " << spec << ", n = " << n << (cached ? ", after cross_K" : ", fresh"));
        auto kern = make_kernel(spec);
        perturb(*kern, rng);
        const arma::mat X = 0.8 * rng.randn(q, n), X2 = 0.8 * rng.randn(q, m);
        const arma::mat Gc = rng.randn(n, m);
        if (cached)
          CHECK(arma::approx_equal(kern->cross_K(X, X2), kern->K(X, X2), "absdiff", 1e-15));
        auto grads = [&](const Kernel& k, const arma::mat& Xv, const arma::mat& X2v, arma::vec& gp,
                         arma::mat& gx, arma::mat& gx2) {
          if (cached) k.cross_K(Xv, X2v);
          k.cross_gradients(Xv, X2v, Gc, gp, gx, &gx2);
        };
        FunctionObjective by_theta([&](const arma::vec& t, arma::vec* g) {
          auto k = kern->clone();
          k->set_params(t);
          if (g) {
            arma::mat gx, gx2;
            grads(*k, X, X2, *g, gx, gx2);
          }
          return arma::accu(Gc % k->K(X, X2));
        });
        CHECK(check_gradient(by_theta, kern->params()).max_rel_error < 1e-6);
        for (bool first : {true, false}) {  // the gradient in X, then in X2
          INFO((first ? "in X" : "in X2"));
          const arma::mat& at = first ? X : X2;
          FunctionObjective by_input([&](const arma::vec& x, arma::vec* g) {
            const arma::mat V = arma::reshape(x, q, at.n_cols);
            const arma::mat& Xv = first ? V : X;
            const arma::mat& X2v = first ? X2 : V;
            if (g) {
              arma::vec gp;
              arma::mat gx, gx2;
              grads(*kern, Xv, X2v, gp, gx, gx2);
              *g = arma::vectorise(first ? gx : gx2);
            }
            return arma::accu(Gc % kern->K(Xv, X2v));
          });
          CHECK(check_gradient(by_input, arma::vectorise(at)).max_rel_error < 1e-6);
        }
      }
}

// The sweep's two- and four-lane paths (SSE2, AVX2) sum in the same lanes in the same order:
// the same bits whichever the CPU takes. On a CPU without AVX2 both runs take two lanes.
TEST_CASE("Stationary cross gradients at q = 2: two and four lanes give the same bits",
          "[kernels]") {
  Rng rng(29);
  for (const char* spec : {"rbf+bias+white", "matern32"}) {
    INFO("kernel " << spec);
    auto kern = make_kernel(spec);
    perturb(*kern, rng);
    const arma::uword n = 103, m = 7;
    const arma::mat X = rng.randn(2, n), X2 = rng.randn(2, m), G = rng.randn(n, m);
    arma::vec gp[2];
    arma::mat gx[2], gx2[2];
    for (int two : {0, 1}) {
      force_two_lanes(two == 1);
      const arma::mat K = kern->cross_K(X, X2);
      kern->cross_gradients(X, X2, G, gp[two], gx[two], &gx2[two]);
    }
    force_two_lanes(false);
    CHECK(arma::all(gp[0] == gp[1]));
    CHECK(arma::all(arma::vectorise(gx[0] == gx[1])));
    CHECK(arma::all(arma::vectorise(gx2[0] == gx2[1])));
  }
}
