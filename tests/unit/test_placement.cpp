// Tasks placed by memory, per node (framework/sched/placement.hpp): budgets, estimates and ranks
// per node in, slots and decisions out; and the memory check that lists such tasks instead of
// refusing them.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cmath>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/config/experiment.hpp"
#include "framework/core/registry.hpp"
#include "framework/plan/task.hpp"
#include "framework/sched/memory_check.hpp"
#include "framework/sched/placement.hpp"
#include "framework/sched/scheduler.hpp"
#include "framework/support/memory_size.hpp"
#include "unit/error_message.hpp"
#include "unit/fake_method.hpp"

namespace drbench {
namespace {

constexpr double MiB = 1024.0 * 1024.0;

// Its estimate is 32 n^2 bytes (four dense n x n matrices) and nothing else, so the slots can be
// worked out by hand.
MethodInfo test_mem_placed() {
  MethodInfo m = testing::fake_method_info(
      "test_mem_placed", "manifold", "fake method with a dense estimate, for placement tests");
  return m;
}

}  // namespace

DRBENCH_METHOD(test_mem_placed,
               make_budget(nullptr, [](const TaskSize& z) { return 32.0 * z.n * z.n; }))

TEST_CASE("placement: slots a task takes on a node", "[placement]") {
  // 64 GiB, 32 ranks, 100 MiB held by every rank: 1948 MiB of room per rank.
  const NodeMemory node{64.0 * 1024 * MiB, 32};
  const double resident = 100 * MiB, room = node.budget / 32 - resident;
  CHECK(slots_on_node(0, resident, node) == 1);
  CHECK(slots_on_node(room, resident, node) == 1);
  CHECK(slots_on_node(room + 1, resident, node) == 2);
  // The 60,000-point LLE, 4.5 GiB: three slots (itself and two ranks held back).
  CHECK(slots_on_node(4.5 * 1024 * MiB, resident, node) == 3);
  CHECK(slots_on_node(32 * room, resident, node) == 32);
  CHECK(slots_on_node(32 * room + 1, resident, node) == 0);  // not even the whole node
  // What every rank holds already fills its share: nothing fits.
  CHECK(slots_on_node(1, node.budget / 32, node) == 0);
  // One rank: the whole node is its share.
  CHECK(slots_on_node(node.budget - resident, resident, {node.budget, 1}) == 1);
  CHECK(slots_on_node(node.budget - resident + 1, resident, {node.budget, 1}) == 0);
}

TEST_CASE("placement: the node's total stays within its budget", "[placement]") {
  // Whatever the task, node and resident size: with the task on its slots and every other rank
  // running a task that fills its share, the node's estimated use is at most its budget; one slot
  // fewer would exceed it.
  for (int ranks : {1, 2, 3, 8, 32})
    for (double budget : {90 * MiB, 1024 * MiB, 64 * 1024 * MiB})
      for (double resident : {10 * MiB, 34.7 * MiB})
        for (double frac : {0.01, 0.3, 0.5, 0.6, 0.9, 0.99, 1.2}) {
          const NodeMemory node{budget, ranks};
          const double bytes = frac * (budget - ranks * resident);
          const int m = slots_on_node(bytes, resident, node);
          INFO("ranks " << ranks << " budget " << budget << " resident " << resident << " frac "
                        << frac << " slots " << m);
          if (budget / ranks <= resident) {
            CHECK(m == 0);
            continue;
          }
          if (frac > 1) {
            CHECK(m == 0);
            continue;
          }
          REQUIRE(m >= 1);
          CHECK(node_use(bytes, resident, node, m) <= budget * (1 + 1e-12));
          if (m > 1) CHECK(node_use(bytes, resident, node, m - 1) > budget);
        }
}

TEST_CASE("placement: an idle rank starts the first waiting task that fits its node now",
          "[placement]") {
  CHECK(pick_task({}, 4) == kNothingFits);
  CHECK(pick_task({3, 1}, 4) == 0);
  CHECK(pick_task({3, 1}, 2) == 1);              // the 3-slot task waits; a 1-slot one goes first
  CHECK(pick_task({3, 3}, 2) == kWaitForSlots);  // the rank holds back
  CHECK(pick_task({0, 0}, 8) == kNothingFits);   // fits other nodes only: released
  CHECK(pick_task({0, 2}, 1) == kWaitForSlots);
  CHECK(pick_task({0, 2}, 2) == 1);
}

TEST_CASE("placement: planned nodes and the big tasks' round", "[placement]") {
  const auto nodes = planned_nodes(10, 4, 100 * MiB);
  REQUIRE(nodes.size() == 3);
  CHECK(nodes[0].ranks == 4);
  CHECK(nodes[2].ranks == 2);
  CHECK(planned_nodes(1, 32, 1).size() == 1);

  // Two nodes of two ranks, two tasks of two slots each of 10 s: one per node, at once.
  PlacedRound r = simulate_placed({{2, 2}, {2, 2}}, {10, 10}, {{1, 2}, {1, 2}});
  CHECK(r.wall_seconds == 10);
  CHECK(r.held_seconds == 20);
  CHECK(r.idle_seconds == 0);
  CHECK(r.node_of == std::vector<int>{0, 1});
  // One node: one after the other, the held rank waiting throughout.
  r = simulate_placed({{2}, {2}}, {10, 5}, {{1, 2}});
  CHECK(r.wall_seconds == 15);
  CHECK(r.held_seconds == 15);
  // A node of three ranks: a 2-slot task and a 1-slot task run side by side, the third waits.
  r = simulate_placed({{2}, {1}, {2}}, {10, 4, 3}, {{1, 3}});
  CHECK(r.wall_seconds == 13);
  CHECK(r.idle_seconds == Approx(3 * 13 - (10 + 4 + 3) - (10 + 3)));
  // A task no node takes (refused before a run) does not hang the replay.
  r = simulate_placed({{0}}, {1}, {{1, 2}});
  CHECK(r.node_of == std::vector<int>{-1});
}

TEST_CASE("placement: a task above one rank's share is listed when a node takes it",
          "[placement]") {
  // iris at train_ratio 0.5: 75 training points, the fake needs 32 x 75^2 = 180,000 bytes.
  const Experiment ex = parse_experiment(
      "seed: 2\ndatasets: [{name: iris, source: bundled}]\nsplits: {train_ratio: [0.5], repeats: "
      "3}\nmethods: [{method: pca, dims: [1]}, {method: test_mem_placed, label: dense, dims: "
      "[2]}]\n",
      "cfg/p.yaml");
  MemoryPeak peak;
  check_data_and_memory(ex, {1e12, "test"}, peak);
  const double resident = peak.resident_bytes, need = 32.0 * 75 * 75;
  REQUIRE(peak.method_bytes == need);
  // A node whose share (budget / 2) is below the dense task's need but whose whole budget takes
  // it beside the other rank's resident bytes.
  const NodeMemory node{2 * resident + need + 1000, 2};
  const MemoryLimit share = rank_share({node.budget, "--node-memory x"}, {}, 2, 0);
  CHECK(share.bytes == node.budget / 2);
  CHECK(share.source == "--node-memory x / 2 ranks on the node");
  MemoryPeak p;
  const auto shapes = check_data_and_memory(ex, share, p, nullptr, {node});
  CHECK(p.over == 0);
  REQUIRE(p.big.size() == 1);
  CHECK(p.big_tasks == 3);  // one per repeat
  CHECK(p.big[0].slots == 2);
  CHECK(p.big[0].bytes == need);
  CHECK(p.big[0].task.find("dense (test_mem_placed)") != std::string::npos);
  // The scheduler's per-task bytes agree with the check's.
  const std::vector<Task> tasks = expand_tasks(ex, shapes);
  std::vector<DataShape> full;
  check_data_and_memory(ex, share, p, nullptr, {node}, &full);
  const std::vector<double> bytes = task_memory(ex, tasks, shapes, full);
  for (const Task& t : tasks)
    CHECK(slots_on_node(bytes[t.id], p.resident_bytes, node) == (t.method == 1 ? 2 : 1));

  // Without nodes, or on a node too small for it even whole: refused, naming the node's room.
  MemoryPeak q;
  CHECK_THROWS(check_data_and_memory(ex, share, q));
  const NodeMemory small{2 * resident + need - 1000, 2};
  const std::string e = testing::message_of([&] {
    check_data_and_memory(ex, rank_share({small.budget, "--node-memory y"}, {}, 2, 0), q, nullptr,
                          {small});
  });
  CHECK(e.find("'methods[1]'") != std::string::npos);
  CHECK(e.find("no node has room for it even with its other ranks held back") != std::string::npos);
  CHECK(e.find("--node-memory") != std::string::npos);
  // Several nodes: one large enough is enough.
  MemoryPeak r;
  CHECK_NOTHROW(check_data_and_memory(ex, share, r, nullptr, {small, node}));
  CHECK(r.big.size() == 1);
}

TEST_CASE("placement: node budgets from the options", "[placement]") {
  const MemoryLimit none, node{8 * 1024 * MiB, "--node-memory 8G"},
      rank{MiB * 1024, "--memory-per-rank 1G"};
  CHECK(node_budget(node, none, 4, 123) == node.bytes);
  CHECK(node_budget(none, rank, 4, 123) == 4 * rank.bytes);
  CHECK(node_budget(none, none, 4, 123) == 123);
  CHECK(rank_share(none, rank, 4, 123).bytes == rank.bytes);
  CHECK(rank_share(node, none, 4, 123).bytes == node.bytes / 4);
  CHECK(rank_share(none, none, 4, 400).bytes == 100);
}

TEST_CASE("placement: a node's memory is the least limit of the process's cgroups", "[placement]") {
  namespace fs = std::filesystem;
  const fs::path root =
      fs::temp_directory_path() / ("drbench_cgroup_" + std::to_string(::getpid()));
  auto put = [&](const fs::path& dir, const char* file, const std::string& v) {
    fs::create_directories(dir);
    std::ofstream(dir / file) << v << "\n";
  };
  // v1: the mount's root unlimited, the job's cgroup 3 GiB, the step's below it 2 GiB.
  put(root / "memory", "memory.limit_in_bytes", "9223372036854771712");
  put(root / "memory/slurm/job_7", "memory.limit_in_bytes", "3221225472");
  put(root / "memory/slurm/job_7/step_0", "memory.limit_in_bytes", "2147483648");
  CHECK(cgroup_memory_limit("5:cpu:/x\n4:memory:/slurm/job_7/step_0\n", root.string()) ==
        2147483648.0);
  CHECK(cgroup_memory_limit("4:cpuacct,memory:/slurm/job_7\n", root.string()) == 3221225472.0);
  CHECK(std::isinf(cgroup_memory_limit("4:memory:/\n", root.string())));
  // v2: memory.max of the unified hierarchy, "max" for none.
  put(root / "user.slice", "memory.max", "max");
  put(root / "user.slice/node_b", "memory.max", "419430400");
  CHECK(cgroup_memory_limit("0::/user.slice/node_b\n", root.string()) == 419430400.0);
  CHECK(std::isinf(cgroup_memory_limit("0::/user.slice\n", root.string())));
  CHECK(std::isinf(cgroup_memory_limit("", root.string())));
  fs::remove_all(root);
}

}  // namespace drbench
