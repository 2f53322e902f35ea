// Inducing-point likelihoods of the GP-LVM family (methods/gplvm/sparse.hpp): finite-difference
// gradients for X, the inducing inputs, the kernel and the noise under every approximation; the
// exact likelihood recovered at m = n with Z = X; Titsias's bound above the exact objective; and
// the family's models (priors, back-constraints, dynamics) fitting and mapping new points with it.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/gplvm/init.hpp"
#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/model.hpp"
#include "methods/gplvm/objective.hpp"
#include "methods/gplvm/sparse.hpp"
#include "tests/unit/gp_helpers.hpp"

using namespace drbench;

namespace {

using testing::check_gradient_matches;
using testing::sheet;

const GpApproximation kSparse[] = {GpApproximation::dtc, GpApproximation::fitc,
                                   GpApproximation::vfe};

const char* name_of(GpApproximation a) {
  return gp_approximation_names()[std::size_t(a)].c_str();
}

arma::mat centred_sheet(Rng& rng, arma::uword n, arma::uword d) {
  arma::mat Y = sheet(rng, n, d, 0.1);
  Y.each_col() -= arma::mean(Y, 1);
  return Y;
}

std::unique_ptr<Kernel> jiggled(const std::string& spec, Rng& rng) {
  auto k = make_kernel(spec);
  arma::vec p = k->params();
  for (auto& v : p) v += 0.2 * rng.normal();
  k->set_params(p);
  return k;
}

}  // namespace

TEST_CASE("sparse GP-LVM gradients match finite differences for X, Z, kernel and noise",
          "[sparsegp]") {
  Rng rng(21);
  const arma::uword n = 24, d = 5, q = 2;
  const arma::mat Y = centred_sheet(rng, n, d);
  // rbf/matern/bias/white have their own cross-gradient passes; linear, mlp and the product go
  // through the Kernel defaults.
  for (const char* spec : {"rbf+bias+white", "matern52+bias+white", "linear+bias+white",
                           "mlp+bias+white", "rbf*poly+white"}) {
    // linear + bias has rank q + 1: more inducing points would make Kuu singular.
    const arma::uword m = std::string(spec).rfind("linear", 0) == 0 ? q + 1 : 7;
    for (GpApproximation a : kSparse) {
      for (bool learn_z : {true, false}) {
        INFO("kernel " << spec << ", approximation " << name_of(a) << ", learn Z " << learn_z);
        GplvmObjective obj(Y, jiggled(spec, rng), q);
        obj.add_prior(std::make_shared<GaussianPrior>(0.5));
        obj.set_sparse(a, rng.randn(q, m), learn_z);
        const arma::vec x = obj.pack(rng.randn(q, n));
        REQUIRE(x.n_elem == q * n + (learn_z ? q * m : 0) + obj.kernel().n_params());
        REQUIRE(std::isfinite(obj.evaluate(x, nullptr)));
        check_gradient_matches(obj, x, 1e-6);
      }
    }
  }
}

TEST_CASE("the sparse objective's kept work arrays carry nothing from one evaluation to the next",
          "[sparsegp]") {
  // The objective keeps the likelihood's n x m result and work array across evaluations: an
  // evaluation after others (one of them value only, one of them failing) must equal the same
  // evaluation by a fresh objective, bit for bit.
  Rng rng(37);
  const arma::uword n = 30, d = 3, q = 2, m = 6;
  const arma::mat Y = centred_sheet(rng, n, d);
  const auto kern = jiggled("rbf+bias+white", rng);
  const arma::mat Z = rng.randn(q, m);
  for (GpApproximation a : kSparse) {
    INFO("approximation " << name_of(a));
    auto make = [&] {
      auto obj = std::make_unique<GplvmObjective>(Y, kern->clone(), q);
      obj->set_sparse(a, Z, true);
      return obj;
    };
    auto kept = make();
    const arma::vec x1 = kept->pack(rng.randn(q, n)), x2 = kept->pack(rng.randn(q, n));
    arma::vec bad = x2;
    bad[0] = arma::datum::nan;
    arma::vec g, g_fresh;
    kept->evaluate(x2, &g);
    kept->evaluate(x1, nullptr);
    CHECK_FALSE(std::isfinite(kept->evaluate(bad, &g)));
    const double f = kept->evaluate(x1, &g);
    const double f_fresh = make()->evaluate(x1, &g_fresh);
    REQUIRE(std::isfinite(f_fresh));
    CHECK(f == f_fresh);
    CHECK(arma::approx_equal(g, g_fresh, "absdiff", 0.0));
  }
}

TEST_CASE("the inducing jitter is part of the objective and of its gradient", "[sparsegp]") {
  Rng rng(31);
  const arma::uword n = 24, d = 5, q = 2, m = 6;
  const arma::mat Y = centred_sheet(rng, n, d);
  // linear: K_uu's diagonal moves with Z as well as with the kernel's variances.
  for (const char* spec : {"rbf+bias+white", "linear+bias+white"}) {
    for (GpApproximation a : kSparse) {
      INFO("kernel " << spec << ", approximation " << name_of(a));
      auto kern = jiggled(spec, rng);
      const arma::mat Z = rng.randn(q, m), X = rng.randn(q, n);
      const double rel = 1e-2;  // large, so that a missing chain term would show
      GplvmObjective obj(Y, kern->clone(), q);
      obj.set_sparse(a, Z, true, rel);
      const arma::vec x = obj.pack(X);
      REQUIRE(std::isfinite(obj.evaluate(x, nullptr)));
      check_gradient_matches(obj, x, 1e-6);
      // The value is the likelihood at K_uu + rel mean(diag K_uu) I, formed here by hand.
      arma::mat Kuu = kern->K(Z, Z);
      Kuu.diag() += rel * arma::mean(Kuu.diag());
      const SparseGpResult r = sparse_gp_neg_log_likelihood(a, Kuu, kern->K(X, Z), kern->diag(X),
                                                            kern->noise_variance(), Y.t(), false);
      CHECK(obj.evaluate(x, nullptr) == Approx(r.value).epsilon(1e-12));
    }
  }
}

TEST_CASE("with K_uu numerically singular, the relative jitter keeps the gradient exact",
          "[sparsegp]") {
  // Inducing inputs in near-coincident pairs (as a random subset of 60,000 points in 2-D has):
  // K_uu is singular to working precision, and the gradient's K_uu^-1 terms are only as good as
  // the jittered K_uu's condition (about m / rel) allows. (Where such a K_uu still factorises
  // without jitter, at condition 1e16, they are noise: Fashion-MNIST, results/fmnist70k.md.)
  Rng rng(12);
  const arma::uword n = 300, d = 8, q = 2, half = 10;
  const arma::mat Y = centred_sheet(rng, n, d);
  const arma::mat X = rng.randn(q, n);
  arma::mat Z(q, 2 * half);
  for (arma::uword j = 0; j < half; ++j) {
    Z.col(2 * j) = X.col(j);
    Z.col(2 * j + 1) = X.col(j) + 1e-9 * rng.randn(q, 1);
  }
  // At rel 1e-6 rounding reaches a few parts in 1e5 of the components under dtc and fitc, and
  // about 1e-2 under vfe, whose trace term goes through K_uu^-1 Phi K_uu^-1 (the condition
  // squared); at 1e-4 every approximation is exact to the finite differences' own accuracy.
  const double rels[2] = {1e-6, 1e-4};
  for (GpApproximation a : kSparse) {
    for (int k = 0; k < 2; ++k) {
      INFO("approximation " << name_of(a) << ", jitter " << rels[k]);
      GplvmObjective obj(Y, make_gp_kernel("rbf"), q);
      obj.set_sparse(a, Z, true, rels[k]);
      const arma::vec x = obj.pack(X);
      REQUIRE(std::isfinite(obj.evaluate(x, nullptr)));
      const arma::vec ev = arma::eig_sym(obj.inducing_covariance());
      CHECK(ev.max() / ev.min() < 2.0 * double(Z.n_cols) / rels[k]);
      check_gradient_matches(obj, x, k == 1 ? 1e-5 : a == GpApproximation::vfe ? 5e-2 : 5e-4, 1e-6);
    }
  }
}

TEST_CASE("k-means inducing inputs: Lloyd's fixed point, the blob means, and deterministic",
          "[sparsegp]") {
  Rng rng(2);
  const arma::uword q = 2, per = 50, k = 4;
  // Four well-separated blobs: the centres are their means (the reference), in some order.
  const arma::mat means = {{-10.0, -10.0, 10.0, 10.0}, {-10.0, 10.0, -10.0, 10.0}};
  arma::mat X(q, k * per);
  for (arma::uword c = 0; c < k; ++c)
    X.cols(c * per, (c + 1) * per - 1) = (0.5 * rng.randn(q, per)).eval().each_col() + means.col(c);
  Rng r1(7), r2(7);
  const arma::mat C = kmeans_centres(X, k, r1);
  CHECK(arma::approx_equal(C, kmeans_centres(X, k, r2), "absdiff", 0.0));
  for (arma::uword c = 0; c < k; ++c) {
    const arma::vec blob = arma::mean(X.cols(c * per, (c + 1) * per - 1), 1);
    const arma::rowvec dist = arma::sqrt(arma::sum(arma::square(C.each_col() - blob), 0));
    CHECK(dist.min() < 1e-12);
  }
  // On unstructured data, each centre is the mean of the points nearest to it.
  const arma::mat U = rng.randn(q, 500);
  Rng r3(1);
  const arma::mat Cu = kmeans_centres(U, 12, r3, 1000);
  arma::mat S(q, 12, arma::fill::zeros);
  arma::vec cnt(12, arma::fill::zeros);
  for (arma::uword i = 0; i < U.n_cols; ++i) {
    const arma::uword b = arma::sum(arma::square(Cu.each_col() - U.col(i)), 0).index_min();
    S.col(b) += U.col(i);
    cnt(b) += 1;
  }
  REQUIRE(cnt.min() > 0);
  S.each_row() /= cnt.t();
  CHECK(arma::abs(S - Cu).max() < 1e-12);
}

TEST_CASE("at m = n with Z = X every approximation is the exact likelihood", "[sparsegp]") {
  Rng rng(5);
  const arma::uword n = 15, d = 4, q = 2;
  const arma::mat Y = centred_sheet(rng, n, d);
  const arma::mat X = 1.5 * rng.randn(q, n);  // spread out: K(X, X) well conditioned
  // Kernels of full rank only: at m = n, Kuu = K(X, X) must be invertible (linear + bias is not).
  for (const char* spec : {"rbf+bias+white", "matern32+bias+white", "mlp+bias+white"}) {
    auto kern = jiggled(spec, rng);
    GplvmObjective exact(Y, kern->clone(), q);
    arma::vec ge;
    const double fe = exact.evaluate(exact.pack(X), &ge);
    REQUIRE(std::isfinite(fe));
    for (GpApproximation a : kSparse) {
      INFO("kernel " << spec << ", approximation " << name_of(a));
      GplvmObjective sparse(Y, kern->clone(), q);
      sparse.set_sparse(a, X, true);
      arma::vec gs;
      const double fs = sparse.evaluate(sparse.pack(X), &gs);
      CHECK(fs == Approx(fe).epsilon(1e-9));
      // L_sparse(X, X) = L_exact(X) for every X, so the exact X-gradient is the sparse one in X
      // plus the one in Z, and the kernel gradients agree.
      const arma::uword nx = q * n, nk = kern->n_params();
      const arma::vec gsum = gs.head(nx) + gs.subvec(nx, 2 * nx - 1);
      const double scale = arma::abs(ge).max();
      CHECK(arma::abs(gsum - ge.head(nx)).max() < 1e-6 * scale);
      CHECK(arma::abs(gs.tail(nk) - ge.tail(nk)).max() < 1e-6 * scale);
    }
  }
}

TEST_CASE("the VFE objective bounds the exact one from above, and tightens with m", "[sparsegp]") {
  Rng rng(8);
  const arma::uword n = 40, d = 6, q = 2;
  const arma::mat Y = centred_sheet(rng, n, d);
  const arma::mat X = rng.randn(q, n);
  GplvmObjective exact(Y, make_gp_kernel("rbf"), q);
  const double fe = exact.evaluate(exact.pack(X), nullptr);
  const arma::uvec perm = rng.permutation(n);
  double previous = arma::datum::inf;
  for (arma::uword m : {3u, 10u, 25u, 40u}) {
    GplvmObjective vfe(Y, make_gp_kernel("rbf"), q);
    // Nested subsets: adding inducing points can only tighten Titsias's bound.
    vfe.set_sparse(GpApproximation::vfe, X.cols(perm.head(m)), false);
    const double fv = vfe.evaluate(vfe.pack(X), nullptr);
    INFO("m = " << m);
    CHECK(fv >= fe - 1e-9 * std::abs(fe));
    CHECK(fv <= previous + 1e-9 * std::abs(fe));
    previous = fv;
  }
  CHECK(previous == Approx(fe).epsilon(1e-9));
}

TEST_CASE(
    "a sparse GP-LVM fits, maps its training points near their latent points, and refuses "
    "m > n",
    "[sparsegp]") {
  Rng rng(4);
  const arma::uword n = 60, d = 6, q = 2;
  const arma::mat Y = sheet(rng, n, d, 0.05);
  for (const char* a : {"dtc", "fitc", "vfe"}) {
    INFO("approximation " << a);
    GplvmSettings s;
    s.iterations = 150;
    s.approximation = a;
    s.inducing = 15;
    GplvmModel model(s);
    Rng r(1);
    model.fit(Y, q, r, nullptr);
    CHECK(model.inducing().n_cols == 15);
    CHECK(model.latent().is_finite());
    // The predictive map of a training observation lands near its own latent point.
    const arma::mat T = model.transform(Y.cols(0, 9));
    const arma::mat L = model.latent().cols(0, 9);
    const double spread = arma::stddev(arma::vectorise(model.latent()));
    CHECK(arma::median(arma::sqrt(arma::sum(arma::square(T - L), 0)).t()) < 0.3 * spread);
  }
  // k-means inducing inputs and the relative jitter: the same fit and map.
  for (const char* a : {"dtc", "vfe"}) {
    INFO("approximation " << a << " with k-means inducing inputs and jitter");
    GplvmSettings s;
    s.iterations = 150;
    s.approximation = a;
    s.inducing = 15;
    s.inducing_init = "kmeans";
    s.inducing_jitter = 1e-6;
    GplvmModel model(s);
    Rng r(1);
    model.fit(Y, q, r, nullptr);
    const arma::mat T = model.transform(Y.cols(0, 9));
    const arma::mat L = model.latent().cols(0, 9);
    const double spread = arma::stddev(arma::vectorise(model.latent()));
    CHECK(arma::median(arma::sqrt(arma::sum(arma::square(T - L), 0)).t()) < 0.3 * spread);
  }
  GplvmSettings s;
  s.approximation = "vfe";
  s.inducing = int(n) + 1;
  GplvmModel model(s);
  Rng r(1);
  CHECK_THROWS_WITH(model.fit(Y, q, r, nullptr),
                    Catch::Contains("inducing") && Catch::Contains("fix"));
}

TEST_CASE("every GP-LVM variant that offers the approximation fits and maps with it",
          "[sparsegp]") {
  Rng rng(9);
  const arma::uword n = 40, q = 2;
  const arma::mat Y = sheet(rng, n, 5, 0.1);
  arma::uvec labels(n), seq(n);
  // Three classes (DGPLVM's latent dimension is at most C - 1), each one sequence.
  for (arma::uword i = 0; i < n; ++i) labels(i) = seq(i) = i * 3 / n;
  int variants = 0;
  for (const MethodInfo& m : Registry::instance().all()) {
    const ParamSpec* ap = m.param("approximation");
    if (m.family != "gplvm" || !ap || ap->choices.size() == 1) continue;
    for (const char* a : {"dtc", "fitc", "vfe"}) {
      INFO("method " << m.name << ", approximation " << a);
      ParamSet p;
      p.set("approximation", std::string(a));
      p.set("inducing", std::int64_t(12));
      p.set("iterations", std::int64_t(10));
      p.set("oos_iterations", std::int64_t(5));
      const ParamSet full = m.complete(p);
      if (m.check_setting) REQUIRE(m.check_setting(full).empty());
      Rng r(3);
      FitInput in{Y, m.supervised ? &labels : nullptr, m.supervised ? 3u : 0u, q, r, nullptr};
      in.sequence = &seq;
      in.dataset = "sparse_test";
      auto fitted = m.fit(full, in);
      CHECK(fitted->embedding().is_finite());
      CHECK(fitted->transform(Y.cols(0, 4)).is_finite());
      // The sparse likelihood holds no n x n matrix: O(n m) where the prior has none either.
      const DataShape big{100000, 50, 2};
      ParamSet ex = full;
      ex.set("approximation", std::string("exact"));
      CHECK(memory_of(m, big, full, q) < memory_of(m, big, ex, q));
      if (m.name == "gplvm" || m.name == "gplrf" || m.name == "bcgplvm" || m.name == "dgplvm")
        CHECK(memory_of(m, big, full, q) < 0.01 * 8.0 * 1e10);
    }
    ++variants;
  }
  CHECK(variants >= 9);
}

TEST_CASE("the TPSLVM family offers every approximation", "[sparsegp]") {
  // Its sparse form (knots at the inducing inputs) is tested in test_tpslvm.cpp.
  for (const char* name : {"tpslvm", "bctpslvm", "tpslvm_dm", "bctpslvm_dm"}) {
    INFO("method " << name);
    const MethodInfo& m = Registry::instance().get(name);
    const ParamSpec* ap = m.param("approximation");
    REQUIRE(ap != nullptr);
    CHECK(ap->choices == gp_approximation_names());
  }
}
