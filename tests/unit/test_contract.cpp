// The contract every registered method is held to, today's and every future one (in the spirit of
// scikit-learn's check_estimator): the test walks the registry, so a new method is checked the
// moment it registers. Per method, on small labelled data (3 classes x 12 points in 40-D, d > n
// so the small-sample methods such as DCV run too):
//  - a finite dim x n embedding;
//  - bit-identical results for the same seed;
//  - transform gives dim x m for new points (out-of-sample methods);
//  - transform of the training points equals the embedding where the descriptor claims it;
//  - NaN input refused with an error that says so;
//  - labels required if and only if the method is supervised;
//  - a dimension above the descriptor's limit refused.
// Iterative methods run a few iterations through the vocabulary's `iterations`; a method whose
// defaults do not suit this data gets a line in small_setting(), not a skip.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "framework/config/method_entry.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/support/time_limit.hpp"
#include "nonlinear_helpers.hpp"

using namespace drbench;

namespace {

constexpr arma::uword kDim = 2;

struct Data {
  arma::mat X, Xnew;
  arma::uvec y;
  std::size_t C = 3;
  Data() {
    Rng rng(2024);
    X = testing::blobs(rng, 40, C, 12, 0.5, y);  // overlapping: one connected kNN graph
    arma::uvec ynew;
    Xnew = testing::blobs(rng, 40, C, 2, 0.5, ynew);
  }
};

const Data& data() {
  static const Data d;
  return d;
}

// Small, fast settings: few iterations for every iterative method.
ParamSet small_setting(const MethodInfo& m) {
  ParamSet p;
  if (m.param("iterations")) p.set("iterations", std::int64_t(5));
  if (m.param("oos_iterations")) p.set("oos_iterations", std::int64_t(5));
  if (m.name == "nmf") p.set("negative", std::string("shift"));  // the blobs are centred
  return m.complete(p);
}

FitInput input(const arma::mat& X, const arma::uvec* y, arma::uword dim, Rng& rng) {
  FitInput in{X, y, data().C, dim, rng, nullptr};
  // Each class one time-ordered sequence, for the methods with a dynamics prior (the others
  // ignore it); only where the points are the training data.
  if (X.n_cols == data().y.n_elem) in.sequence = &data().y;
  in.dataset = "contract";
  return in;
}

std::unique_ptr<Method> fit_once(const MethodInfo& m, const ParamSet& p, const arma::mat& X,
                                 arma::uword dim = kDim) {
  arma::arma_rng::set_seed(7);  // as the task runner does for anything on Armadillo's generator
  Rng rng(7);
  return m.fit(p, input(X, m.supervised ? &data().y : nullptr, dim, rng));
}

}  // namespace

TEST_CASE("every registered method keeps the method contract", "[contract]") {
  const Data& d = data();
  const auto& methods = Registry::instance().all();
  REQUIRE(methods.size() >= 20);
  for (const MethodInfo& listed : methods) {
    if (listed.name.rfind("test_", 0) == 0) continue;  // test doubles of the config tests
    INFO("method " << listed.name);
    // A method configured by its config entry (the external bridge) is held to the contract as
    // the entry it names for this test configures it.
    MethodInfo configured;
    if (listed.configure) {
      REQUIRE(!listed.contract_entry.empty());
      const YAML::Node entry = YAML::Load(listed.contract_entry);
      const config::Reader reader("contract_entry");
      configured = listed.configure(MethodEntry{entry, reader, "methods[0]", "contract", "."});
    }
    const MethodInfo& m = listed.configure ? configured : listed;
    const ParamSet p = small_setting(m);
    const DataShape shape{d.X.n_cols, d.X.n_rows, d.C};
    const arma::uword limit = m.dim_limit(shape, p);
    REQUIRE(limit >= kDim);
    const bool ignores_dims = limit == arma::uword(-1);  // the identity baseline

    auto a = fit_once(m, p, d.X);
    const arma::mat E = a->embedding();
    CHECK(E.n_rows == (ignores_dims ? d.X.n_rows : kDim));
    CHECK(E.n_cols == d.X.n_cols);
    CHECK(E.is_finite());

    auto b = fit_once(m, p, d.X);
    CHECK(arma::approx_equal(b->embedding(), E, "absdiff", 0.0));  // bit-identical

    if (m.out_of_sample) {
      const arma::mat T = a->transform(d.Xnew);
      CHECK(T.n_rows == E.n_rows);
      CHECK(T.n_cols == d.Xnew.n_cols);
      CHECK(T.is_finite());
      CHECK(arma::approx_equal(b->transform(d.Xnew), T, "absdiff", 0.0));
      if (m.transform_reproduces_embedding) {
        const double scale = std::max(1.0, arma::abs(E).max());
        CHECK(arma::abs(a->transform(d.X) - E).max() <= 1e-6 * scale);
      }
    }

    arma::mat Xnan = d.X;
    Xnan(3, 5) = arma::datum::nan;
    CHECK_THROWS_WITH(fit_once(m, p, Xnan), Catch::Contains("NaN") && Catch::Contains(m.name));

    Rng rng(7);
    if (m.supervised)
      CHECK_THROWS_WITH(m.fit(p, input(d.X, nullptr, kDim, rng)), Catch::Contains("label"));
    else
      CHECK_NOTHROW(m.fit(p, input(d.X, nullptr, kDim, rng)));

    if (!ignores_dims)
      CHECK_THROWS_WITH(fit_once(m, p, d.X, limit + 1), Catch::Contains("lower 'dims'"));
  }
}

namespace {
int g_reports = 0, g_budget = 0;
void count_report(const IterationState& st) {
  ++g_reports;
  g_budget = std::max(g_budget, st.max_iterations);
}
}  // namespace

// Every iterative method's loop (a shared optimiser's or its own) reports each iteration to
// check_task_deadline, so max_task_seconds, the second stop signal (abandon) and the progress
// line (iteration, objective, ETA from the budget) reach it.
TEST_CASE("every iterative method stops at a passed task deadline and reports its iterations",
          "[contract][sched]") {
  const Data& d = data();
  for (const MethodInfo& m : Registry::instance().all()) {
    if (m.name.rfind("test_", 0) == 0 || m.configure || !m.param("iterations")) continue;
    INFO("method " << m.name);
    const ParamSet p = small_setting(m);
    g_reports = g_budget = 0;
    set_iteration_observer(count_report);
    CHECK_NOTHROW(fit_once(m, p, d.X));
    set_iteration_observer(nullptr);
    CHECK(g_reports > 0);
    CHECK(g_budget > 0);
    set_task_deadline(std::chrono::steady_clock::now() - std::chrono::seconds(1));
    CHECK_THROWS_AS(fit_once(m, p, d.X), TimeLimitExceeded);
    set_task_deadline(std::chrono::steady_clock::time_point::max());
  }
}

TEST_CASE("a retired parameter name is refused with its new name", "[contract][keywords]") {
  const MethodInfo& lpp = Registry::instance().get("lpp");
  ParamSet old;
  old.set("k", std::int64_t(5));
  CHECK_THROWS_WITH(lpp.complete(old), Catch::Contains("now called 'neighbours'"));
  ParamSet t;
  t.set("t", 2.0);
  CHECK_THROWS_WITH(lpp.complete(t), Catch::Contains("'kernel_width'"));
  const MethodInfo& mmpa = Registry::instance().get("mmpa");
  ParamSet sigma;
  sigma.set("sigma", 3.0);  // mmpa's sigma was a ridge: it maps to ridge, not to a width
  CHECK_THROWS_WITH(mmpa.complete(sigma), Catch::Contains("now called 'ridge'"));
  const ParamSpec* disc = Registry::instance().get("isomap").param("disconnected");
  REQUIRE(disc);
  CHECK_THAT(disc->check(std::string("bridge")), Catch::Contains("now called 'connect'"));
}

TEST_CASE("one vocabulary: no method declares a retired name", "[contract][keywords]") {
  for (const MethodInfo& m : Registry::instance().all()) {
    if (m.name.rfind("test_", 0) == 0) continue;  // the config tests' doubles keep their names
    for (const ParamSpec& s : m.params) {
      INFO(m.name << "." << s.name);
      for (const char* old :
           {"k", "neighbors", "max_iter", "weight", "t", "heat", "sigma", "gamma", "inv_width"})
        CHECK(s.name != old);
    }
  }
}
