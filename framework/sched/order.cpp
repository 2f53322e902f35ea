#include "framework/sched/order.hpp"

#include <algorithm>
#include <map>

namespace drbench {

const std::vector<PreprocStep>& task_preprocessing(const Experiment& ex, const Task& t) {
  const MethodSpec& ms = ex.methods.at(t.method);
  return ms.preprocess ? *ms.preprocess : ex.datasets.at(t.dataset).preprocess;
}

std::string prepared_key(const Experiment& ex, const Task& t) {
  std::string key = std::to_string(t.dataset) + "|" + std::to_string(t.split_seed) + "|" +
                    (t.fold >= 0 ? "v" + std::to_string(t.fold) + "|" : "");
  for (const auto& step : task_preprocessing(ex, t)) key += step.describe() + ";";
  // The transductive protocol prepares the joint fit set, holdout the training and test sets.
  if (ex.methods.at(t.method).transductive()) key += "|transductive";
  return key;
}

DispatchOrder dispatch_order(const Experiment& ex, const std::vector<Task>& tasks,
                             const std::vector<std::uint64_t>& ids, const std::vector<double>& cost,
                             int nranks) {
  double total = 0.0;
  for (std::uint64_t id : ids) total += cost.at(id);
  const double long_cut = total / std::max(nranks, 1) / 32.0;
  auto longer = [&](std::uint64_t a, std::uint64_t b) {
    return cost[a] != cost[b] ? cost[a] > cost[b] : a < b;
  };
  DispatchOrder out;
  struct Group {
    std::vector<std::uint64_t> ids;
    double top = 0.0, sum = 0.0;
  };
  std::map<std::string, Group> groups;
  for (std::uint64_t id : ids) {
    if (cost[id] > long_cut) {
      out.ids.push_back(id);
      continue;
    }
    Group& g = groups[prepared_key(ex, tasks.at(id))];
    g.ids.push_back(id);
    g.top = std::max(g.top, cost[id]);
    g.sum += cost[id];
  }
  std::sort(out.ids.begin(), out.ids.end(), longer);
  for (std::size_t i = 0; i < out.ids.size(); ++i) out.group.push_back(std::uint32_t(i));
  std::vector<Group*> order;
  for (auto& [key, g] : groups) {
    std::sort(g.ids.begin(), g.ids.end(), longer);
    order.push_back(&g);
  }
  std::sort(order.begin(), order.end(), [](const Group* a, const Group* b) {
    if (a->top != b->top) return a->top > b->top;
    if (a->sum != b->sum) return a->sum > b->sum;
    return a->ids.front() < b->ids.front();
  });
  for (const Group* g : order) {
    const auto index = static_cast<std::uint32_t>(out.group.size());
    out.ids.insert(out.ids.end(), g->ids.begin(), g->ids.end());
    out.group.resize(out.ids.size(), index);
  }
  return out;
}

}  // namespace drbench
