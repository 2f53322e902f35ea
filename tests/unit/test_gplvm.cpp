#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "framework/config/experiment.hpp"
#include "framework/config/validate.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/optim/grad_check.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/likelihood.hpp"
#include "methods/gplvm/model.hpp"
#include "methods/gplvm/objective.hpp"
#include "tests/unit/gp_helpers.hpp"

using namespace drbench;

namespace {

using testing::check_gradient_matches;
using testing::sheet;

// X = B Y: the simplest back-constraint, enough to check the objective's chain-rule plumbing.
class LinearMapForTest final : public BackConstraint {
 public:
  std::string name() const override { return "linear_test"; }
  void setup(const arma::mat& Y, const arma::mat& X0) override {
    Y_ = Y;
    B_ = X0 * arma::pinv(Y);
  }
  arma::vec params() const override { return arma::vectorise(B_); }
  void set_params(const arma::vec& p) override { B_ = arma::reshape(p, B_.n_rows, B_.n_cols); }
  arma::mat latent() const override { return B_ * Y_; }
  arma::vec chain(const arma::mat& gX) const override { return arma::vectorise(gX * Y_.t()); }
  arma::mat map(const arma::mat& Ynew) const override { return B_ * Ynew; }

 private:
  arma::mat Y_, B_;
};

}  // namespace

TEST_CASE("GP negative log-likelihood matches the direct formula", "[gplvm]") {
  Rng rng(1);
  const arma::mat A = rng.randn(12, 12);
  const arma::mat K = A * A.t() + 0.5 * arma::eye(12, 12);
  const arma::mat Yt = rng.randn(12, 4);
  const double d = 4, n = 12;
  const arma::mat Ki = arma::inv(K);
  const double direct = 0.5 * d * std::log(arma::det(K)) + 0.5 * arma::trace(Ki * Yt * Yt.t()) +
                        0.5 * n * d * std::log(2 * arma::datum::pi);
  const GpNllResult r = gp_neg_log_likelihood(K, Yt, true);
  CHECK(r.value == Approx(direct).epsilon(1e-10));
  CHECK(gp_neg_log_likelihood(K, Yt, false).value == Approx(direct).epsilon(1e-10));
  CHECK(arma::approx_equal(r.dK, 0.5 * (d * Ki - Ki * Yt * Yt.t() * Ki), "reldiff", 1e-8));
  CHECK(r.jitter == 0.0);
}

TEST_CASE("In-place likelihood reads and writes one triangle when asked", "[gplvm]") {
  // K given by its upper triangle only (NaN below): the value and the upper triangle of dL/dK are
  // those of the full-matrix call, and the lower triangle is left alone.
  Rng rng(3);
  const arma::uword n = 80;
  const arma::mat A = rng.randn(n, n);
  const arma::mat K = A * A.t() / double(n) + 0.5 * arma::eye(n, n);
  const arma::mat Yt = rng.randn(n, 5);
  const GpNllResult full = gp_neg_log_likelihood(K, Yt, true);
  arma::mat KG = arma::trimatu(K), KinvY;
  KG.elem(arma::trimatl_ind(arma::size(KG), -1)).fill(arma::datum::nan);
  const GpNllValue v = gp_neg_log_likelihood_in_place(KG, Yt, KinvY, true, {}, false);
  CHECK(v.value == Approx(full.value).epsilon(1e-12));
  CHECK(v.jitter == 0.0);
  const arma::uvec up = arma::trimatu_ind(arma::size(KG));
  CHECK(arma::approx_equal(arma::vec(KG.elem(up)), arma::vec(full.dK.elem(up)), "reldiff", 1e-10));
  const arma::vec lower = KG.elem(arma::trimatl_ind(arma::size(KG), -1));
  CHECK(std::all_of(lower.begin(), lower.end(), [](double x) { return std::isnan(x); }));
}

TEST_CASE("GP-LVM total objective gradient matches finite differences", "[gplvm]") {
  Rng rng(2);
  const arma::uword n = 30, d = 6, q = 2;
  const arma::mat Y = sheet(rng, n, d, 0.1);
  const arma::mat Yc = Y.each_col() - arma::mean(Y, 1);
  for (const char* spec :
       {"rbf+bias+white", "mlp+bias+white", "poly+bias+white", "linear+bias+white"}) {
    INFO("kernel " << spec);
    for (bool learn : {true, false}) {
      auto kern = make_kernel(spec);
      arma::vec p = kern->params();
      for (auto& v : p) v += 0.2 * rng.normal();
      kern->set_params(p);
      GplvmObjective obj(Yc, std::move(kern), q);
      obj.add_prior(std::make_shared<GaussianPrior>(0.7));
      obj.set_learn_kernel(learn);
      const arma::vec x = obj.pack(rng.randn(q, n));
      INFO("learn_kernel=" << learn);
      check_gradient_matches(obj, x, 1e-6);
    }
  }
}

TEST_CASE("Back-constrained objective differentiates through the map", "[gplvm]") {
  Rng rng(12);
  const arma::uword n = 25, d = 5, q = 2;
  arma::mat Y = sheet(rng, n, d, 0.1);
  Y.each_col() -= arma::mean(Y, 1);
  auto bc = std::make_shared<LinearMapForTest>();
  bc->setup(Y, rng.randn(q, n));
  GplvmObjective obj(Y, make_kernel("rbf+bias+white"), q);
  obj.set_back_constraint(bc);
  obj.add_prior(std::make_shared<GaussianPrior>(1.0));
  const arma::vec x = obj.pack(arma::mat());
  REQUIRE(x.n_elem == q * d + 4);
  CHECK(check_gradient(obj, x).max_rel_error < 1e-6);
  // The model maps new points through the constraint.
  GplvmSettings s;
  s.iterations = 50;
  GplvmModel model(s);
  model.set_back_constraint(std::make_shared<LinearMapForTest>());
  model.fit(Y, q, rng, nullptr);
  const arma::mat Xn = model.transform(Y.cols(0, 4));
  CHECK(arma::approx_equal(Xn, model.latent().cols(0, 4), "absdiff", 1e-8));
}

TEST_CASE("Gaussian latent prior gradient matches finite differences", "[gplvm]") {
  Rng rng(3);
  GaussianPrior prior(2.5);
  FunctionObjective f([&](const arma::vec& x, arma::vec* g) {
    arma::mat gX;
    const double v = prior.value_grad(arma::reshape(x, 3, 5), g ? &gX : nullptr);
    if (g) *g = arma::vectorise(gX);
    return v;
  });
  CHECK(check_gradient(f, arma::vectorise(rng.randn(3, 5))).max_rel_error < 1e-6);
  CHECK_THROWS_AS(GaussianPrior(0.0), MethodError);
}

TEST_CASE("Cholesky failure adds increasing jitter and records it", "[gplvm]") {
  Rng rng(4);
  // A linear kernel without noise on 1-D latent points has rank 1: K is singular for n = 10.
  const arma::mat Y = rng.randn(3, 10);
  GplvmObjective obj(Y, make_kernel("linear"), 1);
  Trace trace;
  obj.set_trace(&trace);
  const arma::mat X = rng.randn(1, 10);
  arma::vec g;
  const double f = obj.evaluate(obj.pack(X), &g);
  REQUIRE(std::isfinite(f));
  CHECK(g.is_finite());
  CHECK(obj.jitter_events() == 1);
  CHECK(obj.max_jitter() > 0);
  REQUIRE(trace.notes.size() == 1);
  CHECK(trace.notes[0].first == "jitter");
  // The value is exactly the likelihood of K + jitter I.
  const arma::mat Kj = X.t() * X + obj.max_jitter() * arma::eye(10, 10);
  CHECK(f == Approx(gp_neg_log_likelihood(Kj, Y.t(), false).value).epsilon(1e-9));
  // A second evaluation needing no larger jitter is counted but not noted again.
  obj.evaluate(obj.pack(X), nullptr);
  CHECK(obj.jitter_events() == 2);
  CHECK(trace.notes.size() == 1);
  // A matrix that cannot be rescued gives +inf, never a silent wrong value.
  CholeskyJitter ch;
  arma::mat bad(4, 4, arma::fill::value(-1.0));
  CHECK_FALSE(cholesky_with_jitter(bad, ch));
  bad.fill(arma::datum::nan);
  CHECK_FALSE(cholesky_with_jitter(bad, ch));
}

TEST_CASE("Jitter on the one-triangle path restarts from a rebuilt K", "[gplvm]") {
  // rbf+bias without noise at repeated latent points: K is singular, and the factorisation has
  // overwritten K's upper triangle (the only one built), so the restart must rebuild it. The
  // value and gradient must be those of K + jitter I, computed on the full-matrix path.
  Rng rng(44);
  const arma::uword n = 70, d = 4, q = 2;
  const arma::mat Y = rng.randn(d, n);
  arma::mat X = rng.randn(q, n);
  X.cols(35, 69) = X.cols(0, 34);
  GplvmObjective obj(Y, make_kernel("rbf+bias"), q);
  arma::vec g;
  const double f = obj.evaluate(obj.pack(X), &g);
  REQUIRE(std::isfinite(f));
  REQUIRE(obj.jitter_events() == 1);
  const double j = obj.max_jitter();
  const arma::mat Kj = obj.kernel().K(X) + j * arma::eye(n, n);
  const GpNllResult r = gp_neg_log_likelihood(Kj, Y.t(), true);
  CHECK(f == Approx(r.value).epsilon(1e-12));
  arma::vec gp;
  arma::mat gx;
  obj.kernel().gradients(X, r.dK, gp, gx);
  const arma::vec want = arma::join_cols(arma::vectorise(gx), gp);
  CHECK(arma::abs(g - want).max() <= 1e-8 * arma::abs(want).max());
}

TEST_CASE("Cholesky reads the upper triangle: rounding asymmetry in K does not matter", "[gplvm]") {
  Rng rng(12);
  const arma::mat A = rng.randn(6, 6);
  const arma::mat K = A * A.t() + arma::eye(6, 6);
  arma::mat Kskew = K;
  Kskew(4, 1) *= 1.0 + 1e-9;  // below the diagonal only, as summed kernel terms can leave it
  CholeskyJitter ch;
  REQUIRE(cholesky_with_jitter(Kskew, ch));
  CHECK(ch.jitter == 0.0);
  CHECK(arma::approx_equal(ch.R, arma::chol(K), "absdiff", 1e-12));
  CHECK(arma::approx_equal(arma::trimatu(ch.R), ch.R, "absdiff", 0.0));  // zeros below
  CHECK(arma::approx_equal(ch.R.t() * ch.R, K, "absdiff", 1e-10));
}

TEST_CASE("GP-LVM with a linear kernel recovers the PPCA subspace", "[gplvm]") {
  Rng rng(5);
  const arma::uword n = 50, d = 8, q = 2;
  const arma::mat Y = rng.randn(d, q) * arma::diagmat(arma::vec{3.0, 2.0}) * rng.randn(q, n) +
                      0.3 * rng.randn(d, n);
  const arma::mat Yc = Y.each_col() - arma::mean(Y, 1);
  GplvmSettings s;
  s.kernel = "linear";
  s.iterations = 2000;
  GplvmModel model(s);
  const arma::mat X0 = rng.randn(q, n);  // random start, far from the answer
  Trace trace;
  model.fit(Y, q, rng, &trace, &X0);
  // Reference: the top-q eigenvectors of Yc^T Yc span the ML latent subspace (Lawrence 2005).
  arma::vec ev;
  arma::mat U;
  arma::eig_sym(ev, U, Yc.t() * Yc);
  const arma::mat Uq = U.tail_cols(q);
  arma::mat Q, R;
  arma::qr_econ(Q, R, model.latent().t());
  const arma::vec cosines = arma::svd(Uq.t() * Q);  // cosines of the principal angles
  INFO("cosines " << cosines.t() << " stop " << trace.notes.back().second);
  CHECK(cosines.min() > 0.999);
  // The start was not already in that subspace.
  arma::qr_econ(Q, R, X0.t());
  CHECK(arma::svd(Uq.t() * Q).min() < 0.9);
}

namespace {

// K^-1 and K^-1 Y of an exact GP with kernel k at latent points X (q x n) and data Y (d x n).
struct ExactPosterior {
  arma::mat Kinv, KinvY;
};
ExactPosterior exact_posterior(const Kernel& k, const arma::mat& X, const arma::mat& Y) {
  CholeskyJitter ch;
  REQUIRE(cholesky_with_jitter(k.K(X), ch));
  ExactPosterior p{inverse_from_cholesky(ch.R), {}};
  p.KinvY = p.Kinv * Y.t();
  return p;
}

}  // namespace

TEST_CASE("Predictive density gradient matches finite differences", "[gplvm]") {
  Rng rng(6);
  const arma::uword n = 25, d = 5, q = 2;
  const arma::mat Y = sheet(rng, n, d, 0.1);
  for (const char* spec : {"rbf+bias+white", "mlp+bias+white", "poly+linear+white"}) {
    for (const PointScore score : {PointScore::predictive, PointScore::expected}) {
      INFO("kernel " << spec << ", score "
                     << (score == PointScore::expected ? "expected" : "predictive"));
      auto kern = make_kernel(spec);
      const arma::mat X = rng.randn(q, n);
      const ExactPosterior post = exact_posterior(*kern, X, Y);
      const arma::vec y = rng.randn(d, 1);
      PredictiveObjective pred(*kern, X, post.Kinv, post.KinvY, y, 0.0, score);
      CHECK(check_gradient(pred, rng.randn(q, 1)).max_rel_error < 1e-6);
      // With the Gaussian prior of a MAP fit on x: the extra term is exactly precision/2 |x|^2.
      PredictiveObjective map(*kern, X, post.Kinv, post.KinvY, y, 0.7, score);
      const arma::vec x = rng.randn(q, 1);
      CHECK(check_gradient(map, x).max_rel_error < 1e-6);
      CHECK(map.evaluate(x, nullptr) - pred.evaluate(x, nullptr) == Approx(0.35 * arma::dot(x, x)));
    }
    // The DTC form of the expected score: v(x) = k^T (prior_inv - Kinv) k, no k(x, x) term.
    auto kern = make_kernel(spec);
    const arma::mat X = rng.randn(q, n);
    const ExactPosterior post = exact_posterior(*kern, X, Y);
    const arma::mat prior_inv =
        arma::inv_sympd(kern->K(X) + 0.5 * arma::eye(n, n));  // any symmetric matrix will do
    const arma::vec y = rng.randn(d, 1);
    PredictiveObjective dtc(*kern, X, post.Kinv, post.KinvY, y, 0.3, PointScore::expected,
                            &prior_inv);
    CHECK(check_gradient(dtc, rng.randn(q, 1)).max_rel_error < 1e-6);
  }
}

TEST_CASE("The expected score bounds the predictive density and charges distance", "[gplvm]") {
  // E_f[-log N(y | f, s2 I)] >= -log E_f[N(y | f, s2 I)] = -log N(y | mu, (v + s2) I) (Jensen),
  // with equality where the posterior variance v of f is 0; and far from every training point
  // (k -> 0) the expected score is |y|^2 + d k_f(x, x) over 2 s2, which no latent point that
  // reconstructs y better than 0 can lose to (no bias term here: it would keep k from 0).
  Rng rng(61);
  const arma::uword n = 30, d = 40, q = 2;
  const arma::mat Y = sheet(rng, n, d, 0.05);
  auto kern = make_kernel("rbf+white");
  const arma::mat X = rng.randn(q, n);
  const ExactPosterior post = exact_posterior(*kern, X, Y);
  const arma::mat &Kinv = post.Kinv, &KinvY = post.KinvY;
  const double s2 = kern->noise_variance();
  REQUIRE(s2 > 0);
  for (int t = 0; t < 20; ++t) {
    const arma::vec y = Y.col(arma::uword(t) % n) + 0.3 * rng.randn(d, 1);
    PredictiveObjective pred(*kern, X, Kinv, KinvY, y, 0.0, PointScore::predictive);
    PredictiveObjective expc(*kern, X, Kinv, KinvY, y, 0.0, PointScore::expected);
    const arma::vec x = 2.0 * rng.randn(q, 1);
    CHECK(expc.evaluate(x, nullptr) >= pred.evaluate(x, nullptr) - 1e-9);
    const arma::vec far = x + 1e4;  // every k(X, far) underflows to 0
    const double kff = kern->diag(far)(0) - s2;
    const double far_value =
        0.5 * (arma::dot(y, y) + d * kff) / s2 + 0.5 * d * std::log(2.0 * arma::datum::pi * s2);
    CHECK(expc.evaluate(far, nullptr) == Approx(far_value).epsilon(1e-12));
  }
}

TEST_CASE("Out-of-sample map of a training observation returns its own latent point", "[gplvm]") {
  Rng rng(7);
  const arma::uword n = 40, d = 6, q = 2;
  const arma::mat Y = sheet(rng, n, d, 0.05);
  for (const char* oos : {"predictive", "expected"}) {
    INFO("out_of_sample " << oos);
    GplvmSettings s;
    s.iterations = 300;
    s.oos = oos;
    Rng fit_rng(7);
    GplvmModel model(s);
    model.fit(Y, q, fit_rng, nullptr);
    const arma::uvec pick = {0, 7, 19, 33};
    const arma::mat Xo = model.transform(Y.cols(pick));
    const arma::mat Xt = model.latent().cols(pick);
    const double spread = arma::stddev(arma::vectorise(model.latent()));
    for (arma::uword j = 0; j < pick.n_elem; ++j) {
      INFO("point " << pick(j) << " oos " << Xo.col(j).t() << " train " << Xt.col(j).t());
      CHECK(model.most_likely_start(Y.col(pick(j)) - model.mean()) == pick(j));
      CHECK(arma::norm(Xo.col(j) - Xt.col(j)) < 0.01 * spread);
    }
  }
}

TEST_CASE("The expected map keeps new high-dimensional points among the training points",
          "[gplvm]") {
  // Held-out points of a 2-D sheet in 300-D with more noise than the training points: the exact
  // fit explains its own points closely, so the GP predictive density of a new point is highest
  // where the predictive variance is largest (the USPS failure, results/sparsegp_usps.md): the
  // predictive map must show that here, else this data does not test the expected map, under
  // which every new point must stay within the training latent cloud.
  Rng rng(62);
  const arma::uword n = 80, d = 300, q = 2, m = 20;
  const arma::mat T = rng.randn(2, n + m);
  const arma::mat W = rng.randn(d, 3);
  arma::mat F(3, n + m);
  F.rows(0, 1) = T;
  F.row(2) = arma::sin(2.0 * T.row(0)) % T.row(1);
  arma::mat Y = W * F;
  Y.head_cols(n) += 0.05 * rng.randn(d, n);
  Y.tail_cols(m) += 0.5 * rng.randn(d, m);
  for (const char* oos : {"predictive", "expected"}) {
    GplvmSettings s;
    s.iterations = 200;
    s.oos = oos;
    Rng fit_rng(62);
    GplvmModel model(s);
    model.fit(Y.head_cols(n), q, fit_rng, nullptr);
    const arma::mat Xo = model.transform(Y.tail_cols(m));
    const arma::mat& Xt = model.latent();
    const arma::vec centre = arma::mean(Xt, 1);
    const double radius = arma::max(arma::sqrt(arma::sum(arma::square(Xt.each_col() - centre), 0)));
    const arma::rowvec out = arma::sqrt(arma::sum(arma::square(Xo.each_col() - centre), 0));
    INFO("out_of_sample " << oos << ": training radius " << radius << ", new points up to "
                          << out.max());
    if (std::string(oos) == "expected")
      CHECK(out.max() < 1.5 * radius);
    else
      CHECK(out.max() > 10.0 * radius);
  }
}

TEST_CASE("gplvm method is registered and fits through the Method interface", "[gplvm]") {
  const MethodInfo& info = Registry::instance().get("gplvm");
  CHECK(info.family == "gplvm");
  CHECK(info.iterative);
  ParamSet given;
  given.set("iterations", std::int64_t(30));
  given.set("optimizer", std::string("lbfgs"));
  given.set("kernel", std::string("mlp"));
  Rng rng(8);
  const arma::mat Y = sheet(rng, 30, 5, 0.1);
  Trace trace;
  const auto method = testing::fit_2d(info, given, Y, rng, trace);
  CHECK(method->embedding().n_rows == 2);
  CHECK(method->embedding().n_cols == 30);
  CHECK(trace.optimizer == "lbfgs");
  CHECK(trace.rows.size() >= 2);
  CHECK(trace.rows.back().objective < trace.rows.front().objective);
  const arma::mat Xn = method->transform(Y.cols(0, 2));
  CHECK(Xn.n_rows == 2);
  CHECK(Xn.n_cols == 3);
  CHECK(Xn.is_finite());
}

TEST_CASE("learn_kernel=false keeps the kernel hyperparameters and still moves X", "[gplvm]") {
  Rng rng(11);
  const arma::mat Y = sheet(rng, 30, 5, 0.05);
  const arma::vec start = make_kernel("rbf+bias+white")->params();
  for (bool learn : {false, true}) {
    GplvmSettings s;
    s.iterations = 40;
    s.learn_kernel = learn;
    GplvmModel model(s);
    Rng fit_rng(3);
    model.fit(Y, 2, fit_rng, nullptr);
    const double moved = arma::norm(model.kernel().params() - start);
    INFO("learn_kernel=" << learn << " hyperparameters moved by " << moved);
    if (learn)
      CHECK(moved > 1e-3);
    else
      CHECK(moved == 0.0);
    CHECK(model.objective() < 1e300);
  }
}

TEST_CASE("out_of_sample is refused where a back-constraint maps the new points", "[gplvm]") {
  int refused = 0;
  for (const MethodInfo& m : Registry::instance().all()) {
    if (m.family != "gplvm" || !m.param("out_of_sample")) continue;
    INFO("method " << m.name);
    ParamSet p;
    p.set("out_of_sample", std::string("expected"));
    const ParamSpec* bc = m.param("back_constraint");
    const bool constrained = bc && std::get<std::string>(bc->default_value) != "none";
    const std::string why = m.check_setting ? m.check_setting(m.complete(p)) : std::string();
    if (constrained) {
      CHECK_THAT(why, Catch::Contains("back-constraint") && Catch::Contains("fix"));
      ++refused;
      // The same method without its back-constraint, where it can go without one, searches.
      if (std::find(bc->choices.begin(), bc->choices.end(), "none") != bc->choices.end()) {
        p.set("back_constraint", std::string("none"));
        CHECK(m.check_setting(m.complete(p)).empty());
      }
    } else {
      CHECK(why.empty());
    }
  }
  CHECK(refused >= 6);
}

TEST_CASE("validate notes the predictive map on high-dimensional data, once per label and dataset",
          "[gplvm][config]") {
  const std::string methods = R"(
methods:
  - {method: gplvm, dims: [2], grid: {x_prior: [0.0, 1.0]}}
  - {method: gplvm, label: E, dims: [2], grid: {out_of_sample: [expected]}}
  - {method: bcgplvm, dims: [2]}
)";
  const std::string head = R"(datasets:
  - {name: usps}
  - {name: iris, source: bundled}
splits: {train_ratio: [0.5]}
)";
  const std::vector<DataShape> shapes = {DataShape{1000, 156, 10}, DataShape{75, 4, 3}};
  const auto notes = setting_advice(parse_experiment(head + methods, "cfg/a.yaml"), shapes);
  REQUIRE(notes.size() == 1);
  CHECK_THAT(notes[0], Catch::StartsWith("gplvm on usps: new points of 156-D data") &&
                           Catch::Contains("out_of_sample: expected"));
  // No new points to map under the transductive protocol.
  const std::string transductive = head + methods + "evaluation: {protocol: transductive}\n";
  CHECK(setting_advice(parse_experiment(transductive, "cfg/b.yaml"), shapes).empty());
}
