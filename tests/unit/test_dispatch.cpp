// Pieces of the scheduler that need no MPI: chunk sizes (guided self-scheduling on cost
// estimates), the stop flag, per-task time limits and their config key.
#include <catch2/catch.hpp>
#include <set>
#include <thread>

#include "framework/config/experiment.hpp"
#include "framework/core/error.hpp"
#include "framework/optim/optimizer.hpp"
#include "framework/sched/dispatch.hpp"
#include "framework/support/time_limit.hpp"

using namespace drbench;

TEST_CASE("chunks carry about 1/(factor x workers) of the cost left", "[sched]") {
  // Ten expensive tasks first, then a thousand cheap ones: expensive ones go out alone, cheap
  // ones in chunks that shrink as the work left shrinks.
  std::vector<std::uint64_t> order;
  std::vector<double> cost;
  for (std::uint64_t i = 0; i < 1010; ++i) {
    order.push_back(i);
    cost.push_back(i < 10 ? 100.0 : 1.0);
  }
  double left = 10 * 100.0 + 1000 * 1.0;
  CHECK(chunk_size(order, cost, 0, left, 4, 2.0, 256) == 2);  // 2 x 100 <= 2000 / 8
  left = 1000;
  CHECK(chunk_size(order, cost, 10, left, 4, 2.0, 256) == 125);  // 1000 / (2 x 4)
  CHECK(chunk_size(order, cost, 10, left, 4, 2.0, 64) == 64);    // capped
  CHECK(chunk_size(order, cost, 1000, 10.0, 4, 2.0, 256) == 1);  // never less than one
  CHECK(chunk_size(order, cost, 1010, 0.0, 4, 2.0, 256) == 0);   // nothing left
  // Every task is handed out exactly once whatever the sizes.
  std::size_t next = 0, chunks = 0;
  left = 2000;
  while (std::size_t n = chunk_size(order, cost, next, left, 3, 2.0, 256)) {
    for (std::size_t i = next; i < next + n; ++i) left -= cost[order[i]];
    next += n;
    ++chunks;
  }
  CHECK(next == order.size());
  CHECK(left == Approx(0.0).margin(1e-9));
  CHECK(chunks < 60);  // geometric shrinking, not one message per task
}

TEST_CASE("check_task_deadline stops an optimiser past the thread's deadline", "[sched]") {
  using Clock = std::chrono::steady_clock;
  CHECK_NOTHROW(check_task_deadline(0));  // no deadline set
  set_task_deadline(Clock::now() + std::chrono::hours(1));
  CHECK_NOTHROW(check_task_deadline(1));
  set_task_deadline(Clock::now());
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK_THROWS_WITH(check_task_deadline(7), Catch::Contains("iteration 7"));
  // Deadlines belong to threads: rank 0 runs tasks beside its dispatcher.
  bool other_thread_threw = false;
  std::thread([&] {
    try {
      check_task_deadline(1);
    } catch (const TimeLimitExceeded&) {
      other_thread_threw = true;
    }
  }).join();
  CHECK(!other_thread_threw);
  set_task_deadline(Clock::time_point::max());
  CHECK_NOTHROW(check_task_deadline(2));
}

TEST_CASE("every optimiser stops at a task deadline that has passed", "[sched]") {
  // A quadratic that no optimiser finishes in one iteration (t-SNE's "momentum" is in the table).
  const arma::vec scale = arma::linspace(1.0, 50.0, 20);
  FunctionObjective quad([&](const arma::vec& x, arma::vec* g) {
    if (g) *g = scale % x;
    return 0.5 * arma::dot(x, scale % x);
  });
  const arma::vec x0(20, arma::fill::ones);
  OptimOptions opt;
  opt.max_iterations = 1000;
  opt.direction = [&](const arma::vec&, const arma::vec& g) { return arma::vec(-g / scale); };
  set_task_deadline(std::chrono::steady_clock::now());
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  for (const auto& o : optimizers()) {
    INFO(o.name);
    CHECK_THROWS_AS(minimize(o.name, quad, x0, opt), TimeLimitExceeded);
  }
  set_task_deadline(std::chrono::steady_clock::time_point::max());
  for (const auto& o : optimizers()) {
    INFO(o.name);
    CHECK_NOTHROW(minimize(o.name, quad, x0, opt));
  }
}

TEST_CASE("max_task_seconds is a positive number of seconds", "[sched][config]") {
  const std::string base =
      "datasets: [{name: iris, source: bundled}]\nsplits: {train_ratio: [0.5]}\n"
      "methods: [{method: pca, dims: [2]}]\n";
  CHECK(parse_experiment(base, "c.yaml").max_task_seconds == 0.0);
  CHECK(parse_experiment(base + "max_task_seconds: 90\n", "c.yaml").max_task_seconds == 90.0);
  CHECK_THROWS_WITH(parse_experiment(base + "max_task_seconds: -1\n", "c.yaml"),
                    Catch::Contains("c.yaml:4") && Catch::Contains("max_task_seconds"));
  CHECK_THROWS_AS(parse_experiment(base + "max_task_seconds: soon\n", "c.yaml"), ConfigError);
}

TEST_CASE("chunks end between groups of tasks that share a partition", "[sched]") {
  // Groups of 3 unit tasks (0 0 0 1 1 1 2 2 2 ...), then one group of 40.
  std::vector<std::uint64_t> order;
  std::vector<double> cost;
  std::vector<std::uint32_t> group;
  for (std::uint64_t i = 0; i < 60; ++i) {
    order.push_back(i);
    cost.push_back(1.0);
    group.push_back(i < 18 ? std::uint32_t(i / 3) : 6u);
  }
  // Budget 58 / (2 x 2) = 14.5 covers 14 tasks, which ends inside group 4 (12..14): stretched to
  // its end at 15, which stays within another budget.
  CHECK(chunk_size(order, cost, 0, 58, 2, 2.0, 256) == 14);
  CHECK(chunk_size(order, cost, 0, 58, 2, 2.0, 256, group) == 15);
  // From 12, the budget 48 / 4 = 12 ends inside the big group (18..59), whose rest would be
  // another 34 > 12: cut back to the end of group 5, at 18.
  CHECK(chunk_size(order, cost, 12, 48, 2, 2.0, 256, group) == 6);
  // From inside the big group there is nothing earlier to cut back to: the group is cut.
  CHECK(chunk_size(order, cost, 18, 42, 2, 2.0, 256, group) == 10);
  // max_chunk also bounds a stretch: 14 + 1 > 14, so cut back to the end of group 3 (12).
  CHECK(chunk_size(order, cost, 0, 58, 2, 2.0, 14, group) == 12);
  // Every task still goes out exactly once, and no small group is split.
  std::size_t next = 0;
  double left = 60;
  std::set<std::uint32_t> split;
  while (std::size_t n = chunk_size(order, cost, next, left, 3, 2.0, 256, group)) {
    if (next + n < order.size() && group[next + n] == group[next + n - 1])
      split.insert(group[next + n]);
    for (std::size_t i = next; i < next + n; ++i) left -= cost[order[i]];
    next += n;
  }
  CHECK(next == order.size());
  CHECK(split == std::set<std::uint32_t>{6});
}
