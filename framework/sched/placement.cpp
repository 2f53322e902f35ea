#include "framework/sched/placement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace drbench {

int slots_on_node(double bytes, double resident, const NodeMemory& node) {
  const int ranks = std::max(1, node.ranks);
  const double room = node.budget / ranks - resident;
  if (!(room > 0)) return 0;  // what every rank holds already fills its share
  if (bytes <= room) return 1;
  const double m = std::ceil(bytes / room);
  return m <= ranks ? static_cast<int>(m) : 0;
}

double node_use(double bytes, double resident, const NodeMemory& node, int slots) {
  const int ranks = std::max(1, node.ranks);
  const double room = node.budget / ranks - resident;
  return ranks * resident + bytes + (ranks - std::max(1, slots)) * std::max(room, 0.0);
}

std::ptrdiff_t pick_task(const std::vector<int>& need, int free) {
  bool later = false;
  for (std::size_t i = 0; i < need.size(); ++i) {
    if (need[i] <= 0) continue;
    if (need[i] <= free) return static_cast<std::ptrdiff_t>(i);
    later = true;
  }
  return later ? kWaitForSlots : kNothingFits;
}

std::vector<NodeMemory> planned_nodes(int ranks, int per_node, double budget) {
  std::vector<NodeMemory> nodes;
  per_node = std::max(1, per_node);
  for (int left = std::max(1, ranks); left > 0; left -= per_node)
    nodes.push_back({budget, std::min(left, per_node)});
  return nodes;
}

PlacedRound simulate_placed(const std::vector<std::vector<int>>& slots,
                            const std::vector<double>& seconds,
                            const std::vector<NodeMemory>& nodes) {
  PlacedRound r;
  r.node_of.assign(seconds.size(), -1);
  struct Running {
    double end;
    int node, slots;
  };
  std::vector<Running> running;
  std::vector<std::size_t> waiting(seconds.size());
  for (std::size_t i = 0; i < waiting.size(); ++i) waiting[i] = i;
  std::vector<int> used(nodes.size(), 0);
  double now = 0, busy = 0;
  for (;;) {
    // Every node starts what fits it now, in order; then time moves to the next task's end.
    for (std::size_t k = 0; k < nodes.size(); ++k)
      for (;;) {
        std::vector<int> need;
        for (std::size_t i : waiting) need.push_back(slots[i][k]);
        const std::ptrdiff_t p = pick_task(need, nodes[k].ranks - used[k]);
        if (p < 0) break;
        const std::size_t i = waiting[static_cast<std::size_t>(p)];
        waiting.erase(waiting.begin() + p);
        const int m = slots[i][k];
        used[k] += m;
        running.push_back({now + seconds[i], static_cast<int>(k), m});
        r.node_of[i] = static_cast<int>(k);
        r.held_seconds += (m - 1) * seconds[i];
        busy += seconds[i];
      }
    if (running.empty()) break;  // done, or what waits fits no node (refused before a run)
    auto first = std::min_element(running.begin(), running.end(),
                                  [](const Running& a, const Running& b) { return a.end < b.end; });
    now = first->end;
    used[static_cast<std::size_t>(first->node)] -= first->slots;
    running.erase(first);
  }
  r.wall_seconds = now;
  double ranks = 0;
  for (const NodeMemory& n : nodes) ranks += n.ranks;
  r.idle_seconds = std::max(0.0, ranks * now - busy - r.held_seconds);
  return r;
}

}  // namespace drbench
