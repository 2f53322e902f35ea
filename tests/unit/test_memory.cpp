// The memory model: sizes as written on the command line, the up-front refusal of tasks, generated
// datasets and grids that cannot fit, and a task that runs out of memory all the same.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/config/experiment.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/data/generators.hpp"
#include "framework/data/load.hpp"
#include "framework/linalg/sparse_pca.hpp"
#include "framework/plan/task.hpp"
#include "framework/sched/memory_check.hpp"
#include "framework/sched/run_task.hpp"
#include "framework/sched/scheduler.hpp"
#include "framework/support/memory_size.hpp"
#include "framework/support/time_limit.hpp"
#include "unit/error_message.hpp"
#include "unit/fake_method.hpp"

namespace drbench {
namespace {

// Its estimate is four dense n x n matrices, 32 n^2 bytes, by construction, so the model's
// arithmetic can be checked. Its fit asks Armadillo for 2^52 doubles (32 PiB, beyond any address
// space), which fails in malloc on every machine: the allocation failure of a real fit, not a
// thrown stand-in.
MethodInfo test_mem_greedy() {
  MethodInfo m = testing::fake_method_info(
      "test_mem_greedy", "manifold",
      "fake method whose fit cannot get its memory, for the memory-model tests",
      [](const FitInput&) {
        arma::mat big(arma::uword(1) << 26, arma::uword(1) << 26);
        // Read from it so that the allocation cannot be optimised away.
        volatile double first = big(0, 0);
        (void)first;
      });
  return m;
}

std::string yaml_with(const std::string& datasets, const std::string& methods) {
  return "seed: 2\ndatasets: " + datasets + "\nsplits: {train_ratio: [0.5]}\nmethods: " + methods +
         "\n";
}

const std::string kIris = "[{name: iris, source: bundled}]";

// Dataset b, n generated blob points in dim-D (then `more` of its keys), under PCA to 2-D.
Experiment blob_pca(int n, int dim, const std::string& more, const std::string& file) {
  return parse_experiment(
      yaml_with("[{name: b, source: generator, generator: gaussian_blobs, "
                "params: {n: " +
                    std::to_string(n) + ", dim: " + std::to_string(dim) + "}" + more + "}]",
                "[{method: pca, dims: [2]}]"),
      file);
}

// The peak of ex under a limit it never reaches.
MemoryPeak peak_of(const Experiment& ex) {
  MemoryPeak peak;
  check_data_and_memory(ex, {1e12, "test"}, peak);
  return peak;
}

template <class F>
std::string error_of(F&& f) {
  return testing::message_of(std::forward<F>(f));
}

}  // namespace

// An estimate of four dense n x n matrices.
DRBENCH_METHOD(test_mem_greedy,
               make_budget(nullptr, [](const TaskSize& z) { return 32.0 * z.n * z.n; }))

TEST_CASE("memory sizes: units are powers of 1024, bad ones name the option", "[memory]") {
  CHECK(parse_memory_size("--memory-per-rank", "4G") == 4.0 * 1024 * 1024 * 1024);
  CHECK(parse_memory_size("--memory-per-rank", "1500M") == 1500.0 * 1024 * 1024);
  CHECK(parse_memory_size("--memory-per-rank", "2GiB") == 2.0 * 1024 * 1024 * 1024);
  CHECK(parse_memory_size("--memory-per-rank", "1.5t") == 1.5 * 1024 * 1024 * 1024 * 1024);
  CHECK(parse_memory_size("--memory-per-rank", "4096kb") == 4096.0 * 1024);
  for (const char* bad : {"", "4", "G", "-4G", "4X", "4GG", "4 G", "0.5K", "inf"}) {
    const std::string e = error_of([&] { parse_memory_size("--memory-per-rank", bad); });
    INFO(bad << ": " << e);
    CHECK(e.find("--memory-per-rank") != std::string::npos);
    CHECK(e.find("fix:") != std::string::npos);
  }
  CHECK(format_bytes(1536.0 * 1024 * 1024) == "1.5 GiB");
  CHECK(format_bytes(999) == "999 B");
  CHECK(format_bytes(1000.0 * 1024 * 1024) == "0.977 GiB");
  CHECK(node_memory_bytes() > 64.0 * 1024 * 1024);
  const MemoryLimit d = memory_limit_default(8.0 * 1024 * 1024 * 1024, 4);
  CHECK(d.bytes == 2.0 * 1024 * 1024 * 1024);
  CHECK(d.source.find("4 ranks") != std::string::npos);
}

TEST_CASE("memory: every task is held to the limit before anything runs", "[memory]") {
  const Experiment ex = parse_experiment(
      yaml_with(kIris,
                "[{method: pca, dims: [1]}, {method: test_mem_greedy, label: greedy, "
                "dims: [2]}]"),
      "cfg/m.yaml");
  MemoryPeak peak;
  const auto shapes = check_data_and_memory(ex, {1e12, "test"}, peak);
  // iris at train_ratio 0.5: 75 training points; the greedy fake's 32 n^2 is the largest need.
  REQUIRE(shapes[0].n == 75);
  CHECK(peak.method_bytes == 32.0 * 75 * 75);
  CHECK(peak.task.find("greedy") != std::string::npos);
  CHECK(peak.task.find("dim 2") != std::string::npos);
  // Resident: iris itself (150 x 4 doubles and labels) and two tasks' list entries, at least.
  CHECK(peak.resident_bytes >= 8.0 * 150 * 5 + 2 * kTaskListBytesPerTask);
  CHECK(peak.bytes == peak.method_bytes + peak.resident_bytes);
  CHECK(peak.over == 0);

  // Just below the need: refused at the method's line, naming task, estimate, limit and fixes.
  const std::string e = error_of([&] {
    MemoryPeak p;
    check_data_and_memory(ex, {peak.bytes - 1, "--memory-per-rank test"}, p);
  });
  CHECK(e.find("cfg/m.yaml:") != std::string::npos);
  CHECK(e.find("'methods[1]'") != std::string::npos);
  CHECK(e.find("dataset iris") != std::string::npos);
  CHECK(e.find("greedy (test_mem_greedy) {}, dim 2") != std::string::npos);
  CHECK(e.find("needs about " + format_bytes(peak.bytes)) != std::string::npos);
  CHECK(e.find("--memory-per-rank test") != std::string::npos);
  CHECK(e.find("fewer ranks per node") != std::string::npos);
  // At the limit exactly: accepted.
  MemoryPeak q;
  CHECK_NOTHROW(check_data_and_memory(ex, {peak.bytes, "test"}, q));
}

TEST_CASE("memory: a dimension-lowering preprocessing holds its raw block before the method",
          "[memory]") {
  // 400 points in 300-D, PCA to 5-D: the chain transforms a 300-D copy (8 x 400 x 300 bytes,
  // 938 KiB) before the partition shrinks to 5-D; pca's own estimate is far below it, so the
  // task needs the block, not the method, on top of what the rank holds.
  const MemoryPeak peak =
      peak_of(blob_pca(400, 300, ", preprocess: [{pca: {components: 5}}]", "cfg/p.yaml"));
  CHECK(peak.preprocess_bytes == 8.0 * 400 * 300);
  REQUIRE(peak.method_bytes < peak.preprocess_bytes);
  CHECK(peak.bytes == peak.resident_bytes + peak.preprocess_bytes);
  // Without the PCA step the partition is the block itself: nothing more is held.
  const MemoryPeak q = peak_of(blob_pca(400, 300, ", preprocess: [minmax]", "cfg/r.yaml"));
  CHECK(q.preprocess_bytes == 0);
  CHECK(q.bytes == q.resident_bytes + q.method_bytes);
}

TEST_CASE("memory: loading a dataset in full before max_points is counted and can be refused",
          "[memory]") {
  // 4,000 points in 200-D generated, 100 kept: loading holds all 4,000 and the 100 copied out
  // beside them, far more than PCA on 50 of the kept points needs.
  const Experiment ex = blob_pca(4000, 200, ", max_points: 100", "cfg/l.yaml");
  const MemoryPeak peak = peak_of(ex);
  const double kept = 8.0 * 100 * 201, loading = 8.0 * (4000 + 100) * 201;
  CHECK(peak.load_bytes == Approx(peak.resident_bytes - kept + loading).epsilon(1e-12));
  CHECK(peak.load == "dataset b: 4000 points read in 200-D, 100 kept");
  const double task = peak.resident_bytes + std::max(peak.method_bytes, peak.preprocess_bytes);
  REQUIRE(task < peak.load_bytes);
  CHECK(peak.load_dominates());
  CHECK(peak.bytes == peak.load_bytes);

  // A limit every task fits but the load does not: refused at the dataset, naming the load and
  // fixes that lower it (max_points does not).
  const std::string e = error_of([&] {
    MemoryPeak p;
    check_data_and_memory(ex, {(task + peak.load_bytes) / 2, "--memory-per-rank test"}, p);
  });
  CHECK(e.find("cfg/l.yaml:2: 'datasets[0]'") != std::string::npos);
  CHECK(e.find("loading dataset b: 4000 points read in 200-D, 100 kept, needs about " +
               format_bytes(peak.load_bytes)) != std::string::npos);
  CHECK(e.find("--memory-per-rank test") != std::string::npos);
  CHECK(e.find("lower max_points does not lower the load") != std::string::npos);
  CHECK(e.find("fewer ranks per node") != std::string::npos);
  CHECK(e.find("pre-subsample the file") != std::string::npos);
  // At the load's need exactly: accepted.
  MemoryPeak q;
  CHECK_NOTHROW(check_data_and_memory(ex, {peak.load_bytes, "test"}, q));

  // Without max_points the load holds the dataset as kept: nothing beyond the tasks' peak.
  const MemoryPeak r = peak_of(blob_pca(4000, 200, "", "cfg/a.yaml"));
  CHECK(r.load_bytes == 0);
  CHECK_FALSE(r.load_dominates());
  CHECK(r.bytes == r.resident_bytes + std::max(r.method_bytes, r.preprocess_bytes));
}

TEST_CASE("memory: a generator too large is refused before it allocates", "[memory]") {
  CHECK(generated_bytes("swiss_roll", {{"n", std::int64_t(1000)}}) == 8.0 * 1000 * 12);
  CHECK(generated_bytes("gaussian_blobs", {{"n", std::int64_t(1000)}, {"dim", std::int64_t(50)}}) ==
        8.0 * (2 * 50 * 1000 + 1000 + 50 * 3));
  // 10^7 points in 10^5 dimensions: 16 TB, which today ended in std::bad_alloc.
  const Experiment ex = parse_experiment(
      yaml_with("[{name: huge, source: generator, generator: gaussian_blobs, params: {n: 10000000, "
                "dim: 100000}}]",
                "[{method: pca, dims: [2]}]"),
      "cfg/g.yaml");
  const std::string e = error_of([&] { check_memory_before_data(ex, {4e9, "test"}); });
  CHECK(e.find("cfg/g.yaml:2: 'datasets[0].params'") != std::string::npos);
  CHECK(e.find("needs about 14.6 TiB") != std::string::npos);
  CHECK(e.find("lower params.n or params.dim") != std::string::npos);
  // The same through the whole check, which must not get as far as generating it.
  MemoryPeak p;
  CHECK(error_of([&] { check_data_and_memory(ex, {4e9, "test"}, p); }) == e);
}

TEST_CASE("memory: grids too large to list are refused with the key and a fix", "[memory]") {
  // Three axes of 5,000 values: 1.25e11 settings, terabytes before a single task exists.
  const std::string at_parse = error_of([] {
    parse_experiment(
        yaml_with(kIris,
                  "[{method: sammon, dims: [2], grid: {"
                  "iterations: {linspace: [1, 5000, 5000]}, "
                  "tolerance: {linspace: [0, 1, 5000]}, step: {linspace: [0.0001, 1, 5000]}}}]"),
        "cfg/h.yaml");
  });
  CHECK(at_parse.find("'methods[0].grid'") != std::string::npos);
  CHECK(at_parse.find("1.25e+11 settings (5000 iterations x 5000 tolerance x 5000 step)") !=
        std::string::npos);
  CHECK(at_parse.find("fewer values per axis") != std::string::npos);

  // 2,000 x 500 settings parse, but their task list does not fit 100 MiB per rank.
  const Experiment ex = parse_experiment(
      yaml_with(kIris,
                "[{method: pca, dims: [1]}, {method: lle, dims: [2], grid: {"
                "ridge: {linspace: [0.001, 1, 2000]}, neighbours: {linspace: [1, 500, 500]}}}]"),
      "cfg/t.yaml");
  CHECK(count_tasks(ex) == 1 + 2000.0 * 500);
  const std::string e = error_of([&] { check_memory_before_data(ex, {100.0 * (1 << 20), "t"}); });
  CHECK(e.find("'methods[1].grid'") != std::string::npos);
  CHECK(e.find("1e+06 tasks") != std::string::npos);
  CHECK(e.find("fix: fewer values per grid axis") != std::string::npos);
}

TEST_CASE("memory: a task that runs out of memory is a failed task, and the sweep goes on",
          "[memory]") {
  const Experiment ex =
      parse_experiment(yaml_with(kIris,
                                 "[{method: test_mem_greedy, label: greedy, dims: [2]}, "
                                 "{method: pca, dims: [2]}]"),
                       "cfg/o.yaml");
  TaskRunner runner(ex, data_search_path(""));
  const std::vector<Task> tasks = expand_tasks(ex);
  REQUIRE(tasks.size() == 2);
  const TaskResult greedy = runner.run(tasks[0], 0);
  CHECK_FALSE(greedy.ok);
  CHECK_FALSE(greedy.timed_out);
  // memory_of for the 75 training points in 4-D: 32 * 75^2 bytes = 176 KiB.
  CHECK(greedy.error.rfind(std::string(kEnvironmentFailure) + "out of memory (needed about " +
                               format_bytes(32.0 * 75 * 75),
                           0) == 0);
  CHECK(greedy.error.find("greedy on 75 points in 4-D") != std::string::npos);
  const TaskResult after = runner.run(tasks[1], 0);
  CHECK(after.ok);
}

}  // namespace drbench

namespace drbench {

TEST_CASE("memory: every method's estimate is finite, and linear ones grow linearly in n",
          "[memory]") {
  for (const MethodInfo& m : Registry::instance().all()) {
    if (m.name.rfind("test_", 0) == 0) continue;
    const ParamSet p = m.complete({});
    const double e = memory_of(m, DataShape{2000, 50, 10, 2000}, p, 2);
    INFO(m.name << ": " << e);
    CHECK(std::isfinite(e));
    CHECK(e > 0);
  }
  // PCA and LDA hold O(n d + d^2): ten times the points, about ten times the memory, where the
  // dense default grows a hundredfold.
  for (const char* name : {"pca", "lda"}) {
    const MethodInfo& m = Registry::instance().get(name);
    const ParamSet p = m.complete({});
    const double small = memory_of(m, DataShape{2000, 50, 10, 2000}, p, 2);
    const double large = memory_of(m, DataShape{20000, 50, 10, 20000}, p, 2);
    INFO(name);
    CHECK(large / small < 10.5);
    CHECK(large < memory_default(DataShape{20000, 50, 10, 20000}, 2) / 100);
  }
}

}  // namespace drbench

namespace drbench {

TEST_CASE("memory: a task's peak resident size is its own after the reset", "[memory]") {
  if (!reset_peak_resident()) {
    WARN("not checked: this system does not let a process reset its peak (Linux 4.0 and later do)");
    return;
  }
  const std::uint64_t before = peak_resident_bytes();
  REQUIRE(before > 0);
  {
    std::vector<char> big(256u << 20);
    for (std::size_t i = 0; i < big.size(); i += 4096) big[i] = 1;  // touch every page
    CHECK(peak_resident_bytes() >= before + (200u << 20));
  }
  // Freed and reset: the peak is back near what the process holds now, far below the block.
  REQUIRE(reset_peak_resident());
  CHECK(peak_resident_bytes() < before + (100u << 20));
}

TEST_CASE("memory: a sparse dataset is counted sparse, and densifying it is refused up front",
          "[memory][sparse]") {
  // 1,000,000 cells x 30,000 genes at 1 % density: 3e8 stored entries, 4.5 GiB sparse, 224 GiB
  // dense. Without a pca first the methods would get the dense points: refused at the dataset's
  // preprocess key with the dense size and the fix; with pca(components=50) it fits 16 GiB.
  const DataShape full{1000000, 30000, 10};
  const std::vector<LoadShape> loads{LoadShape{1000000, 1000000, 3e8}};
  const std::string head = "seed: 2\ndatasets: [{name: cells, path: cells.h5ad, labels: type";
  const std::string tail =
      "}]\nsplits: {train_ratio: [0.5]}\nmethods: [{method: pca, dims: [2]}]\n";
  const MemoryLimit limit{16.0 * (1ull << 30), "--memory-per-rank 16G"};
  const Experiment dense =
      parse_experiment(head + ", preprocess: [standardize]" + tail, "c/d.yaml");
  const std::string e = error_of([&] {
    check_memory(dense, {DataShape{500000, 30000, 10}}, {full}, limit, loads);
  });
  CHECK(e.find("c/d.yaml:2: 'datasets[0].preprocess'") != std::string::npos);
  CHECK(e.find("is sparse (1000000 x 30000, 1 % stored, " +
               format_bytes(16.0 * 3e8 + 16.0 * 1000000 + 8)) != std::string::npos);
  CHECK(e.find("up to " + format_bytes(8.0 * 1e6 * 30000)) != std::string::npos);
  CHECK(e.find("add preprocessing: [pca(components=50)]") != std::string::npos);
  CHECK(e.find("--memory-per-rank 16G") != std::string::npos);

  const Experiment pca =
      parse_experiment(head + ", preprocess: [{pca: {components: 50}}]" + tail, "c/p.yaml");
  const MemoryPeak peak = check_memory(pca, {DataShape{500000, 50, 10}}, {full}, limit, loads);
  // Resident: the sparse matrix (not 8 n d) and the 50-D partition; the preprocessing block: a
  // sparse copy of the partition's columns and the Lanczos workspace.
  const double sparse = 16.0 * 3e8 + 16.0 * 1000000 + 8;
  CHECK(peak.resident_bytes > sparse);
  CHECK(peak.resident_bytes < sparse + 8.0 * 1e6 * 50 + 64.0 * (1 << 20));
  CHECK(peak.preprocess_bytes == Approx(sparse + pca_of_sparse_bytes(30000, 1000000, 50)));
  CHECK(peak.bytes < limit.bytes);
}

TEST_CASE("memory: methods that read sparse points are counted sparse", "[memory][sparse]") {
  // The same 1,000,000 x 30,000 set at 1 %: UMAP under the transductive protocol with no chain
  // gets the sparse points (its estimate for points of the same bytes, d = 2 nnz / n = 600, and
  // the sparse search's buffers), so it fits 32 GiB (the dataset, the partition, UMAP's copy and
  // the search's index: 4.5 GiB each) where the dense points (224 GiB) never would.
  const DataShape full{1000000, 30000, 10};
  const std::vector<LoadShape> loads{LoadShape{1000000, 1000000, 3e8}};
  const std::string head =
      "seed: 2\ndatasets: [{name: cells, path: cells.h5ad, labels: type}]\n"
      "splits: {train_ratio: [0.5]}\nevaluation: {protocol: transductive}\nmethods: [";
  const MemoryLimit limit{32.0 * (1ull << 30), "--memory-per-rank 32G"};
  const Experiment umap = parse_experiment(head + "{method: umap, dims: [2]}]\n", "c/u.yaml");
  const MemoryPeak peak = check_memory(umap, {DataShape{500000, 30000, 10}}, {full}, limit, loads);
  const double sparse = 16.0 * 3e8 + 16.0 * 1000000 + 8;
  CHECK(peak.bytes < limit.bytes);
  // Resident: the dataset and its partition, both sparse.
  CHECK(peak.resident_bytes > 2 * sparse);
  CHECK(peak.resident_bytes < 2 * sparse + 64.0 * (1 << 20) + kProcessBytes);
  // Its fit set (the 500,000 points the shapes give) twice: UMAP's copy and the search's index.
  CHECK(peak.method_bytes > 2 * 16.0 * 1.5e8);
  CHECK(peak.method_bytes < 16.0 * (1ull << 30));

  // Beside a method that needs dense points: refused, naming that method and the readers.
  const Experiment mixed = parse_experiment(
      head + "{method: umap, dims: [2]}, {method: laplacian_eigenmaps, label: LE, dims: [2]}]\n",
      "c/m.yaml");
  const std::string e = error_of([&] {
    check_memory(mixed, {DataShape{500000, 30000, 10}}, {full}, limit, loads);
  });
  CHECK(e.find("c/m.yaml:2: 'datasets[0].preprocess'") != std::string::npos);
  CHECK(e.find("LE (methods[1], laplacian_eigenmaps) gets dense points") != std::string::npos);
  CHECK(e.find("methods that read sparse points (tsne, umap)") != std::string::npos);
  // Holdout or a quality measure: umap needs the dense points too.
  const Experiment holdout = parse_experiment(
      "seed: 2\ndatasets: [{name: cells, path: cells.h5ad, labels: type}]\n"
      "splits: {train_ratio: [0.5]}\nevaluation: {protocol: holdout}\n"
      "methods: [{method: umap, dims: [2]}]\n",
      "c/h.yaml");
  CHECK_THROWS_AS(check_memory(holdout, {DataShape{500000, 30000, 10}}, {full}, limit, loads),
                  ConfigError);
}

}  // namespace drbench
