#include "framework/sched/scheduler.hpp"
#include "framework/core/build_info.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <thread>

#include "framework/core/blas.hpp"
#include "framework/core/error.hpp"
#include "framework/config/validate.hpp"
#include "framework/data/load.hpp"
#include "framework/data/preprocess.hpp"
#include "framework/data/split.hpp"
#include "framework/results/aggregate.hpp"
#include "framework/results/render.hpp"
#include "framework/results/store.hpp"
#include "framework/sched/progress.hpp"
#include "framework/sched/run_task.hpp"

namespace drbench {

namespace {

enum Tag : int { kReady = 1, kTask = 2, kStop = 3, kResult = 4 };

std::string host_name() {
  char buf[256] = {0};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

std::string now_iso() {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// Rank 0's waits poll with a short sleep: Open MPI's blocking receive spins a core, and the
// master shares its node with workers that need every core.
void wait_for_message(int* source, int* tag) {
  MPI_Status st;
  int flag = 0;
  for (;;) {
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (flag) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  *source = st.MPI_SOURCE;
  *tag = st.MPI_TAG;
}

std::string recv_bytes(int source, int tag) {
  MPI_Status st;
  MPI_Probe(source, tag, MPI_COMM_WORLD, &st);
  int count = 0;
  MPI_Get_count(&st, MPI_BYTE, &count);
  std::string buf(static_cast<std::size_t>(count), '\0');
  MPI_Recv(buf.data(), count, MPI_BYTE, source, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return buf;
}

void report_failure(const TaskResult& r, bool quiet) {
  if (!r.ok && !quiet) std::fprintf(stderr, "\n[drbench] task %s failed: %s\n", r.key.c_str(), r.error.c_str());
}

void worker_loop(const std::vector<Task>& tasks, TaskRunner& runner, int rank) {
  MPI_Send(nullptr, 0, MPI_BYTE, 0, kReady, MPI_COMM_WORLD);
  for (;;) {
    MPI_Status st;
    std::uint64_t id = 0;
    MPI_Recv(&id, 1, MPI_UINT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    if (st.MPI_TAG == kStop) return;
    const std::string bytes = runner.run(tasks.at(id), rank).serialize();
    MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, kResult, MPI_COMM_WORLD);
  }
}

// Records a finished task. DRBENCH_FAULT_KILL_AFTER=N makes rank 0 SIGKILL itself after N tasks
// of this run were recorded: the resume tests use it to reproduce a crash at an exact point.
class Recorder {
 public:
  Recorder(ResultsStore& store, Progress& progress, bool quiet)
      : store_(store), progress_(progress), quiet_(quiet) {
    if (const char* k = std::getenv("DRBENCH_FAULT_KILL_AFTER")) kill_after_ = std::atol(k);
  }
  void operator()(const TaskResult& r) {
    store_.add(r);
    if (!r.ok) ++failed_;
    report_failure(r, quiet_);
    progress_.update(store_.n_done(), failed_);
    if (kill_after_ > 0 && ++recorded_ == kill_after_) std::raise(SIGKILL);
  }
  std::size_t failed() const { return failed_; }

 private:
  ResultsStore& store_;
  Progress& progress_;
  bool quiet_;
  std::size_t failed_ = 0;
  long kill_after_ = 0, recorded_ = 0;
};

void master_loop(const std::vector<std::uint64_t>& pending, int nranks, Recorder& record) {
  std::size_t next = 0;
  int stopped = 0;
  while (stopped < nranks - 1) {
    int src = 0, tag = 0;
    wait_for_message(&src, &tag);
    if (tag == kResult) {
      record(TaskResult::deserialize(recv_bytes(src, kResult)));
    } else {
      MPI_Recv(nullptr, 0, MPI_BYTE, src, kReady, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (next < pending.size()) {
      std::uint64_t id = pending[next++];
      MPI_Send(&id, 1, MPI_UINT64_T, src, kTask, MPI_COMM_WORLD);
    } else {
      std::uint64_t none = 0;
      MPI_Send(&none, 1, MPI_UINT64_T, src, kStop, MPI_COMM_WORLD);
      ++stopped;
    }
  }
}

}  // namespace

std::vector<DataShape> check_against_data(const Experiment& ex) {
  const auto path = data_search_path(ex.data_path);
  std::vector<DataShape> shapes;
  check_data_path(ex);
  for (std::size_t i = 0; i < ex.datasets.size(); ++i)
    shapes.push_back(check_dataset(ex, i, load_dataset(ex.datasets[i], path, dataset_seed(ex, i))));
  validate_against_data(ex, shapes);
  return shapes;
}

int run_experiment(const RunOptions& opt) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);

  // Rank 0 validates config and data first; the others wait for its verdict so that an invalid
  // input ends every rank cleanly with one message and no file written.
  Experiment ex;
  std::vector<DataShape> shapes;
  int ok = 1;
  std::string problem;
  if (rank == 0) {
    try {
      ex = load_experiment(opt.config, opt.profile);
      if (!opt.output.empty()) ex.output.path = opt.output;
      check_output_path(ex.output.path, opt.output.empty() ? "output.path" : "--output");
      set_blas_threads(ex.blas_threads);
      shapes = check_against_data(ex);
    } catch (const std::exception& e) {
      ok = 0;
      problem = e.what();
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok) {
    if (rank == 0) std::fprintf(stderr, "drbench: %s\nNothing was run or written.\n", problem.c_str());
    return 2;
  }
  if (rank != 0) {
    ex = load_experiment(opt.config, opt.profile);
    set_blas_threads(ex.blas_threads);
  }
  const std::vector<Task> tasks = rank == 0 ? expand_tasks(ex, shapes) : expand_tasks(ex);
  TaskRunner runner(ex, data_search_path(ex.data_path));

  if (rank != 0) {
    worker_loop(tasks, runner, rank);
    return 0;
  }

  RunInfo info{drbench::version(), blas_description(), host_name(), now_iso(), nranks};
  std::unique_ptr<ResultsStore> store;
  try {
    store = std::make_unique<ResultsStore>(ex, tasks, info, opt.force_new);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "drbench: %s\n", e.what());
    // The workers are already waiting for work: release them before leaving.
    for (int r = 1; r < nranks; ++r) {
      MPI_Recv(nullptr, 0, MPI_BYTE, r, kReady, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      std::uint64_t none = 0;
      MPI_Send(&none, 1, MPI_UINT64_T, r, kStop, MPI_COMM_WORLD);
    }
    return 2;
  }

  std::vector<std::uint64_t> pending;
  for (const auto& t : tasks)
    if (!store->done(t.id)) pending.push_back(t.id);
  // Longest expected tasks first, so the sweep does not end waiting on one late giant.
  std::stable_sort(pending.begin(), pending.end(),
                   [&](std::uint64_t a, std::uint64_t b) { return tasks[a].cost > tasks[b].cost; });
  if (!opt.quiet)
    std::fprintf(stderr, "[drbench] %s: %zu tasks, %zu already done, %d rank(s), BLAS: %s\n",
                 opt.config.c_str(), tasks.size(), tasks.size() - pending.size(), nranks,
                 info.blas.c_str());

  Progress progress(tasks.size(), store->n_done(), opt.quiet);
  Recorder record(*store, progress, opt.quiet);
  if (nranks == 1) {
    for (std::uint64_t id : pending) record(runner.run(tasks[id], 0));
  } else {
    master_loop(pending, nranks, record);
  }
  progress.finish(store->n_done(), record.failed());
  store->write_hdf5();
  // Every failed task in the file counts, including those a resumed run found already recorded.
  // Copies: the store (and its results) is gone before they are printed.
  std::vector<std::pair<std::string, std::string>> failures;  // key, error
  for (const auto& [id, r] : store->results())
    if (!r.ok) failures.emplace_back(r.key, r.error);
  store.reset();

  if (opt.print_table) std::cout << render_tables(aggregate(read_results(ex.output.path)), "md");
  if (!failures.empty()) {  // printed even with --quiet: a run with failures must not look clean
    std::fprintf(stderr, "[drbench] %zu of %zu task(s) failed (errors in /tasks/error of %s):\n",
                 failures.size(), tasks.size(), ex.output.path.c_str());
    const std::size_t shown = std::min<std::size_t>(failures.size(), 5);
    for (std::size_t i = 0; i < shown; ++i)
      std::fprintf(stderr, "  %s: %s\n", failures[i].first.c_str(), failures[i].second.c_str());
    if (failures.size() > shown)
      std::fprintf(stderr, "  ... and %zu more\n", failures.size() - shown);
  }
  if (!opt.quiet) std::fprintf(stderr, "[drbench] results: %s\n", ex.output.path.c_str());
  if (!failures.empty()) return kExitTasksFailed;
  return 0;
}

}  // namespace drbench
