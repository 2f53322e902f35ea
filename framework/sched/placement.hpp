#pragma once
// Tasks placed by memory, per node. Every rank holds `resident` bytes whatever it runs (process,
// data, partition cache, task list: framework/sched/memory_check.hpp) and a task needs its own
// bytes on top (the method's estimate, or the preprocessing's raw block where larger). A node's
// budget split evenly leaves each rank room = budget / ranks - resident for a task. A task that
// needs more runs on one rank while other ranks of the same node take no task ("hold back"), so
// the node's total stays within its budget: it takes m = ceil(bytes / room) slots of the node
// (its own rank and m - 1 held back), and the node's other ranks keep running tasks of one slot.
// A task that needs more than every rank of a node can give does not fit that node; one that fits
// no node is refused before anything runs. Nothing here knows about MPI or tasks' contents.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace drbench {

// One node as the placement sees it: the memory drbench's ranks there may use together, and the
// number of ranks that share it.
struct NodeMemory {
  double budget = 0;
  int ranks = 1;
};

// The slots a task of `bytes` (beyond what every rank holds) takes on `node`: 1 when it fits one
// rank's share, m > 1 when it needs m - 1 other ranks of the node held back while it runs, 0 when
// it does not fit the node even with every other rank held back.
int slots_on_node(double bytes, double resident, const NodeMemory& node);

// The node's total estimated use while a task of `bytes` runs on `slots` slots and every other
// rank runs a task that fills its share: what the placement keeps within the budget.
double node_use(double bytes, double resident, const NodeMemory& node, int slots);

// Positions returned by pick_task besides an index.
inline constexpr std::ptrdiff_t kWaitForSlots = -1;  // one fits this node once slots are freed
inline constexpr std::ptrdiff_t kNothingFits = -2;   // none of them ever fits this node

// What an idle rank may start: `need` holds the slots each waiting task takes on the rank's node,
// in dispatch order (0: it does not fit there); `free` the node's slots not taken by running tasks
// or held back for them, the asking rank's included. The first task that fits now, so the order
// (longest first) decides and a task that fits no rank of this node is left to the others.
std::ptrdiff_t pick_task(const std::vector<int>& need, int free);

// The nodes of a planned run: `ranks` ranks filling nodes of `per_node` ranks each in turn (the
// last may have fewer), each with `budget` bytes.
std::vector<NodeMemory> planned_nodes(int ranks, int per_node, double budget);

// A replay of the big tasks' round (they run before the others, framework/sched/scheduler.cpp):
// ranks of each node start the first waiting task that fits their node's free slots, a task of
// m slots keeping m - 1 ranks of its node waiting, until every task has run. `slots[i][k]`: task
// i's slots on node k (0: not there); `seconds[i]`: its predicted time (the cores lent by the
// held ranks are not assumed to shorten it: how much they do depends on the method).
struct PlacedRound {
  double wall_seconds = 0;   // the round, start to last task's end
  double held_seconds = 0;   // rank-seconds ranks spent held back for a running task
  double idle_seconds = 0;   // rank-seconds ranks found nothing they could start
  std::vector<int> node_of;  // per task: the node it ran on (-1: none could take it)
};
PlacedRound simulate_placed(const std::vector<std::vector<int>>& slots,
                            const std::vector<double>& seconds,
                            const std::vector<NodeMemory>& nodes);

}  // namespace drbench
