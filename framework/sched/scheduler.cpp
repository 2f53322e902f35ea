#include "framework/sched/scheduler.hpp"
#include "framework/support/build_info.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "framework/config/validate.hpp"
#include "framework/config/yaml_reader.hpp"
#include "framework/core/error.hpp"
#include "framework/data/load.hpp"
#include "framework/data/preprocess.hpp"
#include "framework/data/split.hpp"
#include "framework/results/aggregate.hpp"
#include "framework/results/render.hpp"
#include "framework/results/store.hpp"
#include "framework/sched/cost_model.hpp"
#include "framework/sched/dispatch.hpp"
#include "framework/sched/halving.hpp"
#include "framework/sched/order.hpp"
#include "framework/sched/progress.hpp"
#include "framework/sched/run_task.hpp"
#include "framework/support/blas.hpp"
#include "framework/support/bytes.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

namespace {

// Exit status of a run stopped by a signal before every task ran (EX_TEMPFAIL: try again).
constexpr int kExitStopped = 75;

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

long env_count(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::atol(v) : 0;
}

// Takes finished tasks into the store and reports them once committed. Fault injection for the
// tests: DRBENCH_FAULT_KILL_AFTER=N makes rank 0 commit and SIGKILL itself when the N-th task of
// this run is recorded (a crash at an exact point); DRBENCH_FAULT_TERM_AFTER=N raises SIGTERM
// there instead (a batch system's stop warning).
class Recorder {
 public:
  // `retrying`: tasks in the store that this run does again (failed ones, resumed or with
  // --retry-failed); they count as neither done nor failed until their new result comes.
  Recorder(ResultsStore& store, Progress& progress, bool quiet, std::set<std::uint64_t> retrying)
      : store_(store),
        progress_(progress),
        quiet_(quiet),
        retrying_(std::move(retrying)),
        kill_after_(env_count("DRBENCH_FAULT_KILL_AFTER")),
        term_after_(env_count("DRBENCH_FAULT_TERM_AFTER")) {}
  void add(const TaskResult& r) {
    // A task abandoned at a stop signal is no result: left out, the resumed run does it again.
    if (!r.ok && r.error.rfind(kInterrupted, 0) == 0) {
      ++interrupted_;
      return;
    }
    store_.add(r);
    retrying_.erase(r.task_id);
    if (!r.ok) {
      if (!quiet_)
        std::fprintf(stderr, "\n[drbench] task %s %s: %s\n", r.key.c_str(),
                     r.timed_out ? "timed out" : "failed", r.error.c_str());
    }
    ++recorded_;
    if (recorded_ == kill_after_) {
      commit();
      std::raise(SIGKILL);
    }
    if (recorded_ == term_after_) std::raise(SIGTERM);
  }
  // Only what is committed is reported as done.
  void commit() {
    store_.commit();
    progress_.update(done(), failed());
  }
  std::size_t done() const { return store_.n_done() - retrying_.size(); }
  // Every failed task in the store, whichever run recorded it, so the progress line agrees with
  // the failure summary at the end.
  std::size_t failed() const {
    std::size_t n = 0;
    for (const auto& [id, r] : store_.results()) n += !r.ok && !retrying_.count(id);
    return n;
  }
  // Tasks abandoned at a stop signal: the run did not finish even if every task came back.
  std::size_t interrupted() const { return interrupted_; }

 private:
  ResultsStore& store_;
  Progress& progress_;
  bool quiet_;
  std::set<std::uint64_t> retrying_;
  long kill_after_, term_after_;
  std::size_t interrupted_ = 0;
  long recorded_ = 0;
};

// The tasks rank 0 has sent to the other ranks and not yet received back, kept in <output>.running
// while the run goes on. A rank that dies (killed, out of memory, its node lost) takes them with
// it, and mpirun then ends the whole job: the next run of the same file reads what was left here,
// names the tasks lost and why, and stores each rank's oldest unreturned task (the one it was
// most likely running; tasks finished within the last flush_seconds had not been sent yet) as a
// failure of the environment, which that run retries by itself.
class HandedOut {
 public:
  HandedOut(const std::string& output, const std::vector<Task>& tasks)
      : path_(output + ".running"), tasks_(tasks) {}
  void sent(int rank, const std::vector<std::uint64_t>& ids) {
    for (std::uint64_t id : ids) held_[rank].push_back(id);
    changed_ = true;
    save();  // before the chunk can be lost with its rank
  }
  void returned(std::uint64_t id) { changed_ = out_.insert(id).second || changed_; }
  void save() {
    if (!changed_) return;
    changed_ = false;
    std::string text;
    for (const auto& [rank, ids] : held_)
      for (std::uint64_t id : ids)
        if (!out_.count(id)) text += std::to_string(rank) + "\t" + tasks_[id].key + "\n";
    const std::string tmp = path_ + ".tmp";
    if (FILE* f = std::fopen(tmp.c_str(), "w")) {
      const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
      if (std::fclose(f) == 0 && ok) std::rename(tmp.c_str(), path_.c_str());
    }
  }
  // Every task came back or the run ended in order (stopped or abandoned tasks are not lost).
  void clear() const { std::remove(path_.c_str()); }

  // What a run that ended without clear() left: reported, and each rank's first task stored as
  // an environment failure (only tasks of this experiment not in the store since).
  void recover(ResultsStore& store, const Experiment& ex, bool force_new) const {
    if (force_new) clear();  // the tasks of a file moved aside
    FILE* f = std::fopen(path_.c_str(), "r");
    if (!f) return;
    std::map<std::string, std::uint64_t> id_of;
    for (const Task& t : tasks_) id_of[t.key] = t.id;
    std::map<int, std::vector<std::uint64_t>> lost;
    char line[4096];
    while (std::fgets(line, sizeof line, f)) {
      std::string s(line);
      if (!s.empty() && s.back() == '\n') s.pop_back();
      const auto tab = s.find('\t');
      const auto it = tab == std::string::npos ? id_of.end() : id_of.find(s.substr(tab + 1));
      if (it != id_of.end() && !store.done(it->second))
        lost[std::atoi(s.c_str())].push_back(it->second);
    }
    std::fclose(f);
    for (const auto& [rank, ids] : lost) {
      const std::string why = "rank " + std::to_string(rank) +
                              " ended before returning it (its process was killed, ran out of "
                              "memory, or lost its node; mpirun then ended the run)";
      store.add(failed_result(ex, tasks_[ids[0]], kEnvironmentFailure + why));
      std::fprintf(stderr,
                   "[drbench] the last run lost %zu task(s) with rank %d, which ended before "
                   "returning them (killed, out of memory, or its node lost); stored as a failure "
                   "of the environment: %s (the task it was most likely running); not started or "
                   "not sent back:%s; all are run again now\n",
                   ids.size(), rank, tasks_[ids[0]].key.c_str(),
                   [&] {
                     std::string rest;
                     for (std::size_t i = 1; i < ids.size() && i <= 5; ++i)
                       rest += " " + tasks_[ids[i]].key;
                     if (ids.size() > 6) rest += " ... and " + std::to_string(ids.size() - 6);
                     return rest.empty() ? std::string(" none") : rest;
                   }()
                       .c_str());
    }
    if (!lost.empty()) store.commit();
  }

 private:
  std::string path_;
  const std::vector<Task>& tasks_;
  std::map<int, std::vector<std::uint64_t>> held_;
  std::set<std::uint64_t> out_;  // returned
  bool changed_ = false;
};

// Each task's expected cost: the descriptors' estimates, or seconds from a cost model fitted to
// the finished tasks of this experiment once there are any.
std::vector<double> expected_costs(const Experiment& ex, const std::vector<Task>& tasks,
                                   const std::vector<DataShape>& shapes,
                                   const ResultsStore& store) {
  std::vector<double> cost(tasks.size());
  for (const auto& t : tasks) cost[t.id] = t.cost;
  if (store.n_done() == 0) return cost;
  const auto features = task_features(ex, tasks, shapes);
  std::vector<CostSample> samples;
  for (const auto& [id, r] : store.results())
    if (r.ok) samples.push_back(measured_sample(features[id], r));
  const CostModel model = CostModel::fit(samples);
  if (model.calibrated())
    for (const auto& t : tasks) cost[t.id] = model.predict(features[t.id]);
  return cost;
}

// The nodes of the run: ranks grouped by MPI's shared-memory split, each node's budget (its
// memory, --node-memory, or --memory-per-rank times its ranks) and one rank's share, the least over
// the nodes (any rank may be handed any task of one slot). Collective.
struct NodeLayout {
  MemoryLimit share;
  std::vector<NodeMemory> nodes;
  std::vector<int> node_of;  // per rank
};
NodeLayout node_layout(const RunOptions& opt) {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 1, rank = 0, nranks = 1, leader = 0;
  MPI_Comm_size(node, &local);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  MPI_Allreduce(&rank, &leader, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  double mine = 0;
  if (opt.node_memory.bytes <= 0 && opt.memory.bytes <= 0) try {
      mine = node_memory_bytes();
    } catch (const std::exception&) {
      mine = 0;  // unknown here: no limit from this node, the others still count
    }
  const double budget = node_budget(opt.node_memory, opt.memory, local, mine);
  const double own[3] = {double(leader), budget > 0 ? budget : HUGE_VAL, double(local)};
  std::vector<double> all(3 * static_cast<std::size_t>(nranks));
  MPI_Allgather(own, 3, MPI_DOUBLE, all.data(), 3, MPI_DOUBLE, MPI_COMM_WORLD);
  NodeLayout l;
  std::map<int, int> index;  // leader -> node
  for (int r = 0; r < nranks; ++r) {
    const int lead = static_cast<int>(all[3 * r]);
    auto [it, fresh] = index.emplace(lead, static_cast<int>(l.nodes.size()));
    if (fresh) l.nodes.push_back({all[3 * r + 1], static_cast<int>(all[3 * r + 2])});
    l.node_of.push_back(it->second);
  }
  double least = HUGE_VAL;
  for (const NodeMemory& n : l.nodes) least = std::min(least, n.budget / n.ranks);
  if (!std::isfinite(least)) return {{}, {}, l.node_of};  // rank 0's check reports it
  l.share = rank_share(opt.node_memory, opt.memory, local, mine);
  if (least < l.share.bytes) {
    l.share.bytes = least;
    l.share.source =
        "the least over the nodes of each node's memory / the ranks on it; "
        "--memory-per-rank SIZE or --node-memory SIZE to change it";
  }
  return l;
}

// The tasks that take more than one slot on some node, and what every rank holds: rank 0's
// bytes for every rank, which each turns into its own node's slots.
std::string encode_big(const std::map<std::uint64_t, double>& big, double resident) {
  ByteWriter w;
  w.f64(resident);
  w.u64(big.size());
  for (const auto& [id, bytes] : big) {
    w.u64(id);
    w.f64(bytes);
  }
  return w.take();
}
std::map<std::uint64_t, double> decode_big(const std::string& s, double& resident) {
  std::map<std::uint64_t, double> big;
  ByteReader r(s, "big tasks from rank 0");
  resident = r.f64();
  for (std::uint64_t n = r.count(16); n > 0; --n) {
    const std::uint64_t id = r.u64();
    big[id] = r.f64();
  }
  return big;
}

// Tasks above one rank's share (framework/sched/placement.hpp): rank 0 tells every rank their
// bytes, each rank works out their slots on its own node, and such a task runs on the threads of
// its slots: the cores of the ranks held back for it. Collective.
struct PlacedTasks {
  double resident = 0;
  std::map<std::uint64_t, double> big;  // id -> bytes beyond resident
  NodeMemory node;                      // this rank's
  int slots_here(std::uint64_t id) const {
    auto it = big.find(id);
    return std::max(1, it == big.end() ? 1 : slots_on_node(it->second, resident, node));
  }
};
PlacedTasks share_placement(int rank, const CheckedRun* checked, const Experiment& ex,
                            const std::vector<Task>& tasks, const std::vector<DataShape>& shapes,
                            const NodeLayout& layout) {
  PlacedTasks p;
  if (checked && !checked->memory_peak.big.empty()) {
    p.resident = checked->memory_peak.resident_bytes;
    const std::vector<double> bytes = task_memory(ex, tasks, shapes, checked->full, checked->loads);
    for (const Task& t : tasks)
      for (const NodeMemory& n : layout.nodes)
        if (slots_on_node(bytes[t.id], p.resident, n) != 1) p.big[t.id] = bytes[t.id];
  }
  p.big =
      decode_big(broadcast_bytes_quietly(checked ? encode_big(p.big, p.resident) : ""), p.resident);
  if (!layout.nodes.empty())
    p.node = layout.nodes.at(static_cast<std::size_t>(layout.node_of[rank]));
  return p;
}

// Every rank's node and, for each task placed by memory, its slots on every node.
SlotTable slot_table(const std::map<std::uint64_t, double>& big, double resident,
                     const NodeLayout& layout) {
  SlotTable t;
  t.node_of = layout.node_of;
  for (const NodeMemory& n : layout.nodes) t.node_ranks.push_back(n.ranks);
  for (const auto& [id, bytes] : big) {
    std::vector<int>& s = t.slots[id];
    for (const NodeMemory& n : layout.nodes) s.push_back(slots_on_node(bytes, resident, n));
  }
  return t;
}

// The run header's line on the tasks placed by memory.
std::string placement_line(const SlotTable& t, const std::map<std::uint64_t, double>& big) {
  int least = 0, most = 0;
  for (const auto& [id, s] : t.slots)
    for (int m : s)
      if (m > 0) least = least == 0 ? m : std::min(least, m), most = std::max(most, m);
  const std::string held = least == most
                               ? std::to_string(least - 1)
                               : std::to_string(least - 1) + "-" + std::to_string(most - 1);
  return "placed by memory: " + std::to_string(big.size()) +
         " task(s) above one rank's share run first, each on one rank while " + held +
         " other rank(s) of its node take no task and lend it their cores (threads recorded "
         "per task), on " +
         std::to_string(t.node_ranks.size()) + " node(s)";
}

// The tasks placed by memory, in their order, and the rest.
std::pair<DispatchOrder, DispatchOrder> split_big(const DispatchOrder& d,
                                                  const std::map<std::uint64_t, double>& big) {
  std::pair<DispatchOrder, DispatchOrder> parts;
  for (std::size_t i = 0; i < d.ids.size(); ++i) {
    DispatchOrder& to = big.count(d.ids[i]) ? parts.first : parts.second;
    to.ids.push_back(d.ids[i]);
    if (!d.group.empty()) to.group.push_back(d.group[i]);
  }
  return parts;
}

}  // namespace

double node_budget(const MemoryLimit& node_memory, const MemoryLimit& per_rank, int ranks,
                   double measured) {
  if (node_memory.bytes > 0) return node_memory.bytes;
  if (per_rank.bytes > 0) return per_rank.bytes * std::max(1, ranks);
  return measured;
}

MemoryLimit rank_share(const MemoryLimit& node_memory, const MemoryLimit& per_rank, int ranks,
                       double measured) {
  if (per_rank.bytes > 0) return per_rank;
  const int r = std::max(1, ranks);
  if (node_memory.bytes > 0)
    return {node_memory.bytes / r, node_memory.source + " / " + std::to_string(r) +
                                       (r == 1 ? " rank" : " ranks") + " on the node"};
  return memory_limit_default(measured, r);
}

std::vector<DataShape> check_against_data(const Experiment& ex, TaskRunner* runner,
                                          std::vector<DataShape>* full,
                                          std::vector<LoadShape>* loads) {
  const auto path = data_search_path(ex.data_path);
  std::vector<DataShape> shapes;
  check_data_path(ex);
  for (std::size_t i = 0; i < ex.datasets.size(); ++i) {
    // Without a runner the dataset is dropped after its check, so validation holds one at a time.
    std::optional<Dataset> own;
    rehearse_dataset_read(ex.datasets[i], path);
    if (!runner) own = load_dataset(ex.datasets[i], path, dataset_seed(ex, i));
    const Dataset& ds = runner ? runner->dataset(i) : *own;
    shapes.push_back(check_dataset(ex, i, ds));
    if (full) full->push_back(DataShape{ds.n(), ds.d(), ds.n_classes});
    if (loads)
      loads->push_back(
          LoadShape{ds.n_read, ds.n_load_peak, ds.sparse() ? double(ds.Xs.n_nonzero) : 0.0});
  }
  validate_against_data(ex, shapes);
  return shapes;
}

std::vector<DataShape> check_data_and_memory(const Experiment& ex, const MemoryLimit& limit,
                                             MemoryPeak& peak, TaskRunner* runner,
                                             const std::vector<NodeMemory>& nodes,
                                             std::vector<DataShape>* full_out,
                                             std::vector<LoadShape>* loads_out) {
  check_memory_before_data(ex, limit);
  std::vector<DataShape> full;
  std::vector<LoadShape> loads;
  std::vector<DataShape> shapes = check_against_data(ex, runner, &full, &loads);
  peak = check_memory(ex, shapes, full, limit, loads, nodes);
  if (full_out) *full_out = std::move(full);
  if (loads_out) *loads_out = std::move(loads);
  return shapes;
}

// Each name of a slice option must be one the config has.
void check_slice(const std::vector<std::string>& wanted, const std::vector<std::string>& have,
                 const std::string& option, const std::string& what) {
  for (const auto& w : wanted)
    if (std::find(have.begin(), have.end(), w) == have.end())
      throw Error(option + " " + w + ": the config has no " + what + " '" + w + "' (fix: " +
                  config::did_you_mean(w, have) + "one of " + config::join_list(have) + ")");
}

Experiment load_for_run(const RunOptions& opt) {
  Experiment ex = load_experiment(opt.config, opt.profile, opt.overrides);
  std::vector<std::string> labels, names;
  for (const auto& m : ex.methods) labels.push_back(m.label);
  for (const auto& d : ex.datasets) names.push_back(d.name);
  check_slice(opt.only_methods, labels, "--only", "method label");
  check_slice(opt.only_datasets, names, "--dataset", "dataset");
  for (const int r : opt.only_repeats)
    if (r < 0 || r >= ex.splits.repeats)
      throw Error("--repeats " + std::to_string(r) + ": the config has " +
                  std::to_string(ex.splits.repeats) + " repeats, numbered 0 to " +
                  std::to_string(ex.splits.repeats - 1) + " (fix: --repeats " +
                  std::to_string(ex.splits.repeats > 1 ? ex.splits.repeats - 1 : 0) +
                  " or a range such as 0-" + std::to_string(ex.splits.repeats - 1) + ")");
  if (!opt.only_repeats.empty() && ex.evaluation.halving_repeats > 0)
    throw Error(
        "--repeats with successive halving (evaluation.selection.halving): its second "
        "stage is chosen from the first stage's repeats, so a slice of repeats cannot "
        "run on its own (fix: leave out --repeats, or use selection: min_mean_error)");
  if (!opt.output.empty()) ex.output.path = opt.output;
  check_output_path(ex.output.path, opt.output.empty() ? "output.path" : "--output");
  return ex;
}

// Here, where TaskRunner is complete.
CheckedRun::CheckedRun() = default;
CheckedRun::~CheckedRun() = default;

std::shared_ptr<CheckedRun> check_run(const RunOptions& opt) {
  // Built in place: the runner holds a reference to c->ex.
  auto c = std::make_shared<CheckedRun>();
  c->ex = load_for_run(opt);
  set_blas_threads(c->ex.blas_threads);
  c->runner = std::make_unique<TaskRunner>(c->ex, data_search_path(c->ex.data_path));
  const bool measure = opt.memory.bytes <= 0 && opt.node_memory.bytes <= 0;
  const double measured = measure ? node_memory_bytes() : 0;
  c->memory_limit =
      opt.memory.bytes > 0 ? opt.memory : rank_share(opt.node_memory, opt.memory, 1, measured);
  c->nodes = opt.nodes;
  if (c->nodes.empty()) c->nodes = {{node_budget(opt.node_memory, opt.memory, 1, measured), 1}};
  // A slice (--only) is checked on its own methods: one left out may need more than a rank has,
  // which is often why the slice was asked for.
  Experiment part = c->ex;
  if (!opt.only_methods.empty())
    std::erase_if(part.methods, [&](const MethodSpec& m) {
      return std::find(opt.only_methods.begin(), opt.only_methods.end(), m.label) ==
             opt.only_methods.end();
    });
  c->shapes = check_data_and_memory(part, c->memory_limit, c->memory_peak, c->runner.get(),
                                    c->nodes, &c->full, &c->loads);
  return c;
}

namespace {

// Rank 0 validates config and data first (unless it did before MPI_Init); the others wait for
// its verdict so that an invalid input ends every rank cleanly with one message and no file
// written. Rank 0 runs tasks too (a worker thread beside its dispatcher), so the data it checks
// stay loaded for them rather than being read a second time. False on every rank when rank 0
// refused (it said why).
bool checked_by_rank0(const RunOptions& opt, int rank, const NodeLayout& layout,
                      std::shared_ptr<CheckedRun>& checked) {
  checked = opt.checked;
  int ok = 1;
  std::string problem;
  RunOptions with_limit = opt;
  if (!checked) {
    with_limit.memory = layout.share;
    with_limit.nodes = layout.nodes;
  }
  if (rank == 0 && !checked) {
    try {
      checked = check_run(with_limit);
    } catch (const std::exception& e) {
      ok = 0;
      problem = e.what();
    }
  }
  ok = broadcast_quietly(ok);
  if (!ok && rank == 0)
    std::fprintf(stderr, "drbench: %s\nNothing was run or written.\n", problem.c_str());
  return ok != 0;
}

// Which tasks a round of rank 0's dispatch runs: those of the slice (--only, --dataset,
// --repeats) without a result, and the failures to retry. A failure of the environment (out of
// memory, disk full, a program missing) is retried by any resume; with --retry-failed every
// failed or timed-out task is.
class Selection {
 public:
  Selection(const RunOptions& opt, const Experiment& ex, const std::vector<Task>& tasks,
            const ResultsStore& store, const std::vector<double>& cost, int nranks)
      : opt_(opt), ex_(ex), tasks_(tasks), store_(store), cost_(cost), nranks_(nranks) {}
  bool sliced() const {
    return !opt_.only_methods.empty() || !opt_.only_datasets.empty() || !opt_.only_repeats.empty();
  }
  // `ran`: the tasks this run has dispatched already; a retried task that fails again is not
  // retried in a later round of the same run.
  DispatchOrder not_done(const std::vector<std::uint64_t>& ids,
                         const std::set<std::uint64_t>& ran) const {
    std::vector<std::uint64_t> pending;
    for (std::uint64_t id : ids)
      if (in_slice(tasks_[id]) && !ran.count(id) &&
          (!store_.done(id) || to_retry(store_.results().at(id))))
        pending.push_back(id);
    return dispatch_order(ex_, tasks_, pending, cost_, nranks_);
  }
  const TaskResult* result_of(std::uint64_t id) const {
    auto it = store_.results().find(id);
    return it == store_.results().end() ? nullptr : &it->second;
  }

 private:
  bool in_slice(const Task& t) const {
    auto has = [](const std::vector<std::string>& v, const std::string& x) {
      return v.empty() || std::find(v.begin(), v.end(), x) != v.end();
    };
    return has(opt_.only_methods, ex_.methods[t.method].label) &&
           has(opt_.only_datasets, ex_.datasets[t.dataset].name) &&
           (opt_.only_repeats.empty() ||
            std::find(opt_.only_repeats.begin(), opt_.only_repeats.end(), t.repeat) !=
                opt_.only_repeats.end());
  }
  bool to_retry(const TaskResult& r) const {
    return !r.ok && (opt_.retry_failed || r.error.rfind(kEnvironmentFailure, 0) == 0);
  }
  const RunOptions& opt_;
  const Experiment& ex_;
  const std::vector<Task>& tasks_;
  const ResultsStore& store_;
  const std::vector<double>& cost_;
  int nranks_;
};

// What a run is about to do, on stderr (not under --quiet).
struct RunStart {
  std::size_t planned = 0, done_before = 0, retrying = 0, first_stage = 0, pending = 0;
  bool sliced = false;
  std::string placement;  // the line on tasks placed by memory, empty where none is
};
void print_run_start(const RunOptions& opt, const CheckedRun& checked,
                     const std::vector<Task>& tasks, const RunStart& s, int nranks,
                     const std::string& blas) {
  const Experiment& ex = checked.ex;
  std::fprintf(stderr, "[drbench] %s: %zu tasks, %zu already done, %d rank(s), BLAS: %s\n",
               opt.config.c_str(), s.planned, s.done_before, nranks, blas.c_str());
  if (s.retrying > 0)
    std::fprintf(stderr, "[drbench] retrying %zu failed task(s)%s\n", s.retrying,
                 opt.retry_failed ? " (--retry-failed)" : " (failures of the environment)");
  const MemoryPeak& peak = checked.memory_peak;
  std::fprintf(
      stderr, "[drbench] memory per rank: about %s at most (%s%s), limit %s (%s)\n",
      format_bytes(peak.bytes).c_str(),
      peak.load_dominates() ? ("while loading " + peak.load + "; largest task: ").c_str() : "",
      peak.task.c_str(), format_bytes(checked.memory_limit.bytes).c_str(),
      checked.memory_limit.source.c_str());
  if (!s.placement.empty()) std::fprintf(stderr, "[drbench] %s\n", s.placement.c_str());
  for (const std::string& remark : setting_advice(ex, checked.shapes))
    std::fprintf(stderr, "[drbench] note: %s\n", remark.c_str());
  if (ex.evaluation.validated() && s.planned < tasks.size())
    std::fprintf(stderr,
                 "[drbench] selection: validation: each setting of a grid scored on %d inner "
                 "split(s) of each training partition, the chosen one refitted and scored on the "
                 "test points (%zu tasks in all)\n",
                 ex.evaluation.inner_splits(), s.planned);
  if (halving_on(ex))
    std::fprintf(stderr,
                 "[drbench] successive halving: every setting on %d repeats (%zu tasks), the "
                 "best %d per cell on the rest (%zu of %zu expanded tasks run)\n",
                 ex.evaluation.halving_repeats, s.first_stage, ex.evaluation.halving_keep,
                 s.planned, tasks.size());
  if (s.sliced)
    std::fprintf(stderr, "[drbench] slice (--only/--dataset/--repeats): %zu task(s) to run now\n",
                 s.pending);
}

// How a run ended, in its last lines, and its exit status. `failures`: key and error of every
// failed task in the file, including those a resumed run found already recorded.
struct RunEnd {
  bool stopped = false;
  std::size_t saved = 0, planned = 0, abandoned = 0;
  std::vector<std::pair<std::string, std::string>> failures;
};
int report_run_end(const RunOptions& opt, const Experiment& ex, std::size_t n_tasks,
                   const RunEnd& end) {
  if (end.stopped) {
    const std::string abandoned =
        end.abandoned > 0 ? " (" + std::to_string(end.abandoned) + " running task(s) abandoned)"
                          : "";
    std::fprintf(stderr,
                 "[drbench] stopped by a signal: %zu of %zu tasks are saved in %s%s; exit status "
                 "75; rerun the same command to resume\n",
                 end.saved, end.planned, ex.output.path.c_str(), abandoned.c_str());
    return kExitStopped;
  }
  // The run stores its own tables (the one place they are computed), so readers of a finished
  // file never recompute them; a slice or a halving run still missing tasks stores none.
  const Aggregate tables = aggregate(read_results(ex.output.path));
  if (tables.incomplete.empty()) write_tables(ex.output.path, tables);
  if (opt.print_table) std::cout << render_tables(tables, "md");
  const auto& failures = end.failures;
  if (!failures.empty()) {  // printed even with --quiet: a run with failures must not look clean
    std::fprintf(stderr, "[drbench] %zu of %zu task(s) failed (errors in /tasks/error of %s):\n",
                 failures.size(), n_tasks, ex.output.path.c_str());
    const std::size_t shown = std::min<std::size_t>(failures.size(), 5);
    for (std::size_t i = 0; i < shown; ++i)
      std::fprintf(stderr, "  %s: %s\n", failures[i].first.c_str(), failures[i].second.c_str());
    if (failures.size() > shown)
      std::fprintf(stderr, "  ... and %zu more\n", failures.size() - shown);
  }
  // Under --quiet too when the path came from the config or its profile, not from --output.
  if (!opt.quiet || opt.output.empty())
    std::fprintf(stderr, "[drbench] results: %s\n", ex.output.path.c_str());
  return failures.empty() ? 0 : kExitTasksFailed;
}

// Rank 0: opens the results file, dispatches rounds of tasks to every rank (itself included)
// until the rule has chosen all it needs or a stop signal came, and reports.
int run_rank0(const RunOptions& opt, const CheckedRun& checked, const std::vector<Task>& tasks,
              DispatchHooks& hooks, int nranks, const PlacedTasks& placed_tasks,
              const NodeLayout& layout) {
  const Experiment& ex = checked.ex;
  RunInfo info{drbench::version(), blas_description(), host_name(), now_iso(), nranks};
  std::unique_ptr<ResultsStore> store;
  auto refuse = [&hooks](const std::string& why) {
    std::fprintf(stderr, "drbench: %s\n", why.c_str());
    // The workers are already asking for work: an empty dispatch releases them.
    hooks.record = [](std::string&&) {};
    hooks.commit = [] {};
    dispatch({}, {}, hooks);
    broadcast_quietly(0);
    return 2;
  };
  try {
    store = std::make_unique<ResultsStore>(ex, tasks, info, opt.force_new);
  } catch (const std::exception& e) {
    return refuse(e.what());
  }
  HandedOut handed(ex.output.path, tasks);
  handed.recover(*store, ex, opt.force_new);

  // Long tasks first, the rest partition by partition (framework/sched/order.hpp). A resumed run
  // predicts seconds from the tasks already finished (framework/sched/cost_model.hpp).
  const std::vector<double> cost = expected_costs(ex, tasks, checked.shapes, *store);
  const Selection select(opt, ex, tasks, *store, cost, nranks);
  const ResultOf result_of = [&](std::uint64_t id) { return select.result_of(id); };
  std::vector<std::uint64_t> stage = wanted_tasks(ex, tasks, result_of);
  std::set<std::uint64_t> ran;
  DispatchOrder pending = select.not_done(stage, ran);
  // Before anything runs: results of another neighbour search are never joined in one file.
  if (!pending.ids.empty() && !store->mixing_refusal().empty())
    return refuse(store->mixing_refusal());
  std::set<std::uint64_t> retrying;
  for (std::uint64_t id : pending.ids)
    if (store->done(id)) retrying.insert(id);
  RunStart start{planned_tasks(ex, tasks),
                 store->n_done() - retrying.size(),
                 retrying.size(),
                 stage.size(),
                 pending.ids.size(),
                 select.sliced(),
                 {}};
  const std::map<std::uint64_t, double>& big = placed_tasks.big;
  const SlotTable slots = slot_table(big, placed_tasks.resident, layout);
  if (!big.empty()) start.placement = placement_line(slots, big);
  if (!opt.quiet) print_run_start(opt, checked, tasks, start, nranks, info.blas);

  Progress progress(start.sliced ? start.done_before + start.pending : start.planned,
                    start.done_before, opt.quiet);
  Recorder recorder(*store, progress, opt.quiet, retrying);
  hooks.sent = [&](int r, const std::vector<std::uint64_t>& ids) { handed.sent(r, ids); };
  // Rank 0's worker thread is the one task runner whose stderr can be the user's terminal.
  show_iteration_progress(!opt.quiet && nranks == 1 && isatty(fileno(stderr)));
  hooks.record = [&](std::string&& bytes) {
    const TaskResult r = TaskResult::deserialize(bytes);
    handed.returned(r.task_id);
    recorder.add(r);
  };
  hooks.commit = [&] {
    recorder.commit();
    handed.save();
  };
  bool stopped = false;
  DispatchOptions placed;
  placed.slots = &slots;
  for (;;) {
    ran.insert(pending.ids.begin(), pending.ids.end());
    // Tasks placed by memory run first, on their own, then the rest.
    if (!big.empty()) {
      auto [first, rest] = split_big(pending, big);
      stopped = dispatch(first.ids, cost, hooks, placed, first.group).stopped || stopped;
      pending = std::move(rest);
    }
    const DispatchStats round = dispatch(pending.ids, cost, hooks, {}, pending.group);
    stopped = stopped || round.stopped || recorder.interrupted() > 0;
    // The next round: what the committed results now let the rule choose (resumed runs alike).
    if (!stopped) pending = select.not_done(wanted_tasks(ex, tasks, result_of), ran);
    const bool more = !stopped && !pending.ids.empty();
    broadcast_quietly(more ? 1 : 0);
    if (!more) break;
  }
  RunEnd end{stopped || recorder.interrupted() > 0,
             recorder.done(),
             start.planned,
             recorder.interrupted(),
             {}};
  handed.clear();
  progress.finish(end.saved, recorder.failed());
  // A slice leaves the rest of the experiment to other runs: the file stays incomplete.
  if (!end.stopped && !start.sliced) store->mark_planned_done();
  store->write_hdf5();
  // Copies: the store (and its results) is gone before they are printed.
  for (const auto& [id, r] : store->results())
    if (!r.ok) end.failures.emplace_back(r.key, r.error);
  store.reset();
  return report_run_end(opt, ex, tasks.size(), end);
}

}  // namespace

int run_experiment(const RunOptions& opt) {
  install_stop_handlers();  // again after MPI_Init, in case the MPI library replaced them
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  std::shared_ptr<CheckedRun> checked;
  const NodeLayout layout = node_layout(opt);
  if (!checked_by_rank0(opt, rank, layout, checked)) return 2;
  Experiment others_ex;
  if (rank != 0) {
    others_ex = load_experiment(opt.config, opt.profile, opt.overrides);
    set_blas_threads(others_ex.blas_threads);
  }
  const Experiment& ex = rank == 0 ? checked->ex : others_ex;
  const std::vector<DataShape> shapes = rank == 0 ? checked->shapes : std::vector<DataShape>{};
  const std::vector<Task> tasks =
      rank == 0 ? expand_tasks(ex, shapes, checked->full) : expand_tasks(ex);
  // It holds a reference to `ex`.
  std::unique_ptr<TaskRunner> runner = rank == 0 ? std::move(checked->runner) : nullptr;
  if (!runner) runner = std::make_unique<TaskRunner>(ex, data_search_path(ex.data_path));
  const PlacedTasks placed_tasks =
      share_placement(rank, rank == 0 ? checked.get() : nullptr, ex, tasks, shapes, layout);
  // drbench's own loops give the same bits for any thread count; a command's libraries may not
  // (docs/external-methods.md), so a configured method keeps the config's threads.
  auto threads_of = [&](const Task& t) {
    const bool own = Registry::instance().get(ex.methods[t.method].method).configured_from.empty();
    return (own ? placed_tasks.slots_here(t.id) : 1) * ex.threads;
  };
  DispatchHooks hooks;
  // Fault injection for the tests: DRBENCH_FAULT_RANK_DIES_AT=N makes every rank but 0 SIGKILL
  // itself when it starts its N-th task (a rank lost under mpirun).
  const long dies_at = rank == 0 ? 0 : env_count("DRBENCH_FAULT_RANK_DIES_AT");
  long started = 0;
  hooks.run = [&](std::uint64_t id) {
    if (++started == dies_at) std::raise(SIGKILL);
    const Task& t = tasks.at(id);
    return runner->run(t, rank, threads_of(t)).serialize();
  };

  // Rounds of collective dispatches: successive halving's second stage and validation's
  // test-point tasks are chosen by rank 0 from the committed results of the rounds before; after
  // each round rank 0 says whether another follows. Where tasks are placed by memory, each round
  // runs them first, on their own, then the rest.
  if (rank != 0) {
    do {
      if (!placed_tasks.big.empty()) dispatch({}, {}, hooks);
      dispatch({}, {}, hooks);
    } while (broadcast_quietly(0));
    return 0;
  }
  return run_rank0(opt, *checked, tasks, hooks, nranks, placed_tasks, layout);
}

}  // namespace drbench
