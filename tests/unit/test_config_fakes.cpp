// Small fake methods that exercise every parameter type and capability the config layer checks;
// the real methods are written elsewhere and may not exist yet when these tests run.
#include "framework/core/registry.hpp"

namespace drbench {
namespace {

class FakeMethod final : public Method {
 public:
  void fit(const FitInput& in) override {
    Y_ = in.X.head_rows(std::min<arma::uword>(in.dim, in.X.n_rows));
  }
  arma::mat embedding() const override { return Y_; }
  arma::mat transform(const arma::mat& X) const override { return X.head_rows(Y_.n_rows); }

 private:
  arma::mat Y_;
};

// Supervised, at most C-1 dims, all four parameter types, and a cross-parameter rule.
MethodInfo test_cfg_supervised() {
  MethodInfo m;
  m.name = "test_cfg_supervised";
  m.family = "linear";
  m.summary = "fake supervised method for config tests";
  m.params = {ParamSpec::real("gamma", 1.0, 0.0, std::nullopt, "kernel width", true),
              ParamSpec::integer("k", 5, 1, 100, "neighbours"),
              ParamSpec::choice("kernel", "rbf", {"rbf", "poly", "3"}, "kernel family"),
              ParamSpec::boolean("center", true, "center the kernel matrix")};
  m.supervised = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return arma::uword(s.n_classes > 0 ? s.n_classes - 1 : 0);
  };
  m.cost = [](const DataShape& s, const ParamSet& p, arma::uword dim) {
    return double(s.n) * double(s.d) * double(dim) * double(p.integer("k"));
  };
  m.check_setting = [](const ParamSet& p) -> std::string {
    return p.str("kernel") == "poly" && p.integer("k") > 50 ? "the poly kernel needs k <= 50" : "";
  };
  m.make = [](const ParamSet&) { return std::make_unique<FakeMethod>(); };
  return m;
}

// No out-of-sample map: only the transductive protocol may run it. Default dim limit.
MethodInfo test_cfg_transductive() {
  MethodInfo m;
  m.name = "test_cfg_transductive";
  m.family = "manifold";
  m.summary = "fake method without transform for config tests";
  m.params = {ParamSpec::real("perplexity", 30.0, 1.0, 1000.0, "effective neighbours")};
  m.out_of_sample = false;
  m.make = [](const ParamSet&) { return std::make_unique<FakeMethod>(); };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(test_cfg_supervised)
DRBENCH_REGISTER_METHOD(test_cfg_transductive)
}  // namespace drbench
