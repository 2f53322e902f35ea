// Budgets (framework/budget): the default a method without one gets, the registered budgets'
// consistency with the registry, and the fitted constants' table.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"

namespace drbench {
namespace {

// test_cfg_transductive (tests/unit/test_config_fakes.cpp) declares no budget and no
// `iterations` parameter.
const MethodInfo& unbudgeted() {
  const MethodInfo& m = Registry::instance().get("test_cfg_transductive");
  REQUIRE(Budgets::instance().find(m.name) == nullptr);
  return m;
}

TEST_CASE("a method without a budget gets the default: n^2 d, one dense n x n, 1 iteration",
          "[budget][memory][cost]") {
  const MethodInfo& m = unbudgeted();
  const ParamSet p = m.complete({});
  for (const DataShape s : {DataShape{100, 7, 3}, DataShape{70000, 784, 10, 10000}}) {
    const double n = double(s.n), d = double(s.d);
    CHECK(cost_of(m, s, p, 2) == n * n * d);
    CHECK(cost_of(m, s, p, 2) == default_cost(s));
    // The data, one n x n matrix and a few n x d and n x dim arrays, as doubles; n_test is not
    // counted (the default knows nothing of an out-of-sample map).
    CHECK(memory_of(m, s, p, 2) == 8.0 * (n * n + 4.0 * n * d + 4.0 * n * 2.0));
    CHECK(memory_of(m, s, p, 2) == memory_default(s, 2));
  }
  CHECK(iterations_of(m, p) == 1.0);
}

TEST_CASE("the default iteration cap is the declared `iterations` parameter", "[budget][plan]") {
  MethodInfo m;
  m.name = "test_budget_unregistered";
  m.params = {ParamSpec::integer("iterations", 40, 1, 1000, "steps")};
  CHECK(iterations_of(m, m.complete({})) == 40.0);
  CHECK(iterations_of(m, m.complete(m.parse_setting("iterations=7"))) == 7.0);
}

TEST_CASE("every budget belongs to a registered method, once", "[budget][contract]") {
  std::set<std::string> seen;
  for (const Budget& b : Budgets::instance().all()) {
    INFO(b.method);
    // Test doubles (test_...) may budget a descriptor a test builds without registering it.
    if (b.method.rfind("test_", 0) != 0) CHECK(Registry::instance().find(b.method) != nullptr);
    CHECK(seen.insert(b.method).second);
    CHECK((b.cost || b.memory || b.iterations || b.configure));
    for (const FittedConstant& c : b.fitted.rows()) {
      INFO(c.name);
      CHECK(!c.fitted_on.empty());
      CHECK(!c.measured_by.empty());
      CHECK(b.fitted(c.name) == c.value);
    }
  }
  Budget again;
  again.method = Budgets::instance().all().front().method;
  CHECK_THROWS_AS(Budgets::instance().add(again), Error);
}

TEST_CASE("a budget's own estimates replace the default", "[budget][memory]") {
  // lle's sparse path reads its fitted LU fill-in: far below a dense n x n at 60,000 points.
  const MethodInfo& lle = Registry::instance().get("lle");
  const Budget* b = Budgets::instance().find("lle");
  REQUIRE(b != nullptr);
  REQUIRE(!b->fitted.rows().empty());
  const DataShape big{60000, 50, 10, 10000};
  const ParamSet p = lle.complete({});
  CHECK(memory_of(lle, big, p, 2) == b->memory(big, p, 2));
  CHECK(memory_of(lle, big, p, 2) < memory_default(big, 2));
  CHECK(cost_of(lle, big, p, 2) == b->cost(big, p, 2));
}

TEST_CASE("fitted constants are read by name, with where they came from", "[budget]") {
  const FittedConstants t{{"scale", 0.5, "a data set, 1,000 points", "a command (a build)"}};
  CHECK(t("scale") == 0.5);
  CHECK_THROWS_WITH(t("other"), Catch::Contains("no fitted constant 'other'"));
  CHECK_THROWS_WITH((FittedConstants{{"bare", 1.0, "", ""}}),
                    Catch::Contains("'bare' needs a name, what it was fitted on"));
}

}  // namespace
}  // namespace drbench
