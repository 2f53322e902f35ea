// Small fake methods that exercise every parameter type and capability the config layer checks;
// the real methods are written elsewhere and may not exist yet when these tests run.
#include "framework/budget/budget.hpp"
#include "unit/fake_method.hpp"

namespace drbench {
namespace {

// Supervised, at most C-1 dims, all four parameter types, and a cross-parameter rule.
MethodInfo test_cfg_supervised() {
  MethodInfo m = testing::fake_method_info("test_cfg_supervised", "linear",
                                           "fake supervised method for config tests");
  m.params = {ParamSpec::real("gamma", 1.0, 0.0, std::nullopt, "kernel width", true),
              ParamSpec::integer("k", 5, 1, 100, "neighbours"),
              ParamSpec::choice("kernel", "rbf", {"rbf", "poly", "3"}, "kernel family"),
              ParamSpec::boolean("center", true, "center the kernel matrix")};
  m.supervised = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return arma::uword(s.n_classes > 0 ? s.n_classes - 1 : 0);
  };
  m.check_setting = [](const ParamSet& p) -> std::string {
    return p.str("kernel") == "poly" && p.integer("k") > 50 ? "the poly kernel needs k <= 50" : "";
  };
  return m;
}

// No out-of-sample map: only the transductive protocol may run it. Default dim limit.
MethodInfo test_cfg_transductive() {
  MethodInfo m = testing::fake_method_info("test_cfg_transductive", "manifold",
                                           "fake method without transform for config tests");
  m.params = {ParamSpec::real("perplexity", 30.0, 1.0, 1000.0, "effective neighbours")};
  m.out_of_sample = false;
  return m;
}

}  // namespace
DRBENCH_METHOD(test_cfg_supervised, make_budget([](const TaskSize& z) {
                 return z.n * z.d * z.q * double(z.p.integer("k"));
               }))
DRBENCH_REGISTER_METHOD(test_cfg_transductive)
}  // namespace drbench
