#include "framework/sched/halving.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace drbench {

namespace {

using CellKey =
    std::tuple<std::size_t, double, std::size_t, arma::uword>;  // dataset, split, method, dim

struct SettingScore {
  double sum = 0.0;
  int n = 0;
  bool failed = false;
  std::vector<std::uint64_t> later;  // second-stage task ids
  double cost = 0.0;                 // first-stage cost (plans)
};

// cell -> setting (canonical) -> score, over the whole expansion.
std::map<CellKey, std::map<std::string, SettingScore>> group(const Experiment& ex,
                                                             const std::vector<Task>& tasks) {
  std::map<CellKey, std::map<std::string, SettingScore>> cells;
  for (const auto& t : tasks) {
    SettingScore& s =
        cells[CellKey{t.dataset, t.split_value, t.method, t.dim}][t.setting.canonical()];
    if (!first_stage(ex, t)) s.later.push_back(t.id);
  }
  return cells;
}

std::vector<std::uint64_t> keep_best(const Experiment& ex,
                                     std::map<CellKey, std::map<std::string, SettingScore>>& cells,
                                     const std::function<double(const SettingScore&)>& score) {
  std::vector<std::uint64_t> ids;
  for (auto& [cell, settings] : cells) {
    std::vector<std::pair<double, const SettingScore*>> ranked;  // map order breaks ties by name
    for (const auto& [name, s] : settings) ranked.push_back({score(s), &s});
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const std::size_t keep = std::min<std::size_t>(ex.evaluation.halving_keep, ranked.size());
    for (std::size_t i = 0; i < keep; ++i)
      ids.insert(ids.end(), ranked[i].second->later.begin(), ranked[i].second->later.end());
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

bool halving_on(const Experiment& ex) {
  return ex.evaluation.halving_repeats > 0;
}

bool first_stage(const Experiment& ex, const Task& t) {
  return !halving_on(ex) || t.repeat < ex.evaluation.halving_repeats;
}

std::vector<std::uint64_t> halving_survivors(
    const Experiment& ex, const std::vector<Task>& tasks,
    const std::function<const TaskResult*(std::uint64_t id)>& result) {
  auto cells = group(ex, tasks);
  for (const auto& t : tasks) {
    if (!first_stage(ex, t)) continue;
    SettingScore& s =
        cells[CellKey{t.dataset, t.split_value, t.method, t.dim}][t.setting.canonical()];
    const TaskResult* r = result(t.id);
    if (!r || !r->ok || r->knn_error.empty()) {
      s.failed = true;
      continue;
    }
    s.sum += r->knn_error[0];
    ++s.n;
  }
  return keep_best(ex, cells, [](const SettingScore& s) {
    return s.failed || s.n == 0 ? std::numeric_limits<double>::infinity() : s.sum / s.n;
  });
}

std::size_t halving_planned(const Experiment& ex, const std::vector<Task>& tasks) {
  if (!halving_on(ex)) return tasks.size();
  std::size_t n = 0;
  for (const auto& t : tasks) n += first_stage(ex, t);
  auto cells = group(ex, tasks);
  for (const auto& [cell, settings] : cells) {
    std::size_t per_setting = settings.begin()->second.later.size();
    n += std::min<std::size_t>(ex.evaluation.halving_keep, settings.size()) * per_setting;
  }
  return n;
}

std::vector<std::uint64_t> halving_costliest(const Experiment& ex, const std::vector<Task>& tasks,
                                             const std::vector<double>& seconds) {
  auto cells = group(ex, tasks);
  for (const auto& t : tasks)
    if (first_stage(ex, t))
      cells[CellKey{t.dataset, t.split_value, t.method, t.dim}][t.setting.canonical()].cost +=
          seconds[t.id];
  return keep_best(ex, cells, [](const SettingScore& s) { return -s.cost; });
}

}  // namespace drbench
