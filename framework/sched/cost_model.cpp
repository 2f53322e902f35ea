#include "framework/sched/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "framework/budget/budget.hpp"
#include "framework/config/validate.hpp"
#include "framework/core/registry.hpp"
#include "framework/results/store.hpp"

namespace drbench {

namespace {

constexpr int kFeatures = 4;
constexpr std::size_t kMinSamples = 3;
// A feature whose variance is 90 % explained by the features already chosen is left out: d after
// a variance-kept PCA grows with n but saturates (GPLRF Table 1: 71, 109, 127, 137, 146 at n = 100
// ... 500, 97 % explained by log n), and the prediction holds d at the smallest split's value.
constexpr double kCollinear = 0.1;

double feature(const CostFeatures& x, int f) {
  switch (f) {
    case 0:
      return std::log(std::max(x.n, 1.0));
    case 1:
      return std::log(std::max(x.d, 1.0));
    case 2:
      return std::log(x.dim + 1.0);
    default:
      return std::log(std::max(x.iterations, 1.0));
  }
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// A canonical setting ("iterations=1000,kernel=rbf,lambda=1000") read back against the method's
// declared parameters; its estimate is what expand_tasks would have given the task.
double descriptor_estimate(const std::string& method, const std::string& setting,
                           const DataShape& shape, arma::uword dim) {
  const MethodInfo* info = Registry::instance().find(method);
  if (!info) return 0;
  try {
    return std::max(0.0, cost_of(*info, shape, info->complete(info->parse_setting(setting)), dim));
  } catch (const std::exception&) {
    return 0;  // a setting this build cannot read: the sample calibrates nothing
  }
}

}  // namespace

double iterations_of(const std::string& method, const std::string& setting) {
  const MethodInfo* info = Registry::instance().find(method);
  if (!info) return 1.0;
  try {
    return iterations_of(*info, info->complete(info->parse_setting(setting)));
  } catch (const std::exception&) {
    return 1.0;  // a setting this build cannot read: no iteration count to scale by
  }
}

CostModel CostModel::fit(const std::vector<CostSample>& samples) {
  CostModel m;
  std::vector<double> ratio;
  std::map<std::string, std::vector<const CostSample*>> by_method;
  for (const auto& s : samples) {
    if (!(s.seconds > 0)) continue;
    by_method[s.x.method].push_back(&s);
    if (s.x.estimate > 0) ratio.push_back(s.seconds / s.x.estimate);
  }
  m.seconds_per_estimate_ = median(ratio);
  for (const auto& [method, rows] : by_method) {
    if (rows.size() < kMinSamples) continue;
    Fit fit;
    fit.samples = rows.size();
    // Only features that vary (by at least half) can be fitted; a feature with a narrow spread
    // (d after a variance-kept PCA) gives wild exponents and is absorbed by the intercept. Nor can
    // one that moves with those already chosen: d after that PCA grows with n from one column of
    // a table to the next, and the pair fitted together gave n^11 d^-16. n's exponent then
    // carries both, which is how they grow together in such a sweep.
    std::vector<arma::vec> basis;  // centred chosen features, orthonormalised
    for (int f = 0; f < kFeatures; ++f) {
      arma::vec v(rows.size());
      for (std::size_t i = 0; i < rows.size(); ++i) v(i) = feature(rows[i]->x, f);
      if (f == 3 && v.max() == v.min()) fit.fixed_log_iterations = v(0);
      if (v.max() - v.min() <= std::log(1.5)) continue;
      v -= arma::mean(v);
      arma::vec r = v;
      for (const auto& b : basis) r -= arma::dot(b, r) * b;
      if (arma::dot(r, r) < kCollinear * arma::dot(v, v)) continue;
      basis.push_back(r / arma::norm(r));
      fit.features.push_back(f);
    }
    if (std::find(fit.features.begin(), fit.features.end(), 0) == fit.features.end()) {
      std::vector<double> r;
      for (const auto* s : rows)
        if (s->x.estimate > 0) r.push_back(s->seconds / s->x.estimate);
      if (!r.empty()) {
        fit.per_estimate = median(r);
        fit.features.clear();
        fit.coef = {std::log(fit.per_estimate)};
        m.per_method_[method] = fit;
        continue;
      }
    }
    const arma::uword p = fit.features.size() + 1;
    arma::mat A(rows.size(), p);
    arma::vec y(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      A(i, 0) = 1.0;
      for (std::size_t j = 0; j < fit.features.size(); ++j)
        A(i, j + 1) = feature(rows[i]->x, fit.features[j]);
      y(i) = std::log(rows[i]->seconds);
    }
    // A small ridge for what collinearity the test above lets through.
    arma::mat G = A.t() * A;
    for (arma::uword j = 1; j < p; ++j) G(j, j) += 1e-6 * double(rows.size());
    arma::vec c;
    if (!arma::solve(c, G, A.t() * y)) continue;
    fit.coef = arma::conv_to<std::vector<double>>::from(c);
    fit.rms_log = std::sqrt(arma::mean(arma::square(A * c - y)));
    m.per_method_[method] = fit;
  }
  return m;
}

double CostModel::predict(const CostFeatures& x) const {
  auto it = per_method_.find(x.method);
  if (it != per_method_.end()) {
    const Fit& f = it->second;
    if (f.per_estimate > 0) return x.estimate * f.per_estimate;
    double z = f.coef[0];
    for (std::size_t j = 0; j < f.features.size(); ++j)
      z += f.coef[j + 1] * feature(x, f.features[j]);
    if (!std::isnan(f.fixed_log_iterations)) z += feature(x, 3) - f.fixed_log_iterations;
    return std::exp(z);
  }
  // No fit: the descriptor's estimate in calibrated seconds, or as it is (relative units).
  return seconds_per_estimate_ > 0 ? x.estimate * seconds_per_estimate_ : x.estimate;
}

std::string CostModel::describe() const {
  static const char* names[kFeatures] = {"n", "d", "dim+1", "iterations"};
  std::string out;
  char buf[256];
  for (const auto& [method, f] : per_method_) {
    if (f.per_estimate > 0) {
      std::snprintf(buf, sizeof buf,
                    "  %-12s %4zu tasks, seconds = descriptor estimate x %.3g (n does not vary in "
                    "the finished tasks)\n",
                    method.c_str(), f.samples, f.per_estimate);
      out += buf;
      continue;
    }
    std::snprintf(buf, sizeof buf, "  %-12s %4zu tasks, seconds = %.3g", method.c_str(), f.samples,
                  std::exp(f.coef[0]));
    out += buf;
    for (std::size_t j = 0; j < f.features.size(); ++j) {
      std::snprintf(buf, sizeof buf, " x %s^%.2f", names[f.features[j]], f.coef[j + 1]);
      out += buf;
    }
    if (!std::isnan(f.fixed_log_iterations)) {
      std::snprintf(buf, sizeof buf, " x (iterations/%.0f)", std::exp(f.fixed_log_iterations));
      out += buf;
    }
    std::snprintf(buf, sizeof buf, "  (rms error of log seconds %.2f)\n", f.rms_log);
    out += buf;
  }
  if (seconds_per_estimate_ > 0) {
    std::snprintf(buf, sizeof buf,
                  "  other methods: descriptor estimate x %.3g s (median over finished tasks)\n",
                  seconds_per_estimate_);
    out += buf;
  }
  return out;
}

std::vector<CostFeatures> task_features(const Experiment& ex, const std::vector<Task>& tasks,
                                        const std::vector<DataShape>& shapes) {
  std::vector<CostFeatures> out;
  out.reserve(tasks.size());
  for (const auto& t : tasks) {
    CostFeatures x;
    x.method = ex.methods.at(t.method).method;
    const DataShape s = shapes.empty()
                            ? DataShape{1000, 100, 10}
                            : scale_to_split(ex.splits, t.split_value, shapes.at(t.dataset));
    x.n = double(s.n);
    x.d = double(s.d);
    x.dim = double(t.dim == 0 ? s.d : t.dim);
    const MethodInfo* info = Registry::instance().find(x.method);
    x.iterations = info ? iterations_of(*info, t.setting) : 1.0;
    x.estimate = t.cost;
    out.push_back(x);
  }
  return out;
}

std::vector<CostSample> cost_samples(const ResultsFile& f, const std::vector<Task>& tasks,
                                     const std::vector<CostFeatures>& features) {
  std::map<std::string, std::size_t> id_of_key;
  for (const auto& t : tasks) id_of_key[t.key] = t.id;
  std::vector<CostSample> out;
  for (const auto& row : f.tasks) {
    const TaskResult& r = row.result;
    if (!r.ok) continue;
    CostSample s;
    s.x.method = row.method;
    s.x.n = double(r.n_train);
    s.x.d = double(r.input_dim);
    s.x.dim = double(row.dim == 0 ? r.input_dim : row.dim);
    s.x.iterations = iterations_of(row.method, row.setting);
    auto it = id_of_key.find(r.key);
    s.x.estimate = it != id_of_key.end() ? features.at(it->second).estimate
                                         : descriptor_estimate(row.method, row.setting,
                                                               DataShape{r.n_train, r.input_dim, 0},
                                                               arma::uword(s.x.dim));
    s.seconds = r.total_seconds();
    out.push_back(s);
  }
  return out;
}

CostSample measured_sample(const CostFeatures& planned, const TaskResult& r) {
  CostSample s{planned, r.total_seconds()};
  s.x.n = double(r.n_train);
  s.x.d = double(r.input_dim);
  return s;
}

CostEvidence read_cost_evidence(const std::vector<std::string>& paths, const Experiment& ex,
                                const std::vector<Task>& tasks,
                                const std::vector<CostFeatures>& features) {
  CostEvidence ev;
  std::map<std::string, std::size_t> id_of_key;
  for (const auto& t : tasks) id_of_key[t.key] = t.id;
  const std::string config = normalised_config(ex.text);
  for (const std::string& path : paths) {
    const std::string journal = path + ".journal";
    if (std::filesystem::exists(path) || !std::filesystem::exists(journal)) {
      const ResultsFile rf = read_results(path);
      const auto more = cost_samples(rf, tasks, features);
      ev.samples.insert(ev.samples.end(), more.begin(), more.end());
      // Keys name a task within its config: another config's task of the same key (a generator
      // at another size) is a sample, not this task's time.
      if (normalised_config(rf.config, rf.settings_version, rf.selection) == config)
        for (const auto& row : rf.tasks) ev.results[row.result.key] = row.result;
    }
    const JournalContents j = read_journal(journal);
    if (j.valid == 0 || normalised_config(j.config, 1) != config) continue;
    for (const auto& r : j.results) {
      auto it = id_of_key.find(r.key);
      if (it == id_of_key.end() || ev.results.count(r.key)) continue;
      ev.results[r.key] = r;
      if (!r.ok) continue;
      ev.samples.push_back(measured_sample(features.at(it->second), r));
    }
  }
  return ev;
}

}  // namespace drbench
