#include "framework/sched/halving.hpp"

#include "framework/results/selection.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <string>
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
    if (!selecting(ex, t)) continue;
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

bool selecting(const Experiment& ex, const Task& t) {
  return !ex.evaluation.validated() || t.fold >= 0;
}

std::vector<std::uint64_t> halving_survivors(
    const Experiment& ex, const std::vector<Task>& tasks,
    const std::function<const TaskResult*(std::uint64_t id)>& result) {
  auto cells = group(ex, tasks);
  for (const auto& t : tasks) {
    if (!first_stage(ex, t) || !selecting(ex, t)) continue;
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
  for (const auto& t : tasks) n += first_stage(ex, t) && selecting(ex, t);
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
    if (first_stage(ex, t) && selecting(ex, t))
      cells[CellKey{t.dataset, t.split_value, t.method, t.dim}][t.setting.canonical()].cost +=
          seconds[t.id];
  return keep_best(ex, cells, [](const SettingScore& s) { return -s.cost; });
}

namespace {

// Under validation: the partition of a cell a choice is made for, and the test-point task of each
// of its settings.
using PartitionCell = std::tuple<std::size_t, double, int, std::size_t, arma::uword>;
PartitionCell partition_cell(const Task& t) {
  return {t.dataset, t.split_value, t.repeat, t.method, t.dim};
}
std::string group_name(const Task& t) {
  return std::to_string(t.dataset) + "|" + std::to_string(t.split_value) + "|" +
         std::to_string(t.repeat) + "|" + std::to_string(t.method) + "|" + std::to_string(t.dim);
}

// Methods with inner tasks (several settings) under validation.
std::vector<bool> validated_methods(const Experiment& ex, const std::vector<Task>& tasks) {
  std::vector<bool> v(ex.methods.size(), false);
  for (const auto& t : tasks)
    if (t.fold >= 0) v[t.method] = true;
  return v;
}

}  // namespace

std::vector<std::uint64_t> wanted_tasks(const Experiment& ex, const std::vector<Task>& tasks,
                                        const ResultOf& result) {
  const std::vector<bool> chosen_later = validated_methods(ex, tasks);
  std::vector<std::uint64_t> want;
  // A cell's second stage needs only its own first stage: a slice (--only, --dataset) completes
  // its cells although the rest of the config's first stage never runs in it.
  std::set<CellKey> first_incomplete;
  for (const auto& t : tasks) {
    if (selecting(ex, t) ? first_stage(ex, t) : !chosen_later[t.method]) {
      want.push_back(t.id);
      if (selecting(ex, t) && !result(t.id))
        first_incomplete.insert(CellKey{t.dataset, t.split_value, t.method, t.dim});
    }
  }
  if (halving_on(ex))
    for (std::uint64_t id : halving_survivors(ex, tasks, result)) {
      const Task& t = tasks[id];
      if (!first_incomplete.count(CellKey{t.dataset, t.split_value, t.method, t.dim}))
        want.push_back(id);
    }
  if (ex.evaluation.validated()) {
    std::map<PartitionCell, bool> complete;  // every wanted inner task of it has a result
    std::vector<InnerScore> scores;
    for (std::uint64_t id : want) {
      const Task& t = tasks[id];
      if (t.fold < 0) continue;
      const TaskResult* r = result(id);
      auto [it, fresh] = complete.emplace(partition_cell(t), true);
      it->second = it->second && r != nullptr;
      if (r)
        scores.push_back({group_name(t), t.setting.canonical(), r->ok && !r->knn_error.empty(),
                          r->knn_error.empty() ? 0.0 : r->knn_error[0]});
    }
    const auto chosen = choose_validated(scores);
    for (const auto& t : tasks) {
      if (t.fold >= 0 || !chosen_later[t.method]) continue;
      auto c = complete.find(partition_cell(t));
      if (c == complete.end() || !c->second) continue;
      auto pick = chosen.find(group_name(t));
      if (pick != chosen.end() && pick->second == t.setting.canonical()) want.push_back(t.id);
    }
  }
  std::sort(want.begin(), want.end());
  return want;
}

std::size_t planned_tasks(const Experiment& ex, const std::vector<Task>& tasks) {
  std::size_t n = 0;
  if (halving_on(ex)) {
    n = halving_planned(ex, tasks);
  } else {
    for (const auto& t : tasks) n += selecting(ex, t);
  }
  if (!ex.evaluation.validated()) return n;
  const std::vector<bool> chosen_later = validated_methods(ex, tasks);
  std::set<PartitionCell> cells;
  for (const auto& t : tasks)
    if (t.fold < 0) {
      if (chosen_later[t.method])
        cells.insert(partition_cell(t));
      else
        ++n;
    }
  return n + cells.size();
}

std::vector<std::uint64_t> later_costliest(const Experiment& ex, const std::vector<Task>& tasks,
                                           const std::vector<double>& seconds) {
  std::vector<std::uint64_t> later;
  if (halving_on(ex)) later = halving_costliest(ex, tasks, seconds);
  if (ex.evaluation.validated()) {
    const std::vector<bool> chosen_later = validated_methods(ex, tasks);
    std::map<PartitionCell, std::uint64_t> costliest;
    for (const auto& t : tasks) {
      if (t.fold >= 0 || !chosen_later[t.method]) continue;
      auto [it, fresh] = costliest.emplace(partition_cell(t), t.id);
      if (seconds[t.id] > seconds[it->second]) it->second = t.id;
    }
    for (const auto& [cell, id] : costliest) later.push_back(id);
  }
  std::sort(later.begin(), later.end());
  return later;
}

RunStages run_stages(const Experiment& ex, const std::vector<Task>& tasks,
                     const std::vector<double>& seconds, const ResultOf& result) {
  RunStages out;
  out.stages.push_back(wanted_tasks(ex, tasks, [](std::uint64_t) { return nullptr; }));
  const std::vector<std::uint64_t>& first = out.stages[0];
  out.first_done = std::all_of(first.begin(), first.end(),
                               [&](std::uint64_t id) { return result(id) != nullptr; });
  if (halving_on(ex) && !ex.evaluation.validated() && out.first_done) {
    // Both lists are ascending: the difference is the survivors a resume runs.
    const std::vector<std::uint64_t> wanted = wanted_tasks(ex, tasks, result);
    std::vector<std::uint64_t> later;
    std::set_difference(wanted.begin(), wanted.end(), first.begin(), first.end(),
                        std::back_inserter(later));
    out.stages.push_back(std::move(later));
  } else if (halving_on(ex) && !ex.evaluation.validated()) {
    out.stages.push_back(halving_costliest(ex, tasks, seconds));
  } else if (ex.evaluation.validated()) {
    out.stages.push_back(later_costliest(ex, tasks, seconds));
  }
  return out;
}

}  // namespace drbench
