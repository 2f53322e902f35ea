// The step column of optimiser traces: kept by the task record and the HDF5 file, and files
// written before it (four columns) still read, with NaN steps.
#include <catch2/catch.hpp>
#include <cmath>

#include "framework/results/reader.hpp"
#include "framework/results/store.hpp"
#include "framework/support/h5.hpp"
#include "test_results_fixture.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("Trace steps survive the task record and the results file", "[results][trace]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  auto tasks = toy_tasks(ex);
  TaskResult r = traced_toy_result(tasks[4], "gd");
  r.trace.log(1, 2.0, 0.5, 0.25);  // no step recorded
  const TaskResult b = TaskResult::deserialize(r.serialize());
  REQUIRE(b.trace.rows.size() == 2);
  CHECK(b.trace.rows[0].step == 0.5);
  CHECK(std::isnan(b.trace.rows[1].step));

  const RunInfo info = toy_run_info("0.1.0", "");
  {
    ResultsStore store(ex, tasks, info, false);
    store.add(r);
    store.write_hdf5();
  }
  auto trace_of = [&](const ResultsFile& f) -> const Trace& {
    for (const auto& row : f.tasks)
      if (row.result.task_id == r.task_id) return row.result.trace;
    FAIL("task missing from the results file");
    return f.tasks.front().result.trace;
  };
  {
    const ResultsFile f = read_results(ex.output.path, true);
    const Trace& t = trace_of(f);
    REQUIRE(t.rows.size() == 2);
    CHECK(t.rows[0].step == 0.5);
    CHECK(std::isnan(t.rows[1].step));
    CHECK(t.rows[1].objective == 2.0);
  }
  // Replace the trace by the four-column layout of older files.
  {
    h5::File f = h5::open_file(ex.output.path, true);
    h5::Handle g = h5::open_group(f, f.h, "traces");
    const std::string id = std::to_string(r.task_id);
    REQUIRE(H5Ldelete(g, id.c_str(), H5P_DEFAULT) >= 0);
    const std::vector<double> m = {0, 3.0, 1.0, 0.0, 1, 2.0, 0.5, 0.25};
    h5::Handle d = h5::write_matrix(f, g, id, 2, 4, m.data());
    h5::attr_string(f, d, "optimizer", "gd");
    h5::attr_strings(f, d, "notes", {});
  }
  const ResultsFile f = read_results(ex.output.path, true);
  const Trace& t = trace_of(f);
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[1].seconds == 0.25);
  CHECK(std::isnan(t.rows[0].step));
}
