#include "framework/sched/memory_check.hpp"

#include <algorithm>
#include <cmath>

#include "framework/budget/budget.hpp"
#include "framework/config/validate.hpp"
#include "framework/core/error.hpp"
#include "framework/data/generators.hpp"
#include "framework/data/preprocess.hpp"
#include "framework/linalg/sparse_pca.hpp"
#include "framework/neighbours/sparse_knn.hpp"
#include "framework/plan/task.hpp"
#include "framework/sched/run_task.hpp"

namespace drbench {

namespace {

double settings_of(const MethodSpec& m) {
  double n = 1;
  for (const auto& a : m.grid) n *= double(a.values.size());
  return n;
}

double bytes_of_dataset(const DataShape& s, double nnz = 0) {
  // Sparse points: a value and a row index per stored entry and a column offset per point.
  if (nnz > 0) return 16.0 * nnz + 8.0 * double(s.n + 1) + 8.0 * double(s.n);
  return 8.0 * double(s.n) * double(s.d) + 8.0 * double(s.n);  // points and labels
}

// A sparse dataset's block beyond its kept matrix while a partition is preprocessed: the copy of
// the partition's columns and pca_of_sparse's workspace where the chain keeps them sparse (the
// dense projection is the partition), else nothing beyond the dense partition itself.
double sparse_preprocess_bytes(const DatasetSpec& spec, const DataShape& full, double nnz,
                               arma::uword k) {
  if (nnz <= 0 || !Pipeline::sparse_runs(spec.preprocess)) return 0;
  return bytes_of_dataset(full, nnz) + pca_of_sparse_bytes(full.d, full.n, k);
}

double nnz_of(const std::vector<LoadShape>& loads, std::size_t i) {
  return i < loads.size() ? loads[i].nnz : 0.0;
}

const std::vector<PreprocStep>& chain_of(const Experiment& ex, std::size_t mi, std::size_t di) {
  const MethodSpec& ms = ex.methods.at(mi);
  return ms.preprocess ? *ms.preprocess : ex.datasets.at(di).preprocess;
}

// The first method whose tasks on sparse dataset di get dense points (ex.methods.size(): none).
std::size_t first_densifying(const Experiment& ex, std::size_t di) {
  for (std::size_t mi = 0; mi < ex.methods.size(); ++mi) {
    const std::vector<PreprocStep>& chain = chain_of(ex, mi, di);
    if (!Pipeline::sparse_runs(chain) && !keeps_sparse(ex, mi, chain)) return mi;
  }
  return ex.methods.size();
}

// What method mi holds on sparse dataset di's points kept sparse (keeps_sparse), shape s: its
// estimate for dense points of the same bytes (a stored entry, 16 bytes, counts as two dense
// coordinates: d = 2 nnz / n), which covers its copies of the points (the search's index is one),
// and the sparse search's buffers per thread; where the task's points are dense, its own estimate.
double method_bytes(const Experiment& ex, const MethodInfo& info, std::size_t mi, std::size_t di,
                    DataShape s, const ParamSet& setting, arma::uword dim, const DataShape& full,
                    double nnz) {
  if (nnz <= 0 || full.n == 0 || !keeps_sparse(ex, mi, chain_of(ex, mi, di)))
    return memory_of(info, s, setting, dim == 0 ? s.d : dim);
  const double nnz_fit = nnz * double(s.n) / double(full.n);
  s.d = std::max<arma::uword>(
      1, arma::uword(std::ceil(2.0 * nnz_fit / double(std::max<arma::uword>(1, s.n)))));
  return memory_of(info, s, setting, dim == 0 ? s.d : dim) +
         sparse_knn_bytes(s.n, 0.0, 0, unsigned(std::max(1, ex.threads)));
}

// Where a method's memory can be lowered by its own parameters, say which.
std::string method_fixes(const MethodInfo& info) {
  std::vector<std::string> own;
  for (const char* p : {"landmarks", "neighbour_graph", "inducing", "active_set"})
    if (info.param(p))
      own.push_back(p == std::string("neighbour_graph") ? "neighbour_graph: approximate"
                                                        : std::string("fewer ") + p);
  std::string s;
  for (const auto& o : own) s += (s.empty() ? "" : " or ") + o;
  return s.empty() ? "" : s + " for " + info.name + ", ";
}

// The shape a method's task on dataset di at split value `value` fits, maps and scores.
DataShape fit_shape(const Experiment& ex, const std::vector<DataShape>& shapes,
                    const std::vector<DataShape>& full, bool joint_shapes, std::size_t mi,
                    std::size_t di, double value) {
  const bool transductive = ex.methods[mi].transductive();
  DataShape s = scale_to_split(ex.splits, value, shapes[di]);
  // Training points cannot outnumber the dataset; the transductive fit is (nearly) all of it at
  // every split value.
  if (s.n > full[di].n || transductive) s.n = std::min(full[di].n, std::max(s.n, shapes[di].n));
  // Holdout: every point not trained on is mapped and scored, or test_per_class of each class.
  // Transductive beside holdout methods: `shapes` count the training points only
  // (check_dataset), so the fit set adds those test points.
  const arma::uword rest = full[di].n - std::min(s.n, full[di].n);
  const std::uint64_t per = ex.splits.test_per_class;
  const arma::uword tested = per > 0 ? std::min<arma::uword>(rest, per * full[di].n_classes) : rest;
  if (!transductive)
    s.n_test = tested;
  else if (!joint_shapes)
    s.n = std::min(full[di].n, s.n + tested);
  return s;
}

// The raw-dimension block a dimension-lowering preprocessing transforms first (the largest).
double raw_block_of(const Experiment& ex, const std::vector<DataShape>& shapes,
                    const std::vector<DataShape>& full, const std::vector<LoadShape>& loads) {
  double raw_block = 0;
  for (std::size_t i = 0; i < full.size(); ++i)
    if (nnz_of(loads, i) > 0)
      raw_block = std::max(raw_block, sparse_preprocess_bytes(ex.datasets[i], full[i],
                                                              nnz_of(loads, i), shapes[i].d));
    else if (shapes[i].d != full[i].d)
      raw_block = std::max(raw_block, 8.0 * double(full[i].n) * double(full[i].d));
  return raw_block;
}

// A sparse dataset whose preprocessing makes the methods' input dense: refused at its
// preprocess key when the dense partition does not fit beside what the rank holds, with the
// fix that keeps it sparse.
void check_densified(const Experiment& ex, const std::vector<DataShape>& full,
                     const std::vector<LoadShape>& loads, const MemoryLimit& limit,
                     double resident_without_partitions) {
  for (std::size_t i = 0; i < full.size(); ++i) {
    const DatasetSpec& d = ex.datasets[i];
    const double nnz = nnz_of(loads, i);
    const std::size_t mi = first_densifying(ex, i);
    if (nnz <= 0 || mi == ex.methods.size()) continue;
    const double dense = 8.0 * double(full[i].n) * double(full[i].d);
    const double need = resident_without_partitions + dense;
    if (need <= limit.bytes) continue;
    char density[32];
    std::snprintf(density, sizeof density, "%.3g",
                  100.0 * nnz / (double(full[i].n) * double(full[i].d)));
    std::string chain, readers;
    for (const auto& st : chain_of(ex, mi, i)) chain += (chain.empty() ? "" : ", ") + st.describe();
    for (const std::string& name : Registry::instance().names())
      if (Registry::instance().get(name).sparse_input)
        readers += (readers.empty() ? "" : ", ") + name;
    const MethodSpec& m = ex.methods[mi];
    throw ConfigError(
        ex.file, d.line, "datasets[" + std::to_string(i) + "].preprocess",
        "dataset '" + d.name + "' is sparse (" + std::to_string(full[i].n) + " x " +
            std::to_string(full[i].d) + ", " + density + " % stored, " +
            format_bytes(bytes_of_dataset(full[i], nnz)) + " kept sparse), but " + m.label +
            " (methods[" + std::to_string(mi) + "], " + m.method + ") gets dense points from it" +
            " with preprocessing [" + chain + "]: up to " + format_bytes(dense) + " for the " +
            std::to_string(full[i].n) + " points in " + std::to_string(full[i].d) + "-D, about " +
            format_bytes(need) + " with what the rank holds, and one rank may use " +
            format_bytes(limit.bytes) + " (" + limit.source + ")",
        "add preprocessing: [pca(components=50)] (first, or after unit_norm: PCA runs on the "
        "sparse matrix and hands the methods 50-D dense points), or fewer points (max_points), "
        "or select features before loading; methods that read sparse points (" +
            readers +
            ") get them as they are under protocol: transductive with no preprocessing and no "
            "quality measures");
  }
}

// The fewest slots a task takes on any of `nodes` (0: it fits none, or there are none).
int fewest_slots(double bytes, double resident, const std::vector<NodeMemory>& nodes) {
  int best = 0;
  for (const NodeMemory& n : nodes) {
    const int m = slots_on_node(bytes, resident, n);
    if (m > 0 && (best == 0 || m < best)) best = m;
  }
  return best;
}

// Why a task that fits no rank's share fits no node either: the most any node gives one task.
std::string nodes_text(const std::vector<NodeMemory>& nodes, double resident) {
  if (nodes.empty()) return "";
  double most = 0;
  const NodeMemory* at = &nodes.front();
  for (const NodeMemory& n : nodes)
    if (n.budget - n.ranks * resident > most) most = n.budget - n.ranks * resident, at = &n;
  return ", and no node has room for it even with its other ranks held back (at most " +
         format_bytes(std::max(most, 0.0)) + " for one task on a node of " +
         format_bytes(at->budget) + " and " + std::to_string(at->ranks) + " rank(s))";
}

}  // namespace

double count_tasks(const Experiment& ex) {
  double per_split = 0;  // tasks of one partition of every dataset
  for (std::size_t di = 0; di < ex.datasets.size(); ++di)
    for (std::size_t mi = 0; mi < ex.methods.size(); ++mi)
      per_split += settings_of(ex.methods[mi]) * double(task_dims(ex, di, mi).size());
  return double(ex.splits.values.size()) * double(ex.splits.repeats) * per_split;
}

void check_memory_before_data(const Experiment& ex, const MemoryLimit& limit) {
  for (std::size_t i = 0; i < ex.datasets.size(); ++i) {
    const DatasetSpec& d = ex.datasets[i];
    if (d.source != "generator") continue;
    double bytes = 0;
    try {
      bytes = generated_bytes(d.generator, d.generator_params);
    } catch (const DataError&) {
      continue;  // a bad parameter: loading reports it with its key
    }
    if (bytes <= limit.bytes) continue;
    const bool blobs = d.generator_params.count("dim") > 0;
    throw ConfigError(ex.file, d.line, "datasets[" + std::to_string(i) + "].params",
                      "generator " + d.generator + " for dataset '" + d.name + "' needs about " +
                          format_bytes(bytes) + " to generate, but one rank may use " +
                          format_bytes(limit.bytes) + " (" + limit.source + ")",
                      std::string("lower params.n") + (blobs ? " or params.dim" : "") +
                          " (every rank generates the whole dataset; max_points subsamples only "
                          "after), or raise --memory-per-rank if the node has the memory");
  }
  const double tasks = count_tasks(ex), bytes = tasks * kTaskListBytesPerTask;
  if (bytes <= limit.bytes) return;
  // Point at the method whose grid contributes most.
  std::size_t worst = 0;
  double most = -1;
  for (std::size_t mi = 0; mi < ex.methods.size(); ++mi) {
    double n = 0;
    for (std::size_t di = 0; di < ex.datasets.size(); ++di)
      n += settings_of(ex.methods[mi]) * double(task_dims(ex, di, mi).size());
    if (n > most) most = n, worst = mi;
  }
  const MethodSpec& m = ex.methods.at(worst);
  const int line = m.grid.empty() ? m.line : m.grid.front().line;
  char count[64];
  std::snprintf(count, sizeof count, "%.4g", tasks);
  char settings[64];
  std::snprintf(settings, sizeof settings, "%.4g", settings_of(m));
  throw ConfigError(ex.file, line, "methods[" + std::to_string(worst) + "].grid",
                    "the experiment expands to " + std::string(count) + " tasks (" + m.label +
                        "'s grid alone has " + settings + " settings), whose list needs about " +
                        format_bytes(bytes) + " on every rank, but one rank may use " +
                        format_bytes(limit.bytes) + " (" + limit.source + ")",
                    "fewer values per grid axis (a coarse grid first, then a finer one around "
                    "its best setting), or fewer dims, split values or repeats");
}

namespace {

// Held by a rank whatever it runs, the partition cache aside: the process itself, every dataset
// it may get a task of (it stays loaded) and the task list.
double held_bytes(const Experiment& ex, const std::vector<DataShape>& full,
                  const std::vector<LoadShape>& loads) {
  double data = 0;
  for (std::size_t i = 0; i < full.size(); ++i) data += bytes_of_dataset(full[i], nnz_of(loads, i));
  return data + count_tasks(ex) * kTaskListBytesPerTask + kProcessBytes;
}

// What held_bytes counts, plus the partitions (training and test points, preprocessed), cached up
// to the cache's budget, which always keeps the one in use.
double resident_bytes(const Experiment& ex, const std::vector<DataShape>& shapes,
                      const std::vector<DataShape>& full, const std::vector<LoadShape>& loads) {
  double partitions = 0, one_partition = 0;
  const double groups =
      double(std::max<std::size_t>(1, ex.splits.values.size())) * double(ex.splits.repeats);
  for (std::size_t i = 0; i < full.size(); ++i) {
    // Points a method reads sparse: the fit set's columns, copied sparse; the others' dense.
    bool sparse = false, dense = nnz_of(loads, i) <= 0;
    for (std::size_t mi = 0; mi < ex.methods.size() && !dense; ++mi)
      (keeps_sparse(ex, mi, chain_of(ex, mi, i)) ? sparse : dense) = true;
    const double partition = std::max(sparse ? bytes_of_dataset(full[i], nnz_of(loads, i)) : 0.0,
                                      dense ? 8.0 * double(full[i].n) * double(shapes[i].d) : 0.0);
    partitions += groups * partition;
    one_partition = std::max(one_partition, partition);
  }
  return held_bytes(ex, full, loads) +
         std::max(one_partition, std::min(partitions, double(TaskRunner::kSplitCacheBytes)));
}

// Loading dataset i holds the source's points in full (n_read) and, while classes or max_points
// copy out the points kept, those too (n_peak counts both; the IDX reader decodes only the kept
// images, so its n_peak is their number, plus a chunk of 2.3 MiB within kProcessBytes' slack). A
// worker rank loads a dataset when its first task arrives, in no fixed order, so every other
// dataset and the partition cache may be resident then: the load needs the rank's resident size
// with dataset i at its load peak instead of its kept size. Fewer kept points (max_points) do not
// lower it. Sets peak.load_bytes and peak.load; throws when one rank cannot hold the load.
void check_load_peak(const Experiment& ex, const std::vector<DataShape>& full,
                     const std::vector<LoadShape>& loads, const MemoryLimit& limit,
                     MemoryPeak& peak) {
  std::size_t load_at = 0;
  for (std::size_t i = 0; i < loads.size(); ++i) {
    const arma::uword n_peak = std::max(loads[i].n_peak, full[i].n);
    const double nnz = nnz_of(loads, i);
    const double nnz_peak = full[i].n ? nnz * double(n_peak) / double(full[i].n) : 0.0;
    const double need = peak.resident_bytes - bytes_of_dataset(full[i], nnz) +
                        bytes_of_dataset(DataShape{n_peak, full[i].d, full[i].n_classes}, nnz_peak);
    if (n_peak == full[i].n || need <= peak.load_bytes) continue;
    peak.load_bytes = need;
    load_at = i;
    peak.load = "dataset " + ex.datasets[i].name + ": " + std::to_string(loads[i].n_read) +
                " points read in " + std::to_string(full[i].d) + "-D, " +
                std::to_string(full[i].n) + " kept";
  }
  if (peak.load_bytes <= limit.bytes) return;
  const DatasetSpec& d = ex.datasets.at(load_at);
  throw ConfigError(
      ex.file, d.line, "datasets[" + std::to_string(load_at) + "]",
      "loading " + peak.load + ", needs about " + format_bytes(peak.load_bytes) +
          " (every point of the source is read before classes and max_points keep their " +
          "share, and the kept copy is made beside them; with what the rank holds: process, " +
          "other data, partitions, task list), but one rank may use " + format_bytes(limit.bytes) +
          " (" + limit.source + ")",
      "a lower max_points does not lower the load; raise --memory-per-rank if each rank has "
      "more memory than that, or run fewer ranks per node with --memory-per-rank raised to "
      "match, or pre-subsample the file (write the kept points to their own file and load "
      "that)");
}

// Every (method, dataset, split value, setting, dim) against the rank's share: the largest one
// (peak.bytes, .task, .method_bytes), the tasks that must be placed on a node's several slots
// (peak.big) and those no node holds (peak.over). Returns the method of the largest.
std::size_t method_peaks(const Experiment& ex, const std::vector<DataShape>& shapes,
                         const std::vector<DataShape>& full, const std::vector<LoadShape>& loads,
                         const MemoryLimit& limit, const std::vector<NodeMemory>& nodes,
                         MemoryPeak& peak) {
  const double resident = peak.resident_bytes, raw_block = peak.preprocess_bytes;
  std::size_t peak_method = 0;
  const bool joint_shapes = std::all_of(ex.methods.begin(), ex.methods.end(),
                                        [](const MethodSpec& m) { return m.transductive(); });
  for (std::size_t mi = 0; mi < ex.methods.size(); ++mi) {
    const MethodSpec& m = ex.methods[mi];
    const MethodInfo& info = Registry::instance().get(m.method);
    const std::vector<ParamSet> settings = expand_grid(m);
    for (std::size_t di = 0; di < ex.datasets.size(); ++di)
      for (double value : ex.splits.values) {
        const DataShape s = fit_shape(ex, shapes, full, joint_shapes, mi, di, value);
        for (const ParamSet& setting : settings)
          for (std::uint64_t dim : task_dims(ex, di, mi)) {
            const double method =
                method_bytes(ex, info, mi, di, s, setting, dim, full[di], nnz_of(loads, di));
            const double need = std::max(method, raw_block);
            const std::string task = "dataset " + ex.datasets[di].name + ", split " +
                                     split_label(ex.splits, value) + " (" + std::to_string(s.n) +
                                     " points in " + std::to_string(s.d) + "-D), " + m.label +
                                     (m.label != m.method ? " (" + m.method + ")" : "") + " {" +
                                     setting.canonical() + "}, dim " + std::to_string(dim);
            if (need + resident > limit.bytes) {
              const int slots = fewest_slots(need, resident, nodes);
              if (slots > 1) {
                peak.big.push_back({task, need, slots});
                peak.big_tasks += std::size_t(ex.splits.repeats);
              } else {
                ++peak.over;
              }
            }
            if (need + resident <= peak.bytes) continue;
            peak.bytes = need + resident;
            peak.method_bytes = method;
            peak_method = mi;
            peak.task = task;
          }
      }
  }
  return peak_method;
}

[[noreturn]] void throw_over_memory(const Experiment& ex, std::size_t peak_method,
                                    const MemoryPeak& peak, const MemoryLimit& limit,
                                    const std::vector<NodeMemory>& nodes) {
  const MethodSpec& m = ex.methods.at(peak_method);
  const MethodInfo& info = Registry::instance().get(m.method);
  throw ConfigError(
      ex.file, m.line, "methods[" + std::to_string(peak_method) + "]",
      "the task " + peak.task + " needs about " + format_bytes(peak.bytes) + " (" + m.method +
          "'s estimate " + format_bytes(peak.method_bytes) +
          (peak.preprocess_bytes > peak.method_bytes
               ? ", less than the " + format_bytes(peak.preprocess_bytes) +
                     " its preprocessing holds first"
               : "") +
          " + " + format_bytes(peak.resident_bytes) +
          " every rank holds: process, data, partitions, task list), but one rank may use " +
          format_bytes(limit.bytes) + " (" + limit.source + ")" +
          nodes_text(nodes, peak.resident_bytes) +
          (peak.over > 1 ? "; " + std::to_string(peak.over) +
                               " such (dataset, split, setting, "
                               "dim) combinations in all"
                         : ""),
      method_fixes(info) + "fewer training points (splits, max_points), fewer ranks per node " +
          "with --memory-per-rank raised to match, or --memory-per-rank SIZE (--node-memory " +
          "SIZE for a whole node) if each rank has more memory than the default assumes");
}

}  // namespace

MemoryPeak check_memory(const Experiment& ex, const std::vector<DataShape>& shapes,
                        const std::vector<DataShape>& full, const MemoryLimit& limit,
                        const std::vector<LoadShape>& loads, const std::vector<NodeMemory>& nodes) {
  if (shapes.size() != ex.datasets.size() || full.size() != ex.datasets.size() ||
      (!loads.empty() && loads.size() != ex.datasets.size()))
    throw Error("internal: check_memory got shapes for " + std::to_string(shapes.size()) + "/" +
                std::to_string(full.size()) + " of " + std::to_string(ex.datasets.size()) +
                " datasets");
  MemoryPeak peak;
  check_densified(ex, full, loads, limit, held_bytes(ex, full, loads));
  peak.resident_bytes = resident_bytes(ex, shapes, full, loads);
  // A preprocessing chain that lowers the dimension (PCA) transforms a copy of the points in their
  // raw dimension before the partition shrinks to its own: one such block (at most all points, the
  // transductive fit set), freed before the method starts, so a task needs the larger of the two.
  // Fashion-MNIST, 784-D to 50-D: 419 MiB, against 24 MiB for the partition it becomes.
  peak.preprocess_bytes = raw_block_of(ex, shapes, full, loads);
  check_load_peak(ex, full, loads, limit, peak);
  const std::size_t peak_method = method_peaks(ex, shapes, full, loads, limit, nodes, peak);
  std::stable_sort(
      peak.big.begin(), peak.big.end(),
      [](const MemoryPeak::Big& a, const MemoryPeak::Big& b) { return a.bytes > b.bytes; });
  if (peak.over > 0) throw_over_memory(ex, peak_method, peak, limit, nodes);
  peak.bytes = std::max(peak.bytes, peak.load_bytes);
  return peak;
}

}  // namespace drbench

namespace drbench {

std::vector<double> task_memory(const Experiment& ex, const std::vector<Task>& tasks,
                                const std::vector<DataShape>& shapes,
                                const std::vector<DataShape>& full,
                                const std::vector<LoadShape>& loads) {
  const bool joint_shapes = std::all_of(ex.methods.begin(), ex.methods.end(),
                                        [](const MethodSpec& m) { return m.transductive(); });
  const double raw_block = raw_block_of(ex, shapes, full, loads);
  std::vector<double> bytes(tasks.size(), 0.0);
  for (const Task& t : tasks) {
    const DataShape s =
        fit_shape(ex, shapes, full, joint_shapes, t.method, t.dataset, t.split_value);
    const MethodInfo& info = Registry::instance().get(ex.methods[t.method].method);
    const double method = method_bytes(ex, info, t.method, t.dataset, s, t.setting, t.dim,
                                       full[t.dataset], nnz_of(loads, t.dataset));
    bytes.at(t.id) = std::max(method, raw_block);
  }
  return bytes;
}

}  // namespace drbench
