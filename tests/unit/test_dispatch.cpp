// Pieces of the scheduler that need no MPI: chunk sizes (guided self-scheduling on cost
// estimates), the stop flag, per-task time limits and their config key.
#include <catch2/catch.hpp>
#include <thread>

#include "framework/config/experiment.hpp"
#include "framework/core/error.hpp"
#include "framework/core/time_limit.hpp"
#include "framework/optim/momentum_gd.hpp"
#include "framework/optim/optimizer.hpp"
#include "framework/sched/dispatch.hpp"

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
  // A quadratic that no optimiser finishes in one iteration.
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
  arma::mat Y(10, 2, arma::fill::ones);
  GradientEstimator est{[](const arma::mat& Yc, double, bool, arma::mat& G) {
    G = Yc;
    return 0.5 * arma::accu(Yc % Yc);
  }};
  MomentumGdOptions mo;
  mo.phases = {{100, 0.5, 1.0}};
  mo.learning_rate = 0.01;
  CHECK_THROWS_AS(momentum_gd(Y, est, mo), TimeLimitExceeded);
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
