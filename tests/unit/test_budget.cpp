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

TEST_CASE("budget builders: the family's memory, the sizes as doubles", "[budget][memory][cost]") {
  const ParamSet p;
  const DataShape s{300, 20, 4, 50};
  const TaskSize z(s, p, 3);
  CHECK((z.n == 300.0 && z.d == 20.0 && z.n_test == 50.0 && z.q == 3.0 && z.classes == 4.0));
  const auto nd = [](const TaskSize& t) { return t.n * t.d; };

  const Budget linear = linear_budget(nd);
  CHECK(linear.cost(s, p, 3) == 300.0 * 20.0);
  CHECK(linear.memory(s, p, 3) == memory_linear(s, 3));
  const Budget extra = linear_budget(nd, [](const TaskSize& t) { return 8.0 * t.n * t.n; });
  CHECK(extra.memory(s, p, 3) == memory_linear(s, 3) + 8.0 * 300.0 * 300.0);

  const Budget dense = dense_budget(dense_eigen_cost(50.0, 0.0), 2.5, 1.0);
  CHECK(dense.cost(s, p, 2) == 300.0 * 300.0 * (20.0 + 50.0));
  CHECK(dense.memory(s, p, 2) == memory_dense(s, 2, 2.5, 1.0));
  CHECK(dense_eigen_cost(0.0, 5.0)(z) == 300.0 * 300.0 * (20.0 + 5.0 * 300.0));
  CHECK(thin_svd_cost()(z) == 20.0 * 20.0 * 300.0);

  // Only a cost: the default memory stays, and plus_memory adds to it.
  const Budget costed = make_budget(nd);
  CHECK(!costed.memory);
  CHECK(!costed.iterations);
  const Budget more = plus_memory(costed, [](const TaskSize& t) { return t.n; });
  CHECK(more.memory(s, p, 3) == memory_default(s, 3) + 300.0);
  CHECK(plus_memory(linear, nd).memory(s, p, 3) == memory_linear(s, 3) + 300.0 * 20.0);
}

Budget named_other() {
  Budget b;
  b.method = "test_budget_other";
  return b;
}

MethodInfo test_budget_named() {
  MethodInfo m;
  m.name = "test_budget_named";
  return m;
}

TEST_CASE("DRBENCH_METHOD registers the budget under its method's name", "[budget][registry]") {
  const Budget* b = Budgets::instance().find("pca");
  REQUIRE(b != nullptr);
  CHECK(b->method == "pca");
  CHECK(Registry::instance().find("pca") != nullptr);
  // A budget that names another method is refused, and neither is registered.
  CHECK_THROWS_WITH(detail::MethodRegistrar(&test_budget_named, &named_other),
                    Catch::Contains("a budget of 'test_budget_other' registered as "
                                    "'test_budget_named'"));
  CHECK(Registry::instance().find("test_budget_named") == nullptr);
  CHECK(Budgets::instance().find("test_budget_named") == nullptr);
}

}  // namespace
}  // namespace drbench
