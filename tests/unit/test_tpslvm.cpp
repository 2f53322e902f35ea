#include <catch2/catch.hpp>
#include <cmath>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/gplvm/kernels/sum.hpp"
#include "methods/gplvm/kernels/tps.hpp"
#include "methods/gplvm/kernels/white.hpp"
#include "methods/gplvm/likelihood.hpp"
#include "methods/gplvm/model.hpp"
#include "methods/gplvm/objective.hpp"
#include "methods/gplvm/sparse.hpp"
#include "tests/unit/gp_helpers.hpp"

using namespace drbench;

namespace {

using testing::check_gradient_matches;
using testing::sheet;

std::unique_ptr<Kernel> tps_white(double noise, TpsConstant c = TpsConstant::paper) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::make_unique<TpsKernel>(c));
  parts.push_back(std::make_unique<WhiteKernel>(noise));
  return std::make_unique<SumKernel>(std::move(parts));
}

// A random rotation of R^q (QR of a Gaussian matrix, sign-fixed to det +1).
arma::mat rotation(Rng& rng, arma::uword q) {
  arma::mat Q, R;
  arma::qr(Q, R, rng.randn(q, q));
  if (arma::det(Q) < 0) Q.col(0) *= -1.0;
  return Q;
}

}  // namespace

TEST_CASE("eta follows the thin-plate basis per latent dimension", "[tpslvm]") {
  const double pi = arma::datum::pi, r = 1.7, s = r * r;
  CHECK(tps_eta(s, 1, TpsConstant::paper) == Approx(r * r * r / 12.0));
  CHECK(tps_eta(s, 2, TpsConstant::paper) == Approx(r * r * std::log(r) / (8.0 * std::sqrt(pi))));
  CHECK(tps_eta(s, 2, TpsConstant::classical) == Approx(r * r * std::log(r) / (8.0 * pi)));
  CHECK(tps_eta(s, 3, TpsConstant::paper) == Approx(-r / (8.0 * pi)));
  CHECK(tps_eta(s, 4, TpsConstant::paper) == Approx(-std::log(r) / (8.0 * pi * pi)));
  for (arma::uword q = 1; q <= 4; ++q) {
    CHECK(tps_eta(0.0, q, TpsConstant::paper) == 0.0);
    CHECK(tps_eta(0.9e-5, q, TpsConstant::paper) == 0.0);  // below the authors' cut-off
    // eta'(r)/r against a central difference in r.
    const double h = 1e-6;
    const double num = (tps_eta((r + h) * (r + h), q, TpsConstant::paper) -
                        tps_eta((r - h) * (r - h), q, TpsConstant::paper)) /
                       (2 * h);
    CHECK(tps_deta_over_r(s, q, TpsConstant::paper) == Approx(num / r).epsilon(1e-7));
  }
  CHECK_THROWS_AS(tps_eta(s, 5, TpsConstant::paper), MethodError);
}

TEST_CASE("TPS covariance X-gradient matches finite differences for q = 1..4", "[tpslvm]") {
  Rng rng(31);
  const arma::uword n = 9, m = 4;
  for (arma::uword q = 1; q <= 4; ++q) {
    INFO("q = " << q);
    TpsKernel kern;
    const arma::mat X = 1.3 * rng.randn(q, n), X2 = rng.randn(q, m);
    const arma::mat G = rng.randn(n, n), Gc = rng.randn(n, m);  // G deliberately not symmetric
    FunctionObjective by_x([&](const arma::vec& x, arma::vec* g) {
      const arma::mat Xv = arma::reshape(x, q, n);
      if (g) *g = arma::vectorise(kern.grad_X(Xv, G));
      return arma::accu(G % kern.K(Xv));
    });
    check_gradient_matches(by_x, arma::vectorise(X), 1e-6);

    // With the knots fixed (after fit): cross-covariance, diagonal and K at moved points.
    TpsKernel fixed;
    fixed.fix_inputs(X);
    const arma::vec gd = rng.randn(m, 1);
    const arma::mat Gm = rng.randn(m, m);
    FunctionObjective cross([&](const arma::vec& x, arma::vec* g) {
      const arma::mat Xv = arma::reshape(x, q, m);
      if (g) *g = arma::vectorise(fixed.grad_X_cross(Xv, X, Gc.t()));
      return arma::accu(Gc.t() % fixed.K(Xv, X));
    });
    CHECK(check_gradient(cross, arma::vectorise(X2)).max_rel_error < 1e-6);
    FunctionObjective diag([&](const arma::vec& x, arma::vec* g) {
      const arma::mat Xv = arma::reshape(x, q, m);
      if (g) *g = arma::vectorise(fixed.grad_X_diag(Xv, gd));
      return arma::dot(gd, fixed.diag(Xv));
    });
    CHECK(check_gradient(diag, arma::vectorise(X2)).max_rel_error < 1e-6);
    FunctionObjective moved([&](const arma::vec& x, arma::vec* g) {
      const arma::mat Xv = arma::reshape(x, q, m);
      if (g) *g = arma::vectorise(fixed.grad_X(Xv, Gm));
      return arma::accu(Gm % fixed.K(Xv));
    });
    CHECK(check_gradient(moved, arma::vectorise(X2)).max_rel_error < 1e-6);
    // At the knots themselves the fixed-knot covariance is the training covariance.
    CHECK(arma::approx_equal(fixed.K(X), kern.K(X), "reldiff", 1e-12));
    CHECK(arma::approx_equal(fixed.K(X, X), kern.K(X), "reldiff", 1e-12));
    CHECK(arma::approx_equal(fixed.diag(X), arma::vec(kern.K(X).diag()), "reldiff", 1e-12));
  }
}

TEST_CASE("TPSLVM negative log-likelihood gradient in X and log beta matches finite differences",
          "[tpslvm]") {
  Rng rng(32);
  const arma::uword n = 14, d = 5;
  arma::mat Y = sheet(rng, n, d, 0.1);
  Y.each_col() -= arma::mean(Y, 1);
  for (arma::uword q = 1; q <= 4; ++q)
    for (auto c : {TpsConstant::paper, TpsConstant::classical}) {
      INFO("q = " << q << " classical " << (c == TpsConstant::classical));
      GplvmObjective obj(Y, tps_white(0.4, c), q);
      obj.add_prior(std::make_shared<GaussianPrior>(1.0));
      const arma::vec x = obj.pack(0.8 * rng.randn(q, n));
      REQUIRE(x.n_elem == q * n + 1);  // X and log(1/beta)
      check_gradient_matches(obj, x, 1e-6);
    }
}

TEST_CASE("E is unchanged by a rotation and a shift of the latent points", "[tpslvm]") {
  Rng rng(33);
  for (arma::uword q = 1; q <= 4; ++q) {
    const arma::mat X = rng.randn(q, 20);
    const arma::mat Xm = (rotation(rng, q) * X).eval().each_col() + arma::vec(rng.randn(q, 1));
    const arma::mat E = tps_basis(X, X, TpsConstant::paper);
    CHECK(arma::approx_equal(tps_basis(Xm, Xm, TpsConstant::paper), E, "absdiff",
                             1e-10 * arma::abs(E).max()));
  }
}

TEST_CASE("The thin-plate interpolant of eq. 12 reproduces an affine function exactly",
          "[tpslvm]") {
  Rng rng(34);
  for (arma::uword q = 1; q <= 4; ++q) {
    INFO("q = " << q);
    const arma::uword N = 25;
    const arma::mat X = rng.randn(q, N);
    const arma::vec w = rng.randn(q, 1);
    const double b0 = 0.7;
    const arma::vec y = X.t() * w + b0;
    // [E C^T; C 0] [a; b] = [y; 0] with C = [X; 1].
    arma::mat C = arma::join_cols(X, arma::ones(1, N));
    arma::mat A = arma::join_cols(arma::join_rows(tps_basis(X, X, TpsConstant::paper), C.t()),
                                  arma::join_rows(C, arma::zeros(q + 1, q + 1)));
    const arma::vec sol = arma::solve(A, arma::join_cols(y, arma::zeros(q + 1)));
    const arma::vec a = sol.head(N), b = sol.tail(q + 1);
    CHECK(arma::abs(a).max() < 1e-9);
    CHECK(arma::approx_equal(b, arma::join_cols(w, arma::vec{b0}), "absdiff", 1e-9));
    // And at new points s(x) = a^T eta(|x - x_j|) + b^T [x; 1] is the same affine function.
    const arma::mat Xn = 2.0 * rng.randn(q, 7);
    const arma::vec s = tps_basis(X, Xn, TpsConstant::paper).t() * a +
                        arma::join_cols(Xn, arma::ones(1, 7)).t() * b;
    CHECK(arma::approx_equal(s, arma::vec(Xn.t() * w + b0), "absdiff", 1e-8));
  }
}

TEST_CASE("tpslvm refuses latent dimensions above 4 at validation", "[tpslvm]") {
  for (const char* name : {"tpslvm", "bctpslvm"}) {
    const MethodInfo& info = Registry::instance().get(name);
    const ParamSet p = info.complete({});
    CHECK(info.dim_limit(DataShape{100, 10, 3}, p) == 4);
    CHECK(info.dim_limit(DataShape{3, 10, 3}, p) == 2);
  }
  const MethodInfo& info = Registry::instance().get("tpslvm");
  auto method = info.make(info.complete({}));
  Rng rng(35);
  const arma::mat Y = sheet(rng, 20, 8, 0.1);
  FitInput in{Y, nullptr, 0, 5, rng, nullptr};
  CHECK_THROWS_AS(method->fit(in), MethodError);
}

TEST_CASE("tpslvm fits, lowers its objective and maps a training observation to its own point",
          "[tpslvm]") {
  const MethodInfo& info = Registry::instance().get("tpslvm");
  CHECK(info.family == "gplvm");
  for (const char* oos : {"predictive", "expected"}) {
    INFO("out_of_sample " << oos);
    ParamSet given;
    given.set("iterations", std::int64_t(150));
    given.set("out_of_sample", std::string(oos));
    Rng rng(36);
    const arma::mat Y = sheet(rng, 40, 6, 0.05);
    Trace trace;
    const auto method = testing::fit_2d(info, given, Y, rng, trace);
    const arma::mat X = method->embedding();
    REQUIRE(X.n_rows == 2);
    REQUIRE(X.n_cols == 40);
    CHECK(X.is_finite());
    CHECK(trace.rows.size() >= 2);
    CHECK(trace.rows.back().objective < trace.rows.front().objective);
    const arma::uvec pick = {0, 7, 19, 33};
    const arma::mat Xo = method->transform(Y.cols(pick));
    const double spread = arma::stddev(arma::vectorise(X));
    for (arma::uword j = 0; j < pick.n_elem; ++j) {
      INFO("point " << pick(j) << " oos " << Xo.col(j).t() << " train " << X.col(pick(j)).t());
      CHECK(arma::norm(Xo.col(j) - X.col(pick(j))) < 0.01 * spread);
    }
  }
}

TEST_CASE(
    "tpslvm's joint out-of-sample variant (x* joins the knots) returns a training point's "
    "own position",
    "[tpslvm]") {
  const MethodInfo& info = Registry::instance().get("tpslvm");
  ParamSet given;
  given.set("iterations", std::int64_t(150));
  given.set("out_of_sample", std::string("joint"));
  auto method = info.make(info.complete(given));
  Rng rng(37);
  const arma::mat Y = sheet(rng, 30, 5, 0.05);
  FitInput in{Y, nullptr, 0, 2, rng, nullptr};
  method->fit(in);
  const arma::mat X = method->embedding();
  // A duplicate of a training observation is most likely on top of its own latent point; the
  // PPCA start of a batch is in another frame, so the search has to get there.
  const arma::uvec pick = {3, 11, 24};
  const arma::mat Xo = method->transform(Y.cols(pick));
  const double spread = arma::stddev(arma::vectorise(X));
  for (arma::uword j = 0; j < pick.n_elem; ++j) {
    INFO("point " << pick(j) << " oos " << Xo.col(j).t() << " train " << X.col(pick(j)).t());
    CHECK(arma::norm(Xo.col(j) - X.col(pick(j))) < 0.05 * spread);
  }
}

// The sparse thin-plate form (README, "Sparse TPSLVM"): knots at the inducing inputs Z.
namespace {

const GpApproximation kTpsSparse[] = {GpApproximation::dtc, GpApproximation::fitc,
                                      GpApproximation::vfe};

const char* approx_name(GpApproximation a) {
  return gp_approximation_names()[std::size_t(a)].c_str();
}

}  // namespace

TEST_CASE("sparse TPSLVM: the covariance is the thin-plate one with its knots at Z",
          "[tpslvm][sparsegp]") {
  // Reference: the feature map phi_Z(x) = [eta(|x - z_k|)]_k, x, 1 built entry by entry from
  // tps_eta, and K_fu, K_uu, diag its inner products.
  Rng rng(41);
  for (arma::uword q = 1; q <= 4; ++q) {
    INFO("q = " << q);
    const arma::uword n = 9, m = 5;
    const arma::mat X = rng.randn(q, n), Z = rng.randn(q, m);
    auto feat = [&](const arma::vec& x) {
      arma::vec f(m + q + 1);
      for (arma::uword k = 0; k < m; ++k)
        f(k) = tps_eta(arma::accu(arma::square(x - Z.col(k))), q, TpsConstant::paper);
      f.subvec(m, m + q - 1) = x;
      f(m + q) = 1.0;
      return f;
    };
    arma::mat FX(m + q + 1, n), FZ(m + q + 1, m);
    for (arma::uword j = 0; j < n; ++j) FX.col(j) = feat(X.col(j));
    for (arma::uword k = 0; k < m; ++k) FZ.col(k) = feat(Z.col(k));
    const TpsKernel kern;
    CHECK(arma::approx_equal(kern.cross_K(X, Z), FX.t() * FZ, "reldiff", 1e-12));
    CHECK(arma::approx_equal(kern.K(Z, Z), FZ.t() * FZ, "reldiff", 1e-12));
    CHECK(arma::approx_equal(kern.sparse_diag(X, Z), arma::vec(arma::sum(arma::square(FX), 0).t()),
                             "reldiff", 1e-12));
    // After a sparse fit the knots stay at Z: the fixed-knot kernel gives the same covariance.
    TpsKernel fixed;
    fixed.fix_inputs(Z);
    CHECK(arma::approx_equal(fixed.K(X, Z), FX.t() * FZ, "reldiff", 1e-12));
    CHECK(arma::approx_equal(fixed.diag(X), kern.sparse_diag(X, Z), "reldiff", 1e-12));
  }
}

TEST_CASE("sparse TPSLVM gradients match finite differences for X, Z and log beta",
          "[tpslvm][sparsegp]") {
  Rng rng(42);
  const arma::uword n = 20, d = 5, m = 6;
  arma::mat Y = sheet(rng, n, d, 0.1);
  Y.each_col() -= arma::mean(Y, 1);
  for (arma::uword q = 1; q <= 4; ++q)
    for (GpApproximation a : kTpsSparse)
      for (double jitter : {0.0, 1e-2}) {
        INFO("q = " << q << ", approximation " << approx_name(a) << ", jitter " << jitter);
        GplvmObjective obj(Y, tps_white(0.4), q);
        obj.add_prior(std::make_shared<GaussianPrior>(1.0));
        obj.set_sparse(a, 0.8 * rng.randn(q, m), true, jitter);
        const arma::vec x = obj.pack(0.8 * rng.randn(q, n));
        REQUIRE(x.n_elem == q * n + q * m + 1);  // X, Z and log(1/beta)
        REQUIRE(std::isfinite(obj.evaluate(x, nullptr)));
        const double cond = arma::cond(obj.inducing_covariance());
        INFO("cond K_uu " << cond);
        // K_uu has no noise term, and r^3 in 1-D leaves it at condition 3e8-6e11 for these
        // points without jitter: both sides then carry that much rounding (a few parts in 1e5).
        check_gradient_matches(obj, x, cond < 1e8 ? 1e-6 : 1e-4);
      }
}

TEST_CASE("sparse TPSLVM at m = n with Z = X is the exact TPSLVM objective", "[tpslvm][sparsegp]") {
  Rng rng(43);
  const arma::uword n = 12, d = 4;
  arma::mat Y = sheet(rng, n, d, 0.1);
  Y.each_col() -= arma::mean(Y, 1);
  for (arma::uword q = 1; q <= 2; ++q) {
    // Spread evenly (a line, a 4 x 3 grid) and jiggled: K(X, X) has no noise term here, and
    // random points in 1-D leave it at condition 1e11.
    arma::mat X(q, n);
    for (arma::uword j = 0; j < n; ++j) {
      if (q == 1)
        X(0, j) = -2.0 + 4.0 * double(j) / double(n - 1);
      else
        X.col(j) = arma::vec{double(j % 4) - 1.5, double(j / 4) - 1.0};
    }
    X += 0.1 * rng.randn(q, n);
    GplvmObjective exact(Y, tps_white(0.3), q);
    arma::vec ge;
    const double fe = exact.evaluate(exact.pack(X), &ge);
    REQUIRE(std::isfinite(fe));
    for (GpApproximation a : kTpsSparse) {
      INFO("q = " << q << ", approximation " << approx_name(a));
      GplvmObjective sparse(Y, tps_white(0.3), q);
      sparse.set_sparse(a, X, true);
      arma::vec gs;
      const double fs = sparse.evaluate(sparse.pack(X), &gs);
      INFO("cond K_uu " << arma::cond(sparse.inducing_covariance()));
      CHECK(fs == Approx(fe).epsilon(1e-9));
      // L_sparse(X, Z = X) = L_exact(X): the exact X-gradient is the sparse one in X plus the
      // one in Z, and log beta's agree.
      const arma::uword nx = q * n;
      const arma::vec gsum = gs.head(nx) + gs.subvec(nx, 2 * nx - 1);
      const double scale = arma::abs(ge).max();
      CHECK(arma::abs(gsum - ge.head(nx)).max() < 1e-6 * scale);
      CHECK(std::abs(gs(gs.n_elem - 1) - ge(ge.n_elem - 1)) < 1e-6 * scale);
    }
  }
}

TEST_CASE("sparse tpslvm fits, maps training observations near their points, refuses bad settings",
          "[tpslvm][sparsegp]") {
  const MethodInfo& info = Registry::instance().get("tpslvm");
  const ParamSpec* ap = info.param("approximation");
  REQUIRE(ap != nullptr);
  CHECK(ap->choices == gp_approximation_names());
  Rng rng(44);
  const arma::uword n = 60;
  const arma::mat Y = sheet(rng, n, 6, 0.05);
  for (const char* a : {"dtc", "fitc", "vfe"}) {
    INFO("approximation " << a);
    ParamSet given;
    given.set("iterations", std::int64_t(150));
    given.set("approximation", std::string(a));
    given.set("inducing", std::int64_t(15));
    given.set("inducing_init", std::string("kmeans"));
    given.set("inducing_jitter", 1e-6);
    const ParamSet full = info.complete(given);
    REQUIRE(info.check_setting(full).empty());
    auto method = info.make(full);
    Rng r(1);
    Trace trace;
    FitInput in{Y, nullptr, 0, 2, r, &trace};
    method->fit(in);
    const arma::mat X = method->embedding();
    REQUIRE(X.is_finite());
    CHECK(trace.rows.back().objective < trace.rows.front().objective);
    const arma::mat T = method->transform(Y.cols(0, 9));
    const double spread = arma::stddev(arma::vectorise(X));
    CHECK(arma::median(arma::sqrt(arma::sum(arma::square(T - X.cols(0, 9)), 0)).t()) <
          0.3 * spread);
  }
  // The joint out-of-sample map needs every training point as a knot.
  ParamSet joint;
  joint.set("approximation", std::string("vfe"));
  joint.set("out_of_sample", std::string("joint"));
  const std::string why = info.check_setting(info.complete(joint));
  CHECK_THAT(why, Catch::Contains("out_of_sample") && Catch::Contains("fix"));
  // More inducing points than training points.
  ParamSet many;
  many.set("approximation", std::string("dtc"));
  many.set("inducing", std::int64_t(n + 1));
  auto method = info.make(info.complete(many));
  Rng r(1);
  FitInput in{Y, nullptr, 0, 2, r, nullptr};
  CHECK_THROWS_WITH(method->fit(in), Catch::Contains("inducing") && Catch::Contains("fix"));
}
