// Where a fit's optimiser ended is kept for every task, with or without its trace: a table run at
// cluster scale keeps no traces, and its reader must still see which fits ran out of iterations.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include "framework/config/experiment.hpp"
#include "framework/core/registry.hpp"
#include "framework/plan/task.hpp"
#include "framework/results/reader.hpp"
#include "framework/results/store.hpp"
#include "framework/sched/run_task.hpp"
#include "framework/support/h5.hpp"
#include "test_results_fixture.hpp"

using namespace drbench;
using namespace drbench::testing;

namespace {

// Standardized iris, one partition, the given methods entries.
std::string config(bool keep_traces, const std::string& methods =
                                         "  - {method: gplvm, dims: [2], grid: {iterations: "
                                         "15}}\n  - {method: pca, dims: [2]}\n") {
  return "seed: 5\ndatasets:\n  - {name: iris, source: bundled, preprocess: [{standardize: {}}]}\n"
         "splits: {train_ratio: [0.5], repeats: 1}\nmethods:\n" +
         methods + "evaluation: {knn: [1]}\noutput: {path: unused.h5, keep_traces: " +
         (keep_traces ? "true" : "false") + "}\n";
}

// The single task of `yaml` (named `file`), run here; it must succeed.
std::pair<Task, TaskResult> run_single_task(const std::string& yaml, const std::string& file) {
  const Experiment ex = parse_experiment(yaml, file);
  TaskRunner runner(ex, {});
  const std::vector<Task> tasks = expand_tasks(ex);
  REQUIRE(tasks.size() == 1);
  const TaskResult r = runner.run(tasks[0], 0);
  REQUIRE(r.ok);
  return {tasks[0], r};
}

}  // namespace

TEST_CASE("trace end: the last row and stop reason, kept when the trace is dropped",
          "[results][trace]") {
  const Experiment with = parse_experiment(config(true), "with.yaml");
  const Experiment without = parse_experiment(config(false), "without.yaml");
  const std::vector<Task> tasks = expand_tasks(with);
  REQUIRE(tasks.size() == 2);
  TaskRunner a(with, {}), b(without, {});
  const TaskResult gp = a.run(tasks[0], 0), gp_bare = b.run(tasks[0], 0);
  REQUIRE(gp.ok);
  REQUIRE_FALSE(gp.trace.rows.empty());
  CHECK(gp.fit_end.iterations == std::uint64_t(gp.trace.rows.back().iteration));
  CHECK(gp.fit_end.iterations <= 15);
  CHECK(gp.fit_end.objective == gp.trace.rows.back().objective);
  CHECK(gp.fit_end.grad_norm == gp.trace.rows.back().grad_norm);
  CHECK_FALSE(gp.fit_end.stop_reason.empty());
  // Without traces the same fit (same seed, same numbers) reports the same end.
  CHECK(gp_bare.trace.rows.empty());
  CHECK(gp_bare.fit_end.iterations == gp.fit_end.iterations);
  CHECK(gp_bare.fit_end.objective == gp.fit_end.objective);
  CHECK(gp_bare.fit_end.stop_reason == gp.fit_end.stop_reason);
  // A closed-form method has no optimiser.
  const TaskResult pca = b.run(tasks[1], 0);
  REQUIRE(pca.ok);
  CHECK(pca.fit_end.iterations == 0);
  CHECK(std::isnan(pca.fit_end.objective));
  CHECK(pca.fit_end.stop_reason.empty());
}

TEST_CASE("trace end: stored in the task table, and read from traces in older files",
          "[results][trace]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  auto tasks = toy_tasks(ex);
  TaskResult r = traced_toy_result(tasks[4], "scg");
  r.trace.log(7, 2.0, 0.5, 0.25, 0.1);
  r.trace.note("stop_reason", "x_and_f_tolerance");
  r.fit_end = trace_end(r.trace);
  TaskResult closed = toy_result(tasks[5], 0.25, 0.5);  // no trace
  const RunInfo info = toy_run_info("0.1.0", "");
  {
    ResultsStore store(ex, tasks, info, false);
    store.add(r);
    store.add(closed);
    store.write_hdf5();
  }
  auto end_of = [](const ResultsFile& f, std::uint64_t id) {
    for (const auto& row : f.tasks)
      if (row.result.task_id == id) return row.result.fit_end;
    FAIL("task missing from the results file");
    return TraceEnd{};
  };
  for (bool arrays : {false, true}) {
    const ResultsFile f = read_results(ex.output.path, arrays);
    const TraceEnd e = end_of(f, r.task_id);
    CHECK(e.iterations == 7);
    CHECK(e.objective == 2.0);
    CHECK(e.grad_norm == 0.5);
    CHECK(e.stop_reason == "x_and_f_tolerance");
    CHECK(end_of(f, closed.task_id).iterations == 0);
    CHECK(std::isnan(end_of(f, closed.task_id).objective));
  }
  // A file from before these columns: the end comes from the trace where one was kept.
  {
    h5::File f = h5::open_file(ex.output.path, true);
    h5::Handle g = h5::open_group(f, f.h, "tasks");
    for (const char* name : {"iterations", "final_objective", "final_grad_norm", "stop_reason"})
      REQUIRE(H5Ldelete(g, name, H5P_DEFAULT) >= 0);
  }
  const ResultsFile old = read_results(ex.output.path, true);
  CHECK(end_of(old, r.task_id).iterations == 7);
  CHECK(end_of(old, r.task_id).stop_reason == "x_and_f_tolerance");
  const ResultsFile old_bare = read_results(ex.output.path, false);
  CHECK(end_of(old_bare, r.task_id).iterations == 0);
  CHECK(std::isnan(end_of(old_bare, r.task_id).objective));
}

TEST_CASE("gp-lvm tolerance: 0 runs every iteration, a loose one stops at once", "[gplvm][trace]") {
  auto run = [](const std::string& tolerance) {
    const auto [task, r] = run_single_task(
        config(false, "  - {method: gplvm, dims: [2], grid: {iterations: 40" + tolerance + "}}\n"),
        "tol.yaml");
    return std::make_pair(task.key, r.fit_end);
  };
  const auto [key0, all] = run(", tolerance: 0");
  CHECK(all.iterations == 40);
  CHECK(all.stop_reason == "max_iterations");
  const auto [key_loose, loose] = run(", tolerance: 1e6");
  CHECK(loose.iterations < 10);  // at its first accepted step
  CHECK(loose.stop_reason == "x_and_f_tolerance");
  // At its default (Netlab's 1e-4) the tolerance stays out of the setting's key, so results
  // written before it was a parameter still resume; any other value is part of the key.
  const auto [key_default, unused] = run("");
  const auto [key_explicit, unused2] = run(", tolerance: 0.0001");
  CHECK(key_default.find("tolerance") == std::string::npos);
  CHECK(key_explicit == key_default);
  CHECK(key0.find("tolerance=0,") != std::string::npos);
  CHECK(key_loose.find("tolerance=1000000") != std::string::npos);
}

TEST_CASE("gp-lvm objective_tolerance stops a fit by its rate of descent",
          "[gplvm][trace][window]") {
  auto run = [](const std::string& extra) {
    const auto [task, r] = run_single_task(
        config(true, "  - {method: gplrf, dims: [2], grid: {iterations: 60, tolerance: 0" + extra +
                         "}}\n"),
        "win.yaml");
    return std::make_tuple(task.key, r.fit_end, r.trace);
  };
  const auto [key_off, all, trace_all] = run("");
  CHECK(all.iterations == 60);
  CHECK(all.stop_reason == "max_iterations");
  // Any tolerance passes once the window is full when it is huge: the stop is at the window.
  const auto [key_huge, huge, unused] = run(", objective_tolerance: 1e6, tolerance_window: 7");
  CHECK(huge.iterations == 7);
  CHECK(huge.stop_reason == "objective_tolerance");
  // A real one: with the tolerance at the median of the full run's 10-iteration relative
  // decreases, the fit must stop at the first iteration whose decrease is within it (the same
  // start and steps up to there).
  std::vector<double> rel;
  auto rel_at = [&](std::size_t i) {
    const double fi = trace_all.rows[i].objective;
    return (trace_all.rows[i - 10].objective - fi) / std::max(std::abs(fi), 1.0);
  };
  for (std::size_t i = 10; i < trace_all.rows.size(); ++i) rel.push_back(rel_at(i));
  REQUIRE(rel.size() > 10);
  std::nth_element(rel.begin(), rel.begin() + rel.size() / 2, rel.end());
  const double tol_value = rel[rel.size() / 2];
  REQUIRE(tol_value > 0);
  int first = -1;
  for (std::size_t i = 10; i < trace_all.rows.size() && first < 0; ++i)
    if (rel_at(i) <= tol_value) first = int(i);
  REQUIRE(first > 0);
  char buf[96];
  std::snprintf(buf, sizeof buf, ", objective_tolerance: %.17g, tolerance_window: 10", tol_value);
  const auto [key_tol, tol, trace_tol] = run(buf);
  INFO("tolerance " << tol_value << ", first iteration of the full run passing it: " << first);
  CHECK(tol.stop_reason == "objective_tolerance");
  CHECK(tol.iterations == std::uint64_t(first));
  for (int i = 0; i <= first; ++i)
    CHECK(trace_tol.rows[i].objective == trace_all.rows[i].objective);
  // Off by default and out of the key there, so the committed tables' tasks keep resuming.
  CHECK(key_off.find("objective_tolerance") == std::string::npos);
  CHECK(key_off.find("tolerance_window") == std::string::npos);
  CHECK(key_off.find("gradient_tolerance") == std::string::npos);
  CHECK(key_tol.find("objective_tolerance=") != std::string::npos);
  CHECK(key_tol.find("tolerance_window=10") != std::string::npos);
}

TEST_CASE("task keys of the GPLRF Table 1 runs are unchanged", "[tasks][gplvm]") {
  // The setting of one rankGPLVM cell as results/gplrf_usps-table1_halving_30.h5 records it
  // (settings version 1, before alpha became lambda): the file's settings read back as the
  // current canonical text, and the seed text is the recorded one, so those runs resume with
  // their finished tasks and their seeds.
  const std::string recorded =
      "alpha=100,back_constraint=rbf,hidden=20,init=pca,iterations=1000,kernel=rbf,"
      "kernel_width=10,learn_kernel=false,oos_iterations=200,optimizer=scg,rank_beta=1,"
      "x_prior=0";
  ParamSet given;
  given.set("lambda", 100.0);
  given.set("init", std::string("pca"));
  given.set("kernel_width", 10.0);
  given.set("learn_kernel", false);
  const MethodInfo& rank = Registry::instance().get("rankgplvm");
  const ParamSet p = rank.complete(given);
  CHECK(p.canonical() ==
        "back_constraint=rbf,hidden=20,init=pca,iterations=1000,kernel=rbf,kernel_width=10,"
        "lambda=100,learn_kernel=false,oos_iterations=200,optimizer=scg,rank_beta=1,x_prior=0");
  CHECK(rank.migrate_setting(recorded, 1) == p.canonical());
  CHECK(rank.migrate_setting(p.canonical(), 1) == p.canonical());  // idempotent
  CHECK(rank.seed_setting(p) == recorded);
}
