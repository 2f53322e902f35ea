// Rank 0's throughput: how many finished tasks per second the scheduler can hand out, receive and
// commit to a real journal (deserialise, store, group commit with fsync, HDF5 snapshots) when the
// tasks themselves cost (almost) nothing. Not a Google Benchmark: every rank takes part in one run.
//
//   mpirun -np 2 ./build/benchmarks/bench_sched [--tasks N] [--task-us US] [--no-rank0-worker]
//                                              [--dir DIR]
//
// --task-us spins each task for that many microseconds (0: empty tasks); --no-rank0-worker leaves
// rank 0 to dispatching only, which measures the dispatcher alone.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

#include "framework/config/experiment.hpp"
#include "framework/results/store.hpp"
#include "framework/sched/dispatch.hpp"
#include "framework/plan/task.hpp"

namespace {

using namespace drbench;

void spin(double us) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double, std::micro>(us);
  while (std::chrono::steady_clock::now() < end) {
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  long n_tasks = 100000;
  double task_us = 0.0;
  bool rank0_worker = true;
  std::string dir = std::filesystem::temp_directory_path().string();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--tasks" && i + 1 < argc)
      n_tasks = std::atol(argv[++i]);
    else if (a == "--task-us" && i + 1 < argc)
      task_us = std::atof(argv[++i]);
    else if (a == "--no-rank0-worker")
      rank0_worker = false;
    else if (a == "--dir" && i + 1 < argc)
      dir = argv[++i];
    else {
      if (rank == 0) std::fprintf(stderr, "bench_sched: unknown argument '%s'\n", a.c_str());
      MPI_Finalize();
      return 2;
    }
  }
  // A real experiment, so tasks have real keys and the store writes a real journal: iris with
  // identity, one task per repeat.
  const std::string out = dir + "/bench_sched_" + std::to_string(::getpid()) + ".h5";
  const std::string yaml =
      "name: bench_sched\ndatasets: [{name: iris, source: bundled}]\n"
      "splits: {train_ratio: [0.5], repeats: " +
      std::to_string(n_tasks) +
      "}\nmethods: [{method: identity}]\nevaluation: {knn: [1]}\n"
      "output: {path: " +
      out + "}\n";
  const Experiment ex = parse_experiment(yaml, "bench_sched.yaml");
  const std::vector<Task> tasks = expand_tasks(ex);

  DispatchHooks hooks;
  hooks.run = [&](std::uint64_t id) {
    if (task_us > 0) spin(task_us);
    TaskResult r;
    r.task_id = id;
    r.key = tasks[id].key;
    r.ok = true;
    r.knn_error = {0.1};
    r.n_train = 75;
    r.n_test = 75;
    r.input_dim = 4;
    r.rank = rank;
    return r.serialize();
  };
  DispatchOptions opt;
  opt.rank0_computes = rank0_worker;
  if (rank != 0) {
    dispatch({}, {}, hooks, opt);
    MPI_Finalize();
    return 0;
  }
  RunInfo info{"bench", "none", "localhost", "2026-01-01T00:00:00Z", nranks};
  DispatchStats s;
  {
    ResultsStore store(ex, tasks, info, true);
    hooks.record = [&](std::string&& bytes) { store.add(TaskResult::deserialize(bytes)); };
    hooks.commit = [&] { store.commit(); };
    std::vector<std::uint64_t> order(tasks.size());
    std::vector<double> cost(tasks.size());
    for (const auto& t : tasks) {
      order[t.id] = t.id;
      cost[t.id] = t.cost;
    }
    s = dispatch(order, cost, hooks, opt);
  }
  std::printf(
      "ranks %d, rank 0 %s, %ld tasks of %.0f us: %.3f s, %.0f tasks/s through rank 0 "
      "(%zu messages, %zu commits)\n",
      nranks, rank0_worker ? "dispatches and computes" : "only dispatches", n_tasks, task_us,
      s.seconds, double(s.recorded) / s.seconds, s.messages, s.commits);
  for (const char* ext : {"", ".journal", ".lock", ".bak", ".journal.bak"})
    std::filesystem::remove(out + ext);
  MPI_Finalize();
  return 0;
}
