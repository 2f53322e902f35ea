#include "framework/plan/task.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "framework/budget/budget.hpp"
#include "framework/config/validate.hpp"
#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"

namespace drbench {

std::string split_label(const SplitsSpec& splits, double value) {
  switch (splits.kind) {
    case SplitsSpec::Kind::PerClass:
      return "per_class=" + to_string(ParamValue(value));
    case SplitsSpec::Kind::Ratio:
      return "ratio=" + to_string(ParamValue(value));
    case SplitsSpec::Kind::Own:
      return "own";
    case SplitsSpec::Kind::All:
      return "all";
  }
  return "";
}

namespace {

// The points a task of method m fits at a split whose training shape is `train`: those, or for a
// transductive method in a config that also holds out (its shapes count the training points
// only) the test points with them: the rest of the dataset, or test_per_class of each class.
DataShape fitted_shape(const Experiment& ex, const MethodSpec& m, DataShape train,
                       const DataShape* full, bool joint_shapes) {
  if (!m.transductive() || joint_shapes || !full) return train;
  const arma::uword rest = full->n - std::min(train.n, full->n);
  const std::uint64_t per = ex.splits.test_per_class;
  const arma::uword tested =
      per > 0 ? std::min<arma::uword>(rest, arma::uword(per) * full->n_classes) : rest;
  train.n = std::min(full->n, train.n + tested);
  return train;
}

// The shape an inner split's fit sees: a holdout method is fitted on the inner training part
// ((k-1)/k of the partition's training points for k folds, else 1 - validation_fraction). A
// transductive one keeps the partition's estimate (an upper bound: its shape may count the test
// points too, check_dataset).
DataShape inner_shape(const Experiment& ex, const MethodSpec& m, DataShape train) {
  if (m.transductive()) return train;
  const EvaluationSpec& ev = ex.evaluation;
  const double kept = ev.validation_folds > 0
                          ? double(ev.validation_folds - 1) / ev.validation_folds
                          : 1.0 - ev.validation_fraction;
  train.n = std::max<arma::uword>(1, arma::uword(std::llround(kept * double(train.n))));
  return train;
}

// One copy of each task of a method with several settings per inner split, seeded and keyed with
// "|v<fold>" after the repeat, its cost estimated on the inner split's shape (inner_shape).
void add_inner_tasks(const Experiment& ex, const std::vector<const MethodInfo*>& infos,
                     const std::vector<std::vector<ParamSet>>& settings,
                     const std::function<DataShape(const Task&)>& train_of,
                     std::vector<Task>& tasks) {
  const std::size_t outer = tasks.size();
  for (std::size_t i = 0; i < outer; ++i) {
    if (settings[tasks[i].method].size() < 2) continue;
    for (int fold = 0; fold < ex.evaluation.inner_splits(); ++fold) {
      Task t = tasks[i];
      const std::string partition = ex.datasets[t.dataset].name + "|" +
                                    split_label(ex.splits, t.split_value) + "|r" +
                                    std::to_string(t.repeat);
      const std::string rest = "|" + ex.methods[t.method].label + "|";
      const std::string dim = "|d" + std::to_string(t.dim);
      const std::string inner = partition + "|v" + std::to_string(fold);
      t.id = tasks.size();
      t.fold = fold;
      t.key = inner + rest + t.setting.canonical() + dim;
      t.seed = hash_seed(ex.seed, inner + rest + infos[t.method]->seed_setting(t.setting) + dim);
      const DataShape s = inner_shape(ex, ex.methods[t.method], train_of(t));
      t.cost = cost_of(*infos[t.method], s, t.setting, t.dim == 0 ? s.d : t.dim);
      tasks.push_back(std::move(t));
    }
  }
}

}  // namespace

std::vector<Task> expand_tasks(const Experiment& ex) {
  return expand_tasks(ex, {});
}

std::vector<Task> expand_tasks(const Experiment& ex, const std::vector<DataShape>& shapes) {
  return expand_tasks(ex, shapes, {});
}

std::vector<Task> expand_tasks(const Experiment& ex, const std::vector<DataShape>& shapes,
                               const std::vector<DataShape>& full) {
  if (!full.empty() && full.size() != shapes.size())
    throw Error("internal: expand_tasks got " + std::to_string(full.size()) +
                " loaded shapes for " + std::to_string(shapes.size()) + " datasets");
  if (!shapes.empty() && shapes.size() != ex.datasets.size())
    throw Error("internal: expand_tasks got " + std::to_string(shapes.size()) + " shapes for " +
                std::to_string(ex.datasets.size()) + " datasets");
  std::vector<const MethodInfo*> infos;
  std::vector<std::vector<ParamSet>> settings;
  for (const auto& m : ex.methods) {
    infos.push_back(&Registry::instance().get(m.method));
    settings.push_back(expand_grid(m));
  }
  std::vector<Task> tasks;
  // Without measurements, guess a 1000-point, 100-feature, 10-class dataset.
  const auto train_of = [&](std::size_t di, double value) {
    const DataShape guess{1000, 100, 10};
    return shapes.empty() ? train_shape(ex.splits, value, guess)
                          : scale_to_split(ex.splits, value, shapes[di]);
  };
  const bool joint_shapes = std::all_of(ex.methods.begin(), ex.methods.end(),
                                        [](const MethodSpec& m) { return m.transductive(); });
  const auto fit_of = [&](std::size_t di, double value, std::size_t mi) {
    return fitted_shape(ex, ex.methods[mi], train_of(di, value), full.empty() ? nullptr : &full[di],
                        joint_shapes);
  };
  for (std::size_t di = 0; di < ex.datasets.size(); ++di) {
    for (double value : ex.splits.values) {
      const std::string split = ex.datasets[di].name + "|" + split_label(ex.splits, value);
      for (int r = 0; r < ex.splits.repeats; ++r) {
        const std::string partition = split + "|r" + std::to_string(r);
        const std::uint64_t split_seed = hash_seed(ex.splits.seed, partition);
        for (std::size_t mi = 0; mi < ex.methods.size(); ++mi)
          for (const auto& setting : settings[mi])
            for (std::uint64_t dim : task_dims(ex, di, mi)) {
              Task t;
              t.id = tasks.size();
              t.key = partition + "|" + ex.methods[mi].label + "|" + setting.canonical() + "|d" +
                      std::to_string(dim);
              t.dataset = di;
              t.split_value = value;
              t.repeat = r;
              t.method = mi;
              t.setting = setting;
              t.dim = dim;
              t.split_seed = split_seed;
              // Seeded by the version-1 names (MethodInfo::seed_setting): renaming a parameter
              // keeps every seed, so a renamed config reproduces earlier results exactly.
              t.seed = hash_seed(ex.seed, partition + "|" + ex.methods[mi].label + "|" +
                                              infos[mi]->seed_setting(setting) + "|d" +
                                              std::to_string(dim));
              const DataShape fit = fit_of(di, value, mi);
              t.cost = cost_of(*infos[mi], fit, setting, dim == 0 ? fit.d : dim);
              tasks.push_back(std::move(t));
            }
      }
    }
  }
  if (ex.evaluation.validated())
    add_inner_tasks(
        ex, infos, settings,
        [&](const Task& t) { return fit_of(t.dataset, t.split_value, t.method); }, tasks);
  return tasks;
}

namespace {

// The fields of a key; a label never holds '|' (the config refuses it) and neither does a
// setting text, so the last three fields are label, setting and dim.
std::vector<std::string> key_fields(const std::string& key) {
  std::vector<std::string> f;
  std::size_t at = 0;
  for (;;) {
    const std::size_t bar = key.find('|', at);
    f.push_back(key.substr(at, bar == std::string::npos ? std::string::npos : bar - at));
    if (bar == std::string::npos) return f;
    at = bar + 1;
  }
}

}  // namespace

std::string label_of_key(const std::string& key) {
  const auto f = key_fields(key);
  return f.size() >= 6 ? f[f.size() - 3] : "";
}

std::string setting_of_key(const std::string& key) {
  const auto f = key_fields(key);
  return f.size() >= 6 ? f[f.size() - 2] : "";
}

std::string key_with_setting(const std::string& key, const std::string& setting) {
  auto f = key_fields(key);
  if (f.size() < 6) return key;
  f[f.size() - 2] = setting;
  std::string out;
  for (std::size_t i = 0; i < f.size(); ++i) out += (i ? "|" : "") + f[i];
  return out;
}

}  // namespace drbench
