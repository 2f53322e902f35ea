// YAML -> validated Experiment. The parser walks the tree once, converting and checking every value
// where it is read, so each error can point at the exact line and key path of the offending value.
#include "framework/config/experiment.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "framework/budget/budget.hpp"
#include "framework/config/grid.hpp"
#include "framework/config/method_entry.hpp"
#include "framework/config/yaml_reader.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/data/generators.hpp"
#include "framework/eval/coranking.hpp"
#include "framework/support/memory_size.hpp"

namespace drbench {

namespace {

using config::describe;
using config::did_you_mean;
using config::index_key;
using config::join_key;
using config::join_list;
using config::Reader;

const std::vector<std::string> kTopKeys = {
    "name",     "seed",   "data_path", "threads",    "blas_threads", "max_task_seconds",
    "datasets", "splits", "methods",   "evaluation", "output",       "profiles"};
const std::vector<std::string> kSources = {"file", "csv", "npy",     "mat",       "h5ad",
                                           "mtx",  "idx", "bundled", "generator", "mocap"};
const std::vector<std::string> kSplitKinds = {"train_per_class", "train_ratio", "own", "all"};

// A list, or a single scalar read as a one-element list (dims: 2 == dims: [2]).
std::vector<YAML::Node> items(const Reader& r, const YAML::Node& n, const std::string& key) {
  if (n.IsScalar()) return {n};
  r.expect_list(n, key);
  std::vector<YAML::Node> out;
  for (const auto& item : n) out.push_back(item);
  return out;
}

// Maps are merged key by key; lists and scalars replace; a null removes the key, so a profile can
// drop a setting of the base (a t-test reference its method list lacks). The overlay's nodes are
// shared, not copied, so errors in values a profile supplied point at the profile's lines.
void overlay(YAML::Node base, const YAML::Node& over) {
  for (const auto& kv : over) {
    const std::string k = kv.first.Scalar();
    YAML::Node b = base[k];
    if (kv.second.IsNull())
      base.remove(k);
    else if (b.IsDefined() && b.IsMap() && kv.second.IsMap())
      overlay(b, kv.second);
    else
      base[k] = kv.second;
  }
}

bool profile_sets_path(const YAML::Node& root, const std::string& profile) {
  const YAML::Node profiles = root["profiles"];
  if (!profiles || !profiles.IsMap()) return false;
  const YAML::Node p = profiles[profile];
  if (!p || !p.IsMap()) return false;
  const YAML::Node o = p["output"];
  return o && o.IsMap() && o["path"];
}

class Parser {
 public:
  explicit Parser(Reader r) : r_(std::move(r)) {}

  Experiment parse(const YAML::Node& root, const std::string& profile) {
    Experiment ex;
    ex.file = r_.file();
    ex.profile = profile;
    const std::string stem = std::filesystem::path(r_.file()).stem().string();
    ex.name = root["name"] ? r_.str(root["name"], "name") : stem;
    if (root["seed"]) ex.seed = r_.uinteger(root["seed"], "seed");
    if (root["data_path"]) {
      // Relative to the config's directory, as an external method's command is: a config means
      // the same wherever it is run from.
      ex.data_path = r_.str(root["data_path"], "data_path");
      const std::filesystem::path given(ex.data_path);
      if (given.is_relative() && !ex.file.empty())
        ex.data_path =
            (std::filesystem::path(ex.file).parent_path() / given).lexically_normal().string();
      ex.data_path_line = Reader::line(root["data_path"]);
    }
    if (root["threads"]) {
      ex.threads = static_cast<int>(r_.integer(root["threads"], "threads", 1, 4096));
      ex.blas_threads = ex.threads;  // BLAS follows unless blas_threads says otherwise
    }
    if (root["blas_threads"])
      ex.blas_threads = static_cast<int>(r_.integer(root["blas_threads"], "blas_threads", 1, 4096));
    if (root["max_task_seconds"]) {
      ex.max_task_seconds = r_.real(root["max_task_seconds"], "max_task_seconds");
      if (!(ex.max_task_seconds > 0) || !std::isfinite(ex.max_task_seconds))
        r_.fail(root["max_task_seconds"], "max_task_seconds", "must be a number of seconds > 0",
                "e.g. max_task_seconds: 3600, or remove the key for no limit");
    }

    const YAML::Node datasets = r_.required(root, "", "datasets");
    r_.expect_list(datasets, "datasets");
    for (std::size_t i = 0; i < datasets.size(); ++i) {
      const std::string key = index_key("datasets", i);
      ex.datasets.push_back(dataset(datasets[i], key));
      for (std::size_t j = 0; j < i; ++j)
        if (ex.datasets[j].name == ex.datasets[i].name)
          r_.fail(datasets[i]["name"], join_key(key, "name"),
                  "dataset name '" + ex.datasets[i].name + "' is already used by datasets[" +
                      std::to_string(j) + "]",
                  "give each dataset a distinct name (it labels the results)");
    }

    ex.splits = splits(r_.required(root, "", "splits"), ex.seed);

    ex.evaluation = root["evaluation"] ? evaluation(root["evaluation"]) : EvaluationSpec{};
    if (ex.evaluation.halving_repeats >= ex.splits.repeats)
      r_.fail(root["evaluation"]["selection"]["halving"]["repeats"],
              "evaluation.selection.halving.repeats",
              "is " + std::to_string(ex.evaluation.halving_repeats) + ", but splits.repeats is " +
                  std::to_string(ex.splits.repeats) + ": halving needs repeats left to run",
              "choose fewer repeats for the first stage than splits.repeats");

    every_dataset_has_dims_ = std::all_of(ex.datasets.begin(), ex.datasets.end(),
                                          [](const DatasetSpec& d) { return !d.dims.empty(); });
    const YAML::Node methods = r_.required(root, "", "methods");
    r_.expect_list(methods, "methods");
    for (std::size_t i = 0; i < methods.size(); ++i) {
      const std::string key = index_key("methods", i);
      ex.methods.push_back(method(methods[i], key, ex.evaluation, ex.splits));
      for (std::size_t j = 0; j < i; ++j)
        if (ex.methods[j].label == ex.methods[i].label)
          r_.fail(methods[i], join_key(key, "label"),
                  "label '" + ex.methods[i].label + "' is already used by methods[" +
                      std::to_string(j) + "]",
                  "give one of them a distinct label: <name> (labels are table rows)");
    }

    cross_checks(ex, root);
    ex.output = root["output"] ? output(root["output"]) : OutputSpec{};
    if (ex.output.path.empty()) {
      ex.output.path = "results/" + (stem.empty() ? ex.name : stem) +
                       (profile.empty() ? "" : "-" + profile) + ".h5";
    } else if (!profile.empty() && !profile_sets_path(root, profile)) {
      // Each profile writes its own file, so a --quick run never blocks (or resumes into) the
      // full one: results/x.h5 becomes results/x-quick.h5.
      std::filesystem::path p(ex.output.path);
      const std::string ext = p.has_extension() ? p.extension().string() : "";
      ex.output.path = (p.parent_path() / (p.stem().string() + "-" + profile + ext)).string();
    }
    return ex;
  }

 private:
  // Names and labels are fields of the '|'-separated task keys (framework/plan/task.hpp).
  void no_separator(const YAML::Node& n, const std::string& key, const std::string& s) {
    if (s.find('|') != std::string::npos)
      r_.fail(n, key, "'" + s + "' contains '|', which separates the fields of task keys",
              "use another character, e.g. '/'");
  }

  DatasetSpec dataset(const YAML::Node& n, const std::string& key) {
    r_.expect_map(n, key);
    r_.check_keys(n, key,
                  {"name", "source", "path", "generator", "params", "max_points", "verify_checksum",
                   "preprocess", "sequences", "classes", "variables", "matrix", "labels",
                   "labels_path", "dims"});
    DatasetSpec d;
    d.line = Reader::line(n);
    d.name = r_.str(r_.required(n, key, "name"), join_key(key, "name"));
    no_separator(n["name"], join_key(key, "name"), d.name);
    if (n["source"]) d.source = r_.one_of(n["source"], join_key(key, "source"), kSources);
    // Without a source, the path's extension names the reader (data.npz -> npy).
    if (!n["source"] && n["path"] && n["path"].IsScalar()) {
      const std::string by_ext = source_of_path(n["path"].Scalar());
      if (!by_ext.empty()) d.source = by_ext;
    }

    // file/csv default to <name>.h5/<name>.csv and bundled to the set called <name>; an IDX pair
    // has no such default.
    if (n["path"]) {
      if (d.source == "generator")
        r_.fail(n["path"], join_key(key, "path"), "'path' does not apply to source: generator",
                "remove it; the generator's parameters go under params");
      d.path = r_.str(n["path"], join_key(key, "path"));
    } else if (d.source == "idx") {
      r_.fail(n, join_key(key, "path"), "source: idx needs a path",
              "path: the images file, e.g. train-images-idx3-ubyte.gz (the labels file is found "
              "next to it)");
    }

    if (d.source == "generator") {
      generator(n, key, d);
    } else {
      for (const char* k : {"generator", "params"})
        if (n[k])
          r_.fail(n[k], join_key(key, k), std::string("'") + k + "' only applies to generated data",
                  "set source: generator, or remove it");
    }
    file_vars(n, key, d);
    if (n["max_points"]) d.max_points = r_.uinteger(n["max_points"], join_key(key, "max_points"));
    if (n["verify_checksum"])
      d.verify_checksum = r_.boolean(n["verify_checksum"], join_key(key, "verify_checksum"));
    if (n["preprocess"]) d.preprocess = preprocess(n["preprocess"], join_key(key, "preprocess"));
    if (n["sequences"])
      d.sequences = r_.one_of(n["sequences"], join_key(key, "sequences"), {"classes"});
    if (n["classes"]) {
      r_.expect_list(n["classes"], join_key(key, "classes"));
      for (std::size_t i = 0; i < n["classes"].size(); ++i)
        d.classes.push_back(r_.uinteger(n["classes"][i], join_key(key, "classes")));
    }
    if (n["dims"]) {
      d.dims_line = Reader::line(n["dims"], d.line);
      d.dims = dim_list(n["dims"], join_key(key, "dims"));
    }
    return d;
  }

  // A `dims` value: one integer >= 1 or a list of distinct ones.
  std::vector<std::uint64_t> dim_list(const YAML::Node& n, const std::string& key) {
    std::vector<std::uint64_t> dims;
    const auto vals = items(r_, n, key);
    for (std::size_t i = 0; i < vals.size(); ++i) {
      const std::string ikey = n.IsSequence() ? index_key(key, i) : key;
      const auto d = static_cast<std::uint64_t>(r_.integer(vals[i], ikey, 1));
      if (std::find(dims.begin(), dims.end(), d) != dims.end())
        r_.fail(vals[i], ikey, "dimension " + std::to_string(d) + " appears twice", "list it once");
      dims.push_back(d);
    }
    return dims;
  }

  // variables (npz, mat), matrix and labels (h5ad), labels_path (npy, npz, mat, h5ad, mtx).
  void file_vars(const YAML::Node& n, const std::string& key, DatasetSpec& d) {
    auto only = [&](const char* k, std::initializer_list<const char*> sources, const char* fix) {
      if (!n[k]) return false;
      for (const char* s : sources)
        if (d.source == s) return true;
      r_.fail(n[k], join_key(key, k),
              std::string("'") + k + "' does not apply to source: " + d.source, fix);
      return false;
    };
    if (only("variables", {"npy", "mat"},
             "variables names the arrays of an .npz or .mat file; remove it, or set path: to "
             "such a file")) {
      const std::string vkey = join_key(key, "variables");
      r_.expect_map(n["variables"], vkey);
      r_.check_keys(n["variables"], vkey, {"X", "y"});
      if (n["variables"]["X"]) d.var_x = r_.str(n["variables"]["X"], join_key(vkey, "X"));
      if (n["variables"]["y"]) d.var_y = r_.str(n["variables"]["y"], join_key(vkey, "y"));
    }
    if (only("matrix", {"h5ad"}, "matrix names the points of an .h5ad (X, obsm/X_pca); remove it"))
      d.matrix = r_.str(n["matrix"], join_key(key, "matrix"));
    if (only("labels", {"h5ad"},
             "labels names an .h5ad obs column; elsewhere use labels_path or variables: {y: NAME}"))
      d.labels = r_.str(n["labels"], join_key(key, "labels"));
    if (only("labels_path", {"npy", "mat", "h5ad", "mtx"},
             "labels_path gives the labels of an .npy, .npz, .mat, .h5ad or .mtx; CSV and HDF5 "
             "files carry their own"))
      d.labels_path = r_.str(n["labels_path"], join_key(key, "labels_path"));
    if (d.source == "h5ad" && d.labels.empty() && d.labels_path.empty())
      r_.fail(n, join_key(key, "labels"), "an .h5ad dataset needs its labels named",
              "labels: the obs column of the classes, e.g. labels: cell_type (or labels_path: a "
              "text file of labels)");
    if (d.source == "mtx" && d.labels_path.empty())
      r_.fail(n, join_key(key, "labels_path"), "a MatrixMarket file carries no labels",
              "labels_path: a text file with one label per row of the matrix");
  }

  void generator(const YAML::Node& n, const std::string& key, DatasetSpec& d) {
    const YAML::Node g = r_.required(n, key, "generator");
    d.generator = r_.str(g, join_key(key, "generator"));
    const GeneratorInfo* info = nullptr;
    std::vector<std::string> names;
    for (const auto& gi : generators()) {
      names.push_back(gi.name);
      if (gi.name == d.generator) info = &gi;
    }
    if (!info)
      r_.fail(g, join_key(key, "generator"), "unknown generator '" + d.generator + "'",
              did_you_mean(d.generator, names) + "one of " + join_list(names));
    const YAML::Node params = n["params"];
    if (!params) return;
    const std::string pkey = join_key(key, "params");
    if (params.IsNull()) return;
    r_.expect_map(params, pkey);
    std::vector<std::string> pnames;
    for (const auto& p : info->params) pnames.push_back(p.name);
    r_.check_keys(params, pkey, pnames);
    for (const auto& kv : params) {
      const std::string name = kv.first.Scalar();
      const ParamSpec* spec = nullptr;
      for (const auto& p : info->params)
        if (p.name == name) spec = &p;
      d.generator_params[name] = config::checked_value(r_, *spec, kv.second, join_key(pkey, name));
    }
  }

  std::vector<PreprocStep> preprocess(const YAML::Node& n, const std::string& key) {
    // An explicit empty list is meaningful: "no preprocessing" (e.g. a method-level override).
    r_.expect_list(n, key, /*allow_empty=*/true);
    std::vector<PreprocStep> steps;
    for (std::size_t i = 0; i < n.size(); ++i) steps.push_back(step(n[i], index_key(key, i)));
    return steps;
  }

  PreprocStep step(const YAML::Node& n, const std::string& key) {
    const std::vector<std::string> kinds = {"center", "standardize", "minmax", "pca", "unit_norm"};
    const std::string forms =
        "center, standardize, minmax, unit_norm, {minmax: {per_feature: false}}, "
        "{pca: {variance: 0.99}} or {pca: {components: 50}}";
    PreprocStep s;
    std::string kind;
    YAML::Node args;
    if (n.IsScalar()) {
      kind = r_.one_of(n, key, kinds);
    } else if (n.IsMap() && n.size() == 1) {
      const auto kv = *n.begin();
      kind = r_.one_of(kv.first, key, kinds);
      args = kv.second;
    } else {
      r_.fail(n, key, "expected one preprocessing step, got " + config::describe(n), forms);
    }
    const std::string akey = join_key(key, kind);
    if (args && !args.IsNull() && !(args.IsMap() && args.size() == 0) && kind != "minmax" &&
        kind != "pca")
      r_.fail(args, akey, "'" + kind + "' takes no options", "write just '- " + kind + "'");
    if (kind == "center") {
      s.kind = PreprocStep::Kind::Center;
    } else if (kind == "standardize") {
      s.kind = PreprocStep::Kind::Standardize;
    } else if (kind == "unit_norm") {
      s.kind = PreprocStep::Kind::UnitNorm;
    } else if (kind == "minmax") {
      s.kind = PreprocStep::Kind::MinMax;
      if (args && !args.IsNull()) {
        r_.expect_map(args, akey);
        r_.check_keys(args, akey, {"per_feature"});
        if (args["per_feature"])
          s.per_feature = r_.boolean(args["per_feature"], join_key(akey, "per_feature"));
      }
    } else {
      s.kind = PreprocStep::Kind::Pca;
      if (!args || args.IsNull() || !args.IsMap())
        r_.fail(args ? args : n, akey, "pca needs either variance or components",
                "{pca: {variance: 0.99}} or {pca: {components: 50}}");
      r_.check_keys(args, akey, {"variance", "components"});
      if (args["variance"] && args["components"])
        r_.fail(args["components"], akey, "give either variance or components, not both");
      if (args["variance"]) {
        s.variance = r_.real(args["variance"], join_key(akey, "variance"));
        if (!(s.variance > 0.0 && s.variance <= 1.0))
          r_.fail(args["variance"], join_key(akey, "variance"),
                  "variance fraction " + to_string(ParamValue(s.variance)) + " is out of range",
                  "a number in (0, 1], e.g. 0.99");
      } else if (args["components"]) {
        s.components = static_cast<std::uint64_t>(
            r_.integer(args["components"], join_key(akey, "components"), 1));
      } else {
        r_.fail(args, akey, "pca needs either variance or components",
                "{pca: {variance: 0.99}} or {pca: {components: 50}}");
      }
    }
    return s;
  }

  SplitsSpec splits(const YAML::Node& n, std::uint64_t default_seed) {
    const std::string key = "splits";
    r_.expect_map(n, key);
    r_.check_keys(
        n, key,
        {"train_per_class", "train_ratio", "own", "all", "repeats", "seed", "test_per_class"});
    SplitsSpec s;
    s.line = Reader::line(n);
    std::string kind;
    for (const auto& k : kSplitKinds) {
      if (!n[k]) continue;
      if (!kind.empty())
        r_.fail(n[k], join_key(key, k), "'" + kind + "' is already given",
                "exactly one of train_per_class, train_ratio, own, all");
      kind = k;
    }
    if (kind.empty())
      r_.fail(n, key, "no partition given",
              "exactly one of train_per_class: [10, 20], train_ratio: [0.5], own: true, all: true");
    const std::string kkey = join_key(key, kind);
    if (kind == "train_per_class" || kind == "train_ratio") {
      s.kind = kind == "train_ratio" ? SplitsSpec::Kind::Ratio : SplitsSpec::Kind::PerClass;
      const auto vals = items(r_, n[kind], kkey);
      for (std::size_t i = 0; i < vals.size(); ++i) {
        const std::string ikey = n[kind].IsSequence() ? index_key(kkey, i) : kkey;
        double v;
        if (s.kind == SplitsSpec::Kind::PerClass) {
          v = static_cast<double>(r_.integer(vals[i], ikey, 1));
        } else {
          v = r_.real(vals[i], ikey);
          if (!(v > 0.0 && v < 1.0))
            r_.fail(vals[i], ikey, "training ratio " + vals[i].Scalar() + " is out of range",
                    "a fraction strictly between 0 and 1, e.g. 0.3");
        }
        if (std::find(s.values.begin(), s.values.end(), v) != s.values.end())
          r_.fail(vals[i], ikey, "value " + vals[i].Scalar() + " appears twice", "list it once");
        s.values.push_back(v);
      }
    } else {
      s.kind = kind == "own" ? SplitsSpec::Kind::Own : SplitsSpec::Kind::All;
      if (!r_.boolean(n[kind], kkey))
        r_.fail(n[kind], kkey, "'" + kind + ": false' selects no partition",
                "write '" + kind + ": true' or use train_per_class / train_ratio");
      if (n["test_per_class"])
        r_.fail(n["test_per_class"], join_key(key, "test_per_class"),
                "test_per_class does not apply to '" + kind + "'",
                "remove it, or use train_per_class / train_ratio");
      s.values = {0.0};
    }
    if (n["repeats"])
      s.repeats = static_cast<int>(r_.integer(n["repeats"], join_key(key, "repeats"), 1, 1000000));
    s.seed = n["seed"] ? r_.uinteger(n["seed"], join_key(key, "seed")) : default_seed;
    if (n["test_per_class"])
      s.test_per_class = r_.uinteger(n["test_per_class"], join_key(key, "test_per_class"));
    return s;
  }

  // The entry's protocol key, else evaluation.protocol; auto: holdout where the method maps new
  // points and the split leaves test points to map, transductive where either is missing.
  MethodSpec::Protocol method_protocol(const YAML::Node& n, const std::string& key,
                                       const MethodInfo& info, const EvaluationSpec& eval,
                                       const SplitsSpec& splits) {
    auto p = eval.protocol;
    if (n["protocol"]) {
      const std::string v =
          r_.one_of(n["protocol"], join_key(key, "protocol"), {"holdout", "transductive", "auto"});
      p = v == "holdout"        ? EvaluationSpec::Protocol::Holdout
          : v == "transductive" ? EvaluationSpec::Protocol::Transductive
                                : EvaluationSpec::Protocol::Auto;
    }
    if (p == EvaluationSpec::Protocol::Auto)
      return info.out_of_sample && splits.kind != SplitsSpec::Kind::All
                 ? MethodSpec::Protocol::Holdout
                 : MethodSpec::Protocol::Transductive;
    return p == EvaluationSpec::Protocol::Holdout ? MethodSpec::Protocol::Holdout
                                                  : MethodSpec::Protocol::Transductive;
  }

  MethodSpec method(const YAML::Node& n, const std::string& key, const EvaluationSpec& eval,
                    const SplitsSpec& splits) {
    r_.expect_map(n, key);
    MethodSpec m;
    m.line = Reader::line(n);
    const YAML::Node mn = r_.required(n, key, "method");
    m.method = r_.str(mn, join_key(key, "method"));
    const MethodInfo* info = Registry::instance().find(m.method);
    if (!info)
      r_.fail(mn, join_key(key, "method"), "unknown method '" + m.method + "'",
              did_you_mean(m.method, Registry::instance().names()) +
                  "registered methods: " + join_list(Registry::instance().names()));
    std::vector<std::string> allowed{"method", "label", "dims", "grid", "preprocess", "protocol"};
    allowed.insert(allowed.end(), info->config_keys.begin(), info->config_keys.end());
    r_.check_keys(n, key, allowed);
    if (info->configure) {
      // Its descriptor (parameters, protocol, cost) is written in the entry: register the one
      // this entry makes, and check the rest of the entry against it like a built-in method.
      std::string label = n["label"] ? r_.str(n["label"], join_key(key, "label")) : m.method;
      if (n["label"]) no_separator(n["label"], join_key(key, "label"), label);
      std::string dir = std::filesystem::path(r_.file()).parent_path().string();
      const MethodEntry entry{n, r_, key, label, dir.empty() ? "." : dir};
      MethodInfo made = info->configure(entry);
      made.configured_from = info->name;
      info = &Registry::instance().add_configured(std::move(made));
      configure_budget(info->configured_from, info->name, entry);
      m.method = info->name;
    }
    m.protocol = method_protocol(n, key, *info, eval, splits);
    const YAML::Node pn = n["protocol"] ? n["protocol"] : mn;
    const std::string pkey = join_key(key, n["protocol"] ? "protocol" : "method");
    // Where the entry names no protocol the fix is one key on it; where it does, another value.
    const std::string on_entry = n["protocol"] ? "" : " on this entry";
    if (!info->out_of_sample && !m.transductive())
      r_.fail(
          pn, pkey,
          "method '" + m.method +
              "' has no out-of-sample map, so it cannot run under the holdout protocol",
          "set protocol: transductive (or protocol: auto)" + on_entry + ", or drop this method");
    // Leave-one-out over every point scores each point with a model that saw its label, and the
    // transductive protocol hides the test labels, which a fully supervised fit cannot do.
    if (info->supervised && splits.kind == SplitsSpec::Kind::All)
      r_.fail(mn, join_key(key, "method"),
              "method '" + m.method +
                  "' is supervised, and splits: {all: true} scores every point leave-one-out, so "
                  "the method would have seen the label of each point it is scored on",
              "split with train_per_class / train_ratio, or drop this method");
    if (info->supervised && !info->partial_labels && m.transductive())
      r_.fail(pn, pkey,
              "method '" + m.method +
                  "' is supervised and cannot fit partially labelled data, so under the "
                  "transductive protocol (train and test points embedded together, test labels "
                  "hidden) it cannot run",
              "set protocol: holdout (or protocol: auto)" + on_entry + ", or drop this method");
    // Without a protocol key the config-level protocol is at fault: cross_checks says so there.
    if (!m.transductive() && splits.kind == SplitsSpec::Kind::All && n["protocol"])
      r_.fail(pn, pkey,
              "'all: true' leaves no held-out test points for the holdout protocol of method '" +
                  m.method + "'",
              "set protocol: transductive (or protocol: auto)" + on_entry +
                  ", or split with train_ratio / train_per_class");
    m.label = n["label"] ? r_.str(n["label"], join_key(key, "label")) : m.method;
    if (n["label"]) no_separator(n["label"], join_key(key, "label"), m.label);

    m.dims_line = m.line;
    m.ignores_dims = config::ignores_dims(*info);
    if (n["dims"]) {
      m.dims_line = Reader::line(n["dims"], m.line);
      m.dims = dim_list(n["dims"], join_key(key, "dims"));
    } else if (m.ignores_dims) {
      m.dims = {0};
    } else if (every_dataset_has_dims_) {
      // Every task takes its dataset's dims; the method has none of its own.
    } else {
      r_.fail(n, join_key(key, "dims"), "required key is missing",
              "dims: [2] (the latent dimensions to embed into), or give every dataset its dims");
    }

    if (n["grid"]) {
      const std::string gkey = join_key(key, "grid");
      const YAML::Node g = n["grid"];
      if (!g.IsNull()) {
        r_.expect_map(g, gkey);
        std::vector<std::string> pnames;
        for (const auto& p : info->params) pnames.push_back(p.name);
        if (pnames.empty() && g.size() > 0)
          r_.fail(g, gkey, "method '" + m.method + "' has no parameters", "remove the grid");
        for (const auto& kv : g)  // a name earlier versions used: say what it is called now
          if (kv.first.IsScalar() && !info->param(kv.first.Scalar()))
            if (auto fix = keywords::retired_name_fix(*info, kv.first.Scalar()); !fix.empty())
              r_.fail(kv.first, join_key(gkey, kv.first.Scalar()), "renamed parameter", fix);
        r_.check_keys(g, gkey, pnames);
        for (const auto& kv : g)
          m.grid.push_back(config::grid_axis(r_, *info->param(kv.first.Scalar()), kv.second,
                                             join_key(gkey, kv.first.Scalar())));
      }
      grid_fits_memory(m, *info, g, gkey);
      // Cross-parameter rules (check_setting) apply to every combination the grid produces.
      if (info->check_setting)
        for (const auto& setting : expand_grid(m))
          if (auto problem = info->check_setting(setting); !problem.empty())
            r_.fail(g, gkey, "setting {" + setting.canonical() + "}: " + problem,
                    "restrict the grid so every combination is valid");
    } else if (info->check_setting) {
      if (auto problem = info->check_setting(info->complete({})); !problem.empty())
        r_.fail(n, join_key(key, "grid"), "the default setting is invalid: " + problem);
    }
    if (n["preprocess"]) m.preprocess = preprocess(n["preprocess"], join_key(key, "preprocess"));
    return m;
  }

  // Every check of a grid lists its settings, so a product of long axes (four of 1000 values:
  // 1e12 settings) must be refused before that list is made, not end in std::bad_alloc. The
  // task list's own size against the per-rank limit is judged later (check_memory_before_data).
  void grid_fits_memory(const MethodSpec& m, const MethodInfo& info, const YAML::Node& g,
                        const std::string& gkey) {
    double settings = 1;
    for (const auto& a : m.grid) settings *= double(a.values.size());
    // A setting is a ParamSet: a map node (name, value) per declared parameter.
    const double bytes = settings * (64.0 + 128.0 * double(info.params.size()));
    double have = 0;
    try {
      have = node_memory_bytes();
    } catch (const std::exception&) {
      return;  // unknown: the memory check of validate/run/plan reports it
    }
    if (bytes <= have) return;
    std::string axes;
    for (const auto& a : m.grid)
      axes += (axes.empty() ? "" : " x ") + std::to_string(a.values.size()) + " " + a.param;
    char count[32];
    std::snprintf(count, sizeof count, "%.4g", settings);
    r_.fail(g, gkey,
            "the grid has " + std::string(count) + " settings (" + axes +
                "); listing them needs about " + format_bytes(bytes) + ", more than the " +
                format_bytes(have) + " this machine has",
            "fewer values per axis: a coarse grid first, then a finer one around its best "
            "setting");
  }

  // min_mean_error | validation, or a map {rule, folds | fraction, halving: {repeats, keep}}
  // (rule defaults to validation; folds and fraction belong to validation).
  void selection(const YAML::Node& n, const std::string& key, EvaluationSpec& e) {
    const std::vector<std::string> rules{"validation", "min_mean_error"};
    auto set_rule = [&](const YAML::Node& v, const std::string& k) {
      e.selection = r_.one_of(v, k, rules) == "validation"
                        ? EvaluationSpec::Selection::Validation
                        : EvaluationSpec::Selection::MinMeanError;
    };
    if (!n.IsMap()) {
      set_rule(n, key);
      return;
    }
    r_.check_keys(n, key, {"rule", "folds", "fraction", "halving"});
    if (n["rule"]) set_rule(n["rule"], join_key(key, "rule"));
    for (const char* opt : {"folds", "fraction"})
      if (n[opt] && !e.validated())
        r_.fail(n[opt], join_key(key, opt),
                "inner splits belong to rule: validation, but the rule is min_mean_error",
                "remove it, or set rule: validation");
    if (n["folds"] && n["fraction"])
      r_.fail(n["fraction"], join_key(key, "fraction"),
              "give folds (k-fold inner validation) or fraction (one inner split), not both",
              "remove one of them");
    if (n["folds"])
      e.validation_folds = static_cast<int>(r_.integer(n["folds"], join_key(key, "folds"), 2, 100));
    if (n["fraction"]) {
      e.validation_fraction = r_.real(n["fraction"], join_key(key, "fraction"));
      if (!(e.validation_fraction > 0 && e.validation_fraction < 1))
        r_.fail(n["fraction"], join_key(key, "fraction"),
                "must lie in (0, 1): the share of each class's training points held out",
                "e.g. fraction: 0.25");
    }
    if (!n["halving"]) return;
    const std::string hkey = join_key(key, "halving");
    const YAML::Node h = n["halving"];
    r_.expect_map(h, hkey);
    r_.check_keys(h, hkey, {"repeats", "keep"});
    e.halving_repeats = static_cast<int>(
        r_.integer(r_.required(h, hkey, "repeats"), join_key(hkey, "repeats"), 1, 1000000));
    e.halving_keep = static_cast<int>(
        r_.integer(r_.required(h, hkey, "keep"), join_key(hkey, "keep"), 1, 1000000));
  }

  // quality_k: K, [K, ...] or {logspace: [lo_exp, hi_exp, n]} (rounded to whole K, repeats
  // dropped), ascending.
  std::vector<int> quality_ks(const YAML::Node& n, const std::string& key) {
    std::vector<int> ks;
    if (n.IsMap()) {
      r_.check_keys(n, key, {"logspace"});
      const std::string gkey = join_key(key, "logspace");
      const YAML::Node a = r_.required(n, key, "logspace");
      if (!a.IsSequence() || a.size() != 3)
        r_.fail(a, gkey, "expected [lo_exp, hi_exp, n]",
                "e.g. {logspace: [0, 2, 9]} for K = 1..100");
      const double lo = r_.real(a[0], index_key(gkey, 0)), hi = r_.real(a[1], index_key(gkey, 1));
      const std::int64_t count = r_.integer(a[2], index_key(gkey, 2), 1, 1000);
      if (lo < 0 || hi < lo || hi > 8)
        r_.fail(a, gkey, "exponents must satisfy 0 <= lo_exp <= hi_exp <= 8",
                "K runs from 10^lo_exp to 10^hi_exp, e.g. [0, 2, 9]");
      for (double v : config::logspace(lo, hi, count)) {
        const int k = static_cast<int>(std::lround(v));
        if (std::find(ks.begin(), ks.end(), k) == ks.end()) ks.push_back(k);
      }
    } else {
      const auto vals = items(r_, n, key);
      for (std::size_t i = 0; i < vals.size(); ++i) {
        const std::string ikey = n.IsSequence() ? index_key(key, i) : key;
        const int k = static_cast<int>(r_.integer(vals[i], ikey, 1, 100000000));
        if (std::find(ks.begin(), ks.end(), k) != ks.end())
          r_.fail(vals[i], ikey, "K = " + std::to_string(k) + " appears twice", "list it once");
        ks.push_back(k);
      }
      if (ks.empty()) r_.fail(n, key, "needs at least one K", "e.g. quality_k: [5, 10, 50]");
    }
    std::sort(ks.begin(), ks.end());
    return ks;
  }

  EvaluationSpec evaluation(const YAML::Node& n) {
    const std::string key = "evaluation";
    r_.expect_map(n, key);
    r_.check_keys(n, key,
                  {"knn", "knn_metric", "protocol", "selection", "quality", "quality_k",
                   "quality_sample", "ttest_against"});
    EvaluationSpec e;
    e.line = e.knn_line = e.quality_k_line = Reader::line(n);
    if (n["knn"]) {
      e.knn_line = Reader::line(n["knn"], e.line);
      e.knn.clear();
      const std::string kkey = join_key(key, "knn");
      const auto vals = items(r_, n["knn"], kkey);
      for (std::size_t i = 0; i < vals.size(); ++i) {
        const std::string ikey = n["knn"].IsSequence() ? index_key(kkey, i) : kkey;
        const int k = static_cast<int>(r_.integer(vals[i], ikey, 1, 1000000));
        if (std::find(e.knn.begin(), e.knn.end(), k) != e.knn.end())
          r_.fail(vals[i], ikey, "k = " + std::to_string(k) + " appears twice", "list it once");
        e.knn.push_back(k);
      }
    }
    if (n["knn_metric"])
      e.knn_metric =
          r_.one_of(n["knn_metric"], join_key(key, "knn_metric"), {"euclidean", "cosine"});
    if (n["protocol"]) {
      const std::string p =
          r_.one_of(n["protocol"], join_key(key, "protocol"), {"holdout", "transductive", "auto"});
      e.protocol = p == "holdout"        ? EvaluationSpec::Protocol::Holdout
                   : p == "transductive" ? EvaluationSpec::Protocol::Transductive
                                         : EvaluationSpec::Protocol::Auto;
    }
    if (n["selection"]) selection(n["selection"], join_key(key, "selection"), e);
    if (n["quality"]) {
      const std::string qkey = join_key(key, "quality");
      std::vector<std::string> names;
      for (const auto& m : quality_measures()) names.push_back(m.name);
      r_.expect_list(n["quality"], qkey, /*allow_empty=*/true);
      for (std::size_t i = 0; i < n["quality"].size(); ++i) {
        const std::string q = r_.one_of(n["quality"][i], index_key(qkey, i), names);
        if (std::find(e.quality.begin(), e.quality.end(), q) != e.quality.end())
          r_.fail(n["quality"][i], index_key(qkey, i), "'" + q + "' appears twice", "list it once");
        e.quality.push_back(q);
      }
    }
    if (n["quality_k"]) {
      e.quality_k_line = Reader::line(n["quality_k"], e.line);
      e.quality_k = quality_ks(n["quality_k"], join_key(key, "quality_k"));
    }
    if (n["quality_sample"])
      e.quality_sample = static_cast<int>(
          r_.integer(n["quality_sample"], join_key(key, "quality_sample"), 10, 100000000));
    if (n["ttest_against"])
      e.ttest_reference = r_.str(n["ttest_against"], join_key(key, "ttest_against"));
    return e;
  }

  OutputSpec output(const YAML::Node& n) {
    const std::string key = "output";
    r_.expect_map(n, key);
    r_.check_keys(n, key, {"path", "keep_embeddings", "keep_traces"});
    OutputSpec o;
    if (n["path"]) o.path = r_.str(n["path"], join_key(key, "path"));
    if (n["keep_embeddings"])
      o.keep_embeddings = r_.boolean(n["keep_embeddings"], join_key(key, "keep_embeddings"));
    if (n["keep_traces"])
      o.keep_traces = r_.boolean(n["keep_traces"], join_key(key, "keep_traces"));
    return o;
  }

  void cross_checks(const Experiment& ex, const YAML::Node& root) {
    for (const auto& m : ex.methods)
      if (ex.splits.kind == SplitsSpec::Kind::All && !m.transductive())
        r_.fail(root["splits"]["all"], "splits.all",
                "'all: true' leaves no held-out test points for the holdout protocol",
                "set evaluation.protocol: transductive (or auto), or split with train_ratio / "
                "train_per_class");
    if (!ex.evaluation.ttest_reference.empty()) {
      std::vector<std::string> labels;
      for (const auto& m : ex.methods) labels.push_back(m.label);
      if (std::find(labels.begin(), labels.end(), ex.evaluation.ttest_reference) == labels.end())
        r_.fail(root["evaluation"]["ttest_against"], "evaluation.ttest_against",
                "no method has the label '" + ex.evaluation.ttest_reference + "'",
                did_you_mean(ex.evaluation.ttest_reference, labels) +
                    "one of the method labels: " + join_list(labels));
    }
  }

  Reader r_;
  bool every_dataset_has_dims_ = false;  // methods may then leave out their own dims
};

// Checks the profiles map (whether or not one is applied, so a typo in a profile shows up on the
// first run) and overlays the requested one onto the root.
void apply_profile(const Reader& r, YAML::Node root, const std::string& profile) {
  const YAML::Node profiles = root["profiles"];
  std::vector<std::string> names;
  if (profiles) {
    r.expect_map(profiles, "profiles");
    std::vector<std::string> allowed(kTopKeys.begin(), kTopKeys.end() - 1);  // all but profiles
    for (const auto& kv : profiles) {
      const std::string pkey = join_key("profiles", kv.first.Scalar());
      r.expect_map(kv.second, pkey);
      r.check_keys(kv.second, pkey, allowed);
      names.push_back(kv.first.Scalar());
    }
  }
  if (profile.empty()) return;
  if (!profiles)
    r.fail(root, "profiles",
           "profile '" + profile + "' was requested but the config defines no profiles",
           "run without a profile, or add profiles: {" + profile + ": {...}}");
  if (!profiles[profile])
    r.fail(profiles, "profiles", "unknown profile '" + profile + "'",
           did_you_mean(profile, names) + "available profiles: " + join_list(names));
  overlay(root, profiles[profile]);
}

}  // namespace

namespace {

YAML::Node load_root(const Reader& r, const std::string& yaml_text) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::ParserException& e) {
    r.fail(e.mark.line + 1, "", "malformed YAML: " + e.msg,
           "check the indentation and quoting on this line and the one before");
  } catch (const YAML::Exception& e) {
    r.fail(e.mark.is_null() ? 1 : e.mark.line + 1, "", "malformed YAML: " + e.msg);
  }
  if (!root.IsDefined() || root.IsNull())
    r.fail(1, "", "the config is empty",
           "start from configs/quickstart.yaml (keys: " + join_list(kTopKeys) + ")");
  r.expect_map(root, "");
  r.check_keys(root, "", kTopKeys);
  return root;
}

// The canonical text of a YAML tree: maps with sorted keys, scalars with their tag (a quoted
// '2' is a string, a plain 2 a number), no comments and no layout.
void canonical(const YAML::Node& n, std::string& out) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      std::map<std::string, YAML::Node> sorted;
      for (const auto& kv : n) sorted[kv.first.Scalar()] = kv.second;
      out += '{';
      for (const auto& [k, v] : sorted) {
        out += std::to_string(k.size()) + ':' + k + '=';
        canonical(v, out);
        out += ';';
      }
      out += '}';
      break;
    }
    case YAML::NodeType::Sequence:
      out += '[';
      for (const auto& item : n) {
        canonical(item, out);
        out += ';';
      }
      out += ']';
      break;
    case YAML::NodeType::Scalar:
      out += (n.Tag() == "!" ? "s" : "p") + std::to_string(n.Scalar().size()) + ':' + n.Scalar();
      break;
    default:
      out += '~';
  }
}

// The grid keys of each methods entry renamed since settings version `version` under their
// current names (ParamSpec::former_name), as the config would be written today.
void migrate_grid_keys(YAML::Node root, int version) {
  if (version >= kSettingsVersion || !root.IsMap()) return;
  YAML::Node methods = root["methods"];
  if (!methods || !methods.IsSequence()) return;
  for (YAML::Node entry : methods) {
    if (!entry.IsMap() || !entry["method"] || !entry["method"].IsScalar() || !entry["grid"] ||
        !entry["grid"].IsMap())
      continue;
    const MethodInfo* info = Registry::instance().find(entry["method"].Scalar());
    if (!info) continue;
    YAML::Node grid(YAML::NodeType::Map);
    for (const auto& kv : entry["grid"]) {
      std::string key = kv.first.Scalar();
      if (!info->param(key))
        for (const auto& s : info->params)
          if (s.former_name == key && version < s.renamed_in) key = s.name;
      grid[key] = kv.second;
    }
    entry["grid"] = grid;
  }
}

// evaluation.selection as {rule: R, ...}: the rule a text leaves unsaid is `default_rule`.
void write_out_selection(YAML::Node root, const std::string& default_rule) {
  if (!root.IsMap()) return;
  YAML::Node ev = root["evaluation"];
  if (ev && !ev.IsMap()) return;  // invalid anyway: the text decides
  YAML::Node full(YAML::NodeType::Map);
  if (ev && ev["selection"]) {
    const YAML::Node sel = ev["selection"];
    if (sel.IsScalar())
      full["rule"] = sel.Scalar();
    else if (sel.IsMap())
      for (const auto& kv : sel)
        if (kv.first.Scalar() == "rule" && kv.second.IsScalar())
          full["rule"] = kv.second.Scalar();  // built as the string form is: the two compare equal
        else
          full[kv.first.Scalar()] = kv.second;
    else
      return;
  }
  if (!full["rule"]) full["rule"] = default_rule;
  root["evaluation"]["selection"] = full;
}

}  // namespace

std::string selection_name(EvaluationSpec::Selection s) {
  return s == EvaluationSpec::Selection::Validation ? "validation" : "min_mean_error";
}

std::string normalised_config(const std::string& yaml_text, int settings_version,
                              const std::string& default_rule) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception&) {
    return yaml_text;  // not YAML: only the identical text matches it
  }
  if (root.IsMap()) root.remove("profiles");
  migrate_grid_keys(root, settings_version);
  write_out_selection(root, default_rule);
  std::string out;
  canonical(root, out);
  return out;
}

// Sets each override's key in the (profile-applied) tree. Maps on the way may be created (a grid
// the file does not have yet); list entries must exist. The parse that follows checks the keys
// and values, and a problem under an overridden key names the override, not a file line.
void apply_overrides(const Reader& r, YAML::Node root,
                     const std::vector<ConfigOverride>& overrides) {
  static const std::regex step(R"(([A-Za-z_]\w*)|\[(\d+)\])");
  for (const ConfigOverride& o : overrides) {
    YAML::Node value;
    try {
      value = YAML::Load(o.value);
    } catch (const YAML::Exception& e) {
      throw ConfigError::on_command_line(o.text, o.path, "the value is not YAML: " + e.msg,
                                         "quote it for the shell, e.g. 'key=[5, 10]'");
    }
    if (o.path == "profiles" || o.path.rfind("profiles.", 0) == 0)
      throw ConfigError::on_command_line(o.text, o.path, "profiles cannot be overridden",
                                         "pick one with --profile NAME");
    std::vector<std::pair<std::string, long>> steps;  // key, or index (key empty)
    for (auto it = std::sregex_iterator(o.path.begin(), o.path.end(), step);
         it != std::sregex_iterator(); ++it)
      steps.emplace_back((*it)[1].str(), (*it)[2].matched ? std::stol((*it)[2].str()) : -1);
    YAML::Node cur = root;
    std::string at;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const auto& [key, index] = steps[i];
      const bool last = i + 1 == steps.size();
      if (!key.empty()) {
        if (!cur.IsMap() && !(cur.IsNull() && !at.empty()))
          throw ConfigError::on_command_line(o.text, at, "is " + describe(cur) + ", not a map",
                                             "check the key path against the config file");
        at = join_key(at, key);
        if (last) {
          if (value.IsNull())
            cur.remove(key);
          else
            cur[key] = value;
        } else {
          YAML::Node next = cur[key];
          if (!next.IsDefined() || next.IsNull()) cur[key] = YAML::Node(YAML::NodeType::Map);
          cur.reset(cur[key]);
        }
      } else {
        if (!cur.IsSequence() || static_cast<std::size_t>(index) >= cur.size())
          throw ConfigError::on_command_line(
              o.text, at + "[" + std::to_string(index) + "]", "no such list entry",
              cur.IsSequence()
                  ? "'" + at + "' has " + std::to_string(cur.size()) + " entries, indexed from 0"
                  : "'" + at + "' is " + describe(cur) + ", not a list");
        at = index_key(at, static_cast<std::size_t>(index));
        if (last)
          cur[static_cast<std::size_t>(index)] = value;
        else
          cur.reset(cur[static_cast<std::size_t>(index)]);
      }
    }
  }
  std::vector<std::string> allowed(kTopKeys.begin(), kTopKeys.end() - 1);  // all but profiles
  allowed.push_back("profiles");
  r.check_keys(root, "", allowed);
}

const std::vector<std::uint64_t>& task_dims(const Experiment& ex, std::size_t di, std::size_t mi) {
  const MethodSpec& m = ex.methods.at(mi);
  const DatasetSpec& d = ex.datasets.at(di);
  return d.dims.empty() || m.ignores_dims ? m.dims : d.dims;
}

const char* protocol_name(MethodSpec::Protocol p) {
  return p == MethodSpec::Protocol::Transductive ? "transductive" : "holdout";
}

Experiment parse_experiment(const std::string& yaml_text, const std::string& file_name,
                            const std::string& profile,
                            const std::vector<ConfigOverride>& overrides) {
  Reader r(file_name, overrides);
  YAML::Node root = load_root(r, yaml_text);
  apply_profile(r, root, profile);
  apply_overrides(r, root, overrides);
  Experiment ex = Parser(r).parse(root, profile);

  // Every other profile is checked too, so a mistake in the one not run today does not wait for
  // the day it is run (on a cluster allocation) to show up.
  if (const YAML::Node profiles = load_root(r, yaml_text)["profiles"])
    for (const auto& kv : profiles) {
      const std::string other = kv.first.Scalar();
      if (other == profile) continue;
      const std::string where = file_name + " (profile " + other + ")";
      YAML::Node fresh = load_root(r, yaml_text);
      apply_profile(Reader(where), fresh, other);
      Parser(Reader(where)).parse(fresh, other);
    }

  if (profile.empty() && overrides.empty()) {
    ex.text = yaml_text;
  } else {
    // The text records what ran, with the overlay and the overrides applied, and says which.
    root.remove("profiles");
    YAML::Emitter out;
    out << root;
    std::string head;
    if (!profile.empty()) head += "# profile: " + profile + "\n";
    for (const ConfigOverride& o : overrides) head += "# command-line override: " + o.text + "\n";
    ex.text = head + out.c_str() + "\n";
  }
  ex.overrides = overrides;
  return ex;
}

Experiment load_experiment(const std::string& path, const std::string& profile,
                           const std::vector<ConfigOverride>& overrides) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ConfigError(path, 0, "", "is a directory, not a config file",
                      "give the YAML file, e.g. configs/quickstart.yaml");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw ConfigError(path, 0, "", "cannot open the config file",
                      "check the path (relative paths start from the current directory)");
  std::ostringstream text;
  text << in.rdbuf();
  // A binary file would otherwise be echoed back byte by byte inside a YAML parse error.
  const std::string& t = text.str();
  for (std::size_t i = 0; i < t.size(); ++i) {
    const auto c = static_cast<unsigned char>(t[i]);
    if (c == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r'))
      throw ConfigError(
          path, static_cast<int>(std::count(t.begin(), t.begin() + i, '\n')) + 1, "",
          "not a text file (control byte " + std::to_string(c) + " at offset " + std::to_string(i) +
              ")",
          "give the YAML config, e.g. configs/quickstart.yaml; a results file is read "
          "with drbench aggregate or drbench info");
  }
  return parse_experiment(t, path, profile, overrides);
}

}  // namespace drbench
