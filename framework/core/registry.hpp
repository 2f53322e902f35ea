#pragma once
// One registry of methods (Tapkee style). Each method folder registers a descriptor from its .cpp
// with DRBENCH_REGISTER_METHOD; the methods library is linked whole-archive so those registrations
// survive the linker.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "framework/core/method.hpp"
#include "framework/core/params.hpp"

namespace drbench {

struct MethodEntry;  // framework/config/method_entry.hpp: a method's own config keys

// What the validator and the scheduler know about a task's data before loading it fully.
struct DataShape {
  arma::uword n = 0;  // training points the method will see
  arma::uword d = 0;  // input dimension after preprocessing
  std::size_t n_classes = 0;
  // Points the out-of-sample map and the scoring see (the holdout test points): set by the memory
  // model (framework/sched/memory_check.hpp) for memory estimates, 0 elsewhere and under the
  // transductive protocol (where n includes them).
  arma::uword n_test = 0;
};

struct MethodInfo {
  std::string name;       // config key, e.g. "pca"
  std::string family;     // "baseline", "linear", "kernel", "manifold", "gplvm", "neighbour"
  std::string summary;    // one line for `drbench methods`
  std::string reference;  // paper / equation the implementation follows
  std::vector<ParamSpec> params;
  bool supervised = false;    // needs labels of the training points
  bool out_of_sample = true;  // has transform(); false restricts it to the transductive protocol
  // Supervised methods only: fit() accepts labels where some entries are kUnlabelled (the test
  // points of the transductive protocol). Without it a supervised method is refused there.
  bool partial_labels = false;
  bool iterative = false;  // produces an optimiser trace
  // fit() reads sparse points (FitInput::Xs) when the data are sparse: it needs only a neighbour
  // graph of them (and a PCA where it falls back to one), so the framework hands it the sparse
  // matrix rather than densifying it (transductive protocol, no preprocessing, no quality
  // measures: framework/sched/run_task.hpp, keeps_sparse).
  bool sparse_input = false;
  // transform() of the training points reproduces embedding() (to rounding): true of the linear
  // projections and the Nystroem extensions; false where new points are fitted by an optimiser
  // or mapped through a learnt back-constraint. The contract test holds every method to it.
  bool transform_reproduces_embedding = false;
  // Largest latent dimension allowed for this data and setting (e.g. C-1 for LDA). Default:
  // min(n-1, d).
  std::function<arma::uword(const DataShape&, const ParamSet&)> max_dim;
  // What a task of the method costs, holds and iterates is not part of the contract: the run side
  // reads it from the method's budget (framework/budget/budget.hpp), registered beside it.
  std::function<std::unique_ptr<Method>(const ParamSet&)> make;

  // Cross-parameter checks that a single ParamSpec cannot express; empty string when fine.
  std::function<std::string(const ParamSet&)> check_setting;
  // A remark on a valid setting that is likely unwise for data of this shape (s.n_test > 0: new
  // points will be mapped); `validate`, `plan` and `run` print it once per method label and
  // dataset. Empty string (or no function): nothing to say.
  std::function<std::string(const DataShape&, const ParamSet&)> advise;

  // A method whose descriptor comes from its config entry (the external-process bridge: its
  // command, parameter schema and protocol are written in the config). `config_keys` are the
  // entry keys it reads besides method/label/dims/grid/preprocess; `configure` turns an entry into
  // the descriptor its tasks run under, which the config parser registers under its own name
  // (Registry::add_configured); `contract_entry` is the YAML of an entry the contract test
  // configures it with. Empty for every method described by its code alone.
  std::vector<std::string> config_keys;
  std::function<MethodInfo(const MethodEntry&)> configure;
  std::string contract_entry;
  // Set on a configured descriptor: the name of the method it was configured from.
  std::string configured_from;

  const ParamSpec* param(const std::string& pname) const;
  // A canonical setting text ("a=1,b=rbf", ParamSet::canonical) read back against the declared
  // parameters, typed by their specs; names the method does not declare are left out (the caller
  // completes the rest with complete()). Throws on a value its spec cannot read.
  ParamSet parse_setting(const std::string& canonical) const;
  // A canonical setting text written under settings version `from_version` with every parameter
  // renamed since (ParamSpec::former_name) under its current name, items in name order: the text
  // the current build writes for the same setting. Idempotent on current texts.
  std::string migrate_setting(const std::string& canonical, int from_version) const;
  // p's canonical text with every renamed parameter under its settings-version-1 name: what task
  // seeds hash (framework/plan/task.cpp), so renaming a parameter leaves every seed as it was.
  std::string seed_setting(const ParamSet& p) const;
  // Defaults for every declared parameter, overridden by `given`.
  ParamSet complete(const ParamSet& given) const;
  arma::uword dim_limit(const DataShape& s, const ParamSet& p) const;
  // What every method may assume of its input, checked once here rather than in every fit: X
  // finite, one label per point when (and only when it matters) the method is supervised, and
  // 1 <= dim <= dim_limit. Throws MethodError naming the method, the problem and the fix.
  void check_input(const FitInput& in, const ParamSet& p) const;
  // The checked way to fit: check_input, make, fit.
  std::unique_ptr<Method> fit(const ParamSet& p, const FitInput& in) const;
};

// The four lines that open every descriptor: who the method is and where it comes from. The rest
// (parameters, models, make) the method sets on the returned descriptor.
MethodInfo describe_method(std::string name, std::string family, std::string summary,
                           std::string reference);

class Registry {
 public:
  static Registry& instance();
  void add(MethodInfo info);
  const MethodInfo* find(const std::string& name) const;
  const MethodInfo& get(const std::string& name) const;  // throws Error listing known names
  std::vector<std::string> names() const;                // sorted
  const std::vector<MethodInfo>& all() const { return methods_; }
  // A descriptor made from a config entry (MethodInfo::configure). find() and get() see it;
  // names() and all() list only the methods built in. Registering a name again replaces what
  // find() returns (the earlier descriptor stays alive for whoever holds it).
  const MethodInfo& add_configured(MethodInfo info);

 private:
  std::vector<MethodInfo> methods_;
  std::map<std::string, std::shared_ptr<const MethodInfo>> configured_;
  std::vector<std::shared_ptr<const MethodInfo>> retired_;
  mutable std::mutex mutex_;  // configured_: a test may configure while another thread looks up
};

namespace detail {
struct Registrar {
  explicit Registrar(MethodInfo (*describe)()) { Registry::instance().add(describe()); }
};
}  // namespace detail

}  // namespace drbench

// Usage, in a method's .cpp:  DRBENCH_REGISTER_METHOD(pca_info)  where  MethodInfo pca_info();
#define DRBENCH_REGISTER_METHOD(fn) \
  static const ::drbench::detail::Registrar drbench_registrar_##fn{&fn};
