#include "framework/results/reader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/eval/coranking.hpp"
#include "framework/plan/task.hpp"
#include "framework/results/store.hpp"
#include "framework/support/child_rehearsal.hpp"
#include "framework/support/h5.hpp"

namespace drbench {

namespace {

arma::mat to_arma(const h5::Matrix& m) {
  // Row-major n x dim on disk is column-major dim x n in memory: one point per column.
  arma::mat out(m.cols, m.rows);
  std::copy(m.data.begin(), m.data.end(), out.memptr());
  return out;
}

void read_arrays(const h5::File& f, std::vector<TaskRow>& rows) {
  bool has_emb = h5::exists(f.h, "embeddings"), has_tr = h5::exists(f.h, "traces");
  for (auto& row : rows) {
    std::string id = std::to_string(row.result.task_id);
    if (has_emb && h5::exists(f.h, "embeddings/" + id)) {
      h5::Handle g = h5::open_group(f, f.h, "embeddings/" + id);
      row.result.embedding_train = to_arma(h5::read_matrix(f, g, "train"));
      row.result.embedding_test = to_arma(h5::read_matrix(f, g, "test"));
      auto uvec = [&](const char* name) {
        if (!h5::exists(g, name)) return arma::uvec();  // files from before the indices
        const auto v = h5::read_u64(f, g, name);
        arma::uvec out(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) out(i) = v[i];
        return out;
      };
      row.result.index_train = uvec("train_index");
      row.result.index_test = uvec("test_index");
      row.result.label_train = uvec("train_label");
      row.result.label_test = uvec("test_label");
    }
    if (h5::exists(f.h, "rnx_curves") && h5::exists(f.h, "rnx_curves/" + id)) {
      h5::Handle g = h5::open_group(f, f.h, "rnx_curves");
      h5::Matrix m = h5::read_matrix(f, g, id);
      if (m.cols != 2) throw Error(f.where + ": /rnx_curves/" + id + " does not have 2 columns");
      for (std::uint64_t i = 0; i < m.rows; ++i) {
        row.result.rnx_curve_k.push_back(m.data[2 * i]);
        row.result.rnx_curve.push_back(m.data[2 * i + 1]);
      }
    }
    if (has_tr && h5::exists(f.h, "traces/" + id)) {
      h5::Handle g = h5::open_group(f, f.h, "traces");
      h5::Matrix m = h5::read_matrix(f, g, id);
      // Files written before the step column have 4 columns; their steps read as NaN.
      if (m.cols != 4 && m.cols != 5)
        throw Error(f.where + ": /traces/" + id + " does not have 4 or 5 columns");
      Trace& t = row.result.trace;
      for (std::uint64_t i = 0; i < m.rows; ++i) {
        const double* c = &m.data[m.cols * i];
        t.rows.push_back({static_cast<int>(c[0]), c[1], c[2], c[3]});
        if (m.cols == 5) t.rows.back().step = c[4];
      }
      h5::Handle d(H5Dopen2(g, id.c_str(), H5P_DEFAULT), H5Dclose);
      t.optimizer = h5::read_attr_string(f, d, "optimizer");
      for (const auto& note : h5::read_attr_strings(f, d, "notes")) {
        auto eq = note.find('=');
        t.note(note.substr(0, eq), eq == std::string::npos ? "" : note.substr(eq + 1));
      }
    }
  }
}

}  // namespace

namespace {

// The file's attributes: what ran, where, and under which selection rule.
void read_file_attributes(const h5::File& f, const std::string& path, ResultsFile& r) {
  if (!h5::has_attr(f.h, "config") || !h5::exists(f.h, "tasks"))
    throw Error(path +
                ": not a drbench results file (no config attribute or /tasks group) (fix: give a "
                "file that drbench run wrote)");
  r.settings_version = h5::has_attr(f.h, "settings_version")
                           ? static_cast<int>(h5::read_attr_int(f, f.h, "settings_version"))
                           : 1;
  // Parameter names of a later version cannot be mapped back; reading on would mislabel them.
  if (r.settings_version > kSettingsVersion || r.settings_version < 1)
    throw Error(path + ": written by a newer drbench (settings_version " +
                std::to_string(r.settings_version) + "; this drbench reads up to " +
                std::to_string(kSettingsVersion) + ") (fix: read it with the drbench version " +
                "that wrote it, " + h5::read_attr_string(f, f.h, "drbench_version") +
                ", or newer)");
  r.graph_version = h5::has_attr(f.h, "graph_version")
                        ? static_cast<int>(h5::read_attr_int(f, f.h, "graph_version"))
                        : 1;
  r.name = h5::read_attr_string(f, f.h, "name");
  r.config = h5::read_attr_string(f, f.h, "config");
  r.config_hash = h5::read_attr_string(f, f.h, "config_hash");
  r.profile = h5::read_attr_string(f, f.h, "profile");
  r.version = h5::read_attr_string(f, f.h, "drbench_version");
  r.blas = h5::read_attr_string(f, f.h, "blas");
  r.host = h5::read_attr_string(f, f.h, "host");
  r.started = h5::read_attr_string(f, f.h, "started");
  r.finished = h5::read_attr_string(f, f.h, "finished");
  r.ttest_reference = h5::read_attr_string(f, f.h, "ttest_reference");
  if (h5::has_attr(f.h, "halving_repeats")) {
    r.halving_repeats = static_cast<int>(h5::read_attr_int(f, f.h, "halving_repeats"));
    r.halving_keep = static_cast<int>(h5::read_attr_int(f, f.h, "halving_keep"));
  }
  if (h5::has_attr(f.h, "selection")) {
    r.selection = h5::read_attr_string(f, f.h, "selection");
    r.selection_recorded = true;
  }
  if (h5::has_attr(f.h, "validation_folds")) {
    r.validation_folds = static_cast<int>(h5::read_attr_int(f, f.h, "validation_folds"));
    r.validation_fraction = std::atof(h5::read_attr_string(f, f.h, "validation_fraction").c_str());
  }
  r.ranks = static_cast<int>(h5::read_attr_int(f, f.h, "ranks"));
  r.n_tasks = static_cast<std::uint64_t>(h5::read_attr_int(f, f.h, "n_tasks"));
  if (h5::has_attr(f.h, "repeats"))
    r.repeats = static_cast<int>(h5::read_attr_int(f, f.h, "repeats"));
  r.datasets = h5::read_attr_strings(f, f.h, "datasets");
  r.labels = h5::read_attr_strings(f, f.h, "labels");
}

// The k of the kNN columns, the metric, and what each quality column measures (name, K, which
// direction is better), with the defaults of files written before each attribute existed.
void read_measure_attributes(const h5::File& f, hid_t g, const std::string& path, ResultsFile& r) {
  h5::Handle d(H5Dopen2(g, "knn_error", H5P_DEFAULT), H5Dclose);
  for (auto k : h5::read_attr_ints(f, d, "k")) r.k.push_back(static_cast<int>(k));
  // Files written before the metric was configurable used the Euclidean distance.
  if (h5::has_attr(d, "metric")) r.knn_metric = h5::read_attr_string(f, d, "metric");
  h5::Handle q(H5Dopen2(g, "quality", H5P_DEFAULT), H5Dclose);
  r.quality_names = h5::read_attr_strings(f, q, "names");
  if (h5::has_attr(q, "measure")) {
    r.quality_measure = h5::read_attr_strings(f, q, "measure");
    for (auto k : h5::read_attr_ints(f, q, "k")) r.quality_k.push_back(static_cast<int>(k));
  } else {  // files from before the co-ranking pass: every measure at the one K
    const int k = h5::has_attr(q, "k") ? static_cast<int>(h5::read_attr_int(f, q, "k")) : 0;
    r.quality_measure = r.quality_names;
    r.quality_k.assign(r.quality_names.size(), k);
    for (auto& name : r.quality_names) name += "@" + std::to_string(k);
  }
  if (h5::has_attr(q, "better")) {
    for (const auto& b : h5::read_attr_strings(f, q, "better"))
      r.quality_higher.push_back(b == "higher");
  } else {
    for (const auto& m : r.quality_measure) {
      const QualityMeasureInfo* info = find_quality_measure(m);
      r.quality_higher.push_back(info && info->higher_better);
    }
  }
  if (r.quality_higher.size() != r.quality_names.size() ||
      r.quality_measure.size() != r.quality_names.size() ||
      r.quality_k.size() != r.quality_names.size())
    throw Error(path + ": /tasks/quality's attributes names, measure and k differ in length");
}

// The columns of /tasks, one entry a task, as read from the file.
struct TaskColumns {
  std::size_t n = 0;
  std::vector<std::uint64_t> id;
  std::vector<std::string> key, dataset, split_kind, method, label, setting, error, protocol,
      stop_reason;
  std::vector<double> split_value, fit, transform, eval, task_seconds, final_objective,
      final_grad_norm;
  std::vector<std::uint64_t> peak_rss, iterations, dim, seed, split_seed, n_train, n_test,
      input_dim, quality_queries;
  std::vector<std::int64_t> repeat, status, rank, threads, fold;
  bool has_end = false, has_se = false;
  h5::Matrix knn, quality, quality_se;
};

// Settings written under earlier parameter names read as today's (MethodInfo::migrate_setting),
// keys with them, so a resume matches them and every table prints the current names.
void migrate_settings(int settings_version, TaskColumns& c) {
  if (settings_version >= kSettingsVersion) return;
  for (std::size_t i = 0; i < c.n; ++i)
    if (const MethodInfo* info = Registry::instance().find(c.method[i])) {
      const std::string now = info->migrate_setting(c.setting[i], settings_version);
      if (now == c.setting[i]) continue;
      if (setting_of_key(c.key[i]) == c.setting[i]) c.key[i] = key_with_setting(c.key[i], now);
      c.setting[i] = now;
    }
}

TaskColumns read_task_columns(const h5::File& f, hid_t g, const std::string& path,
                              const ResultsFile& r) {
  TaskColumns c;
  c.id = h5::read_u64(f, g, "id");
  const std::size_t n = c.n = c.id.size();
  // Every column of /tasks has one entry a task.
  auto per_task = [&](const char* name, auto v) {
    if (v.size() != n) throw Error(path + ": /tasks/" + name + " has a different length than id");
    return v;
  };
  auto strings = [&](const char* name) { return per_task(name, h5::read_strings(f, g, name)); };
  auto reals = [&](const char* name) { return per_task(name, h5::read_f64(f, g, name)); };
  auto ints = [&](const char* name) { return per_task(name, h5::read_i64(f, g, name)); };
  auto uints = [&](const char* name) { return per_task(name, h5::read_u64(f, g, name)); };
  c.key = strings("key");
  c.dataset = strings("dataset");
  c.split_kind = strings("split_kind");
  c.method = strings("method");
  c.label = strings("label");
  c.setting = strings("setting");
  c.error = strings("error");
  c.protocol = h5::exists(g, "protocol") ? strings("protocol")
                                         : std::vector<std::string>(n, config_protocol(r.config));
  c.split_value = reals("split_value");
  c.fit = reals("fit_seconds");
  c.transform = reals("transform_seconds");
  c.eval = reals("eval_seconds");
  // Files written before task_seconds existed: 0 (not recorded).
  c.task_seconds =
      h5::exists(g, "task_seconds") ? reals("task_seconds") : std::vector<double>(n, 0.0);
  c.peak_rss =
      h5::exists(g, "peak_rss_bytes") ? uints("peak_rss_bytes") : std::vector<std::uint64_t>(n, 0);
  // Files written before the trace's end was kept for every task: read from the traces, if any.
  c.has_end = h5::exists(g, "iterations");
  c.iterations = c.has_end ? uints("iterations") : std::vector<std::uint64_t>(n, 0);
  c.final_objective =
      c.has_end ? reals("final_objective") : std::vector<double>(n, arma::datum::nan);
  c.final_grad_norm =
      c.has_end ? reals("final_grad_norm") : std::vector<double>(n, arma::datum::nan);
  c.stop_reason = c.has_end ? strings("stop_reason") : std::vector<std::string>(n);
  c.repeat = ints("repeat");
  c.status = ints("status");
  c.rank = ints("rank");
  // Files written before the thread count was recorded: 0 (not recorded).
  c.threads = h5::exists(g, "threads") ? ints("threads") : std::vector<std::int64_t>(n, 0);
  // Files from before inner validation tasks: every row is scored on the test points.
  c.fold = h5::exists(g, "fold") ? ints("fold") : std::vector<std::int64_t>(n, -1);
  c.dim = uints("dim");
  c.seed = uints("seed");
  c.split_seed = uints("split_seed");
  c.n_train = uints("n_train");
  c.n_test = uints("n_test");
  c.input_dim = uints("input_dim");
  c.knn = h5::read_matrix(f, g, "knn_error");
  c.quality = h5::read_matrix(f, g, "quality");
  if (c.knn.rows != n || c.quality.rows != n)
    throw Error(path + ": /tasks/knn_error or /tasks/quality has a different row count than id");
  c.has_se = h5::exists(g, "quality_se");
  c.quality_se = c.has_se ? h5::read_matrix(f, g, "quality_se") : h5::Matrix{};
  if (c.has_se && (c.quality_se.rows != n || c.quality_se.cols != c.quality.cols))
    throw Error(path + ": /tasks/quality_se does not match /tasks/quality's shape");
  c.quality_queries = h5::exists(g, "quality_queries") ? uints("quality_queries")
                                                       : std::vector<std::uint64_t>(n, 0);
  return c;
}

TaskRow task_row(const TaskColumns& c, std::size_t i) {
  TaskRow row;
  TaskResult& t = row.result;
  t.task_id = c.id[i];
  t.key = c.key[i];
  t.ok = c.status[i] == 0;
  t.timed_out = c.status[i] == 2;
  t.error = c.error[i];
  t.fit_seconds = c.fit[i];
  t.transform_seconds = c.transform[i];
  t.task_seconds = c.task_seconds[i];
  t.peak_rss_bytes = c.peak_rss[i];
  t.eval_seconds = c.eval[i];
  if (t.ok) {  // failed rows hold NaN padding, not values
    const std::size_t kc = c.knn.cols, qc = c.quality.cols;
    t.knn_error.assign(c.knn.data.begin() + i * kc, c.knn.data.begin() + (i + 1) * kc);
    t.quality.assign(c.quality.data.begin() + i * qc, c.quality.data.begin() + (i + 1) * qc);
    if (c.has_se)
      t.quality_se.assign(c.quality_se.data.begin() + i * qc,
                          c.quality_se.data.begin() + (i + 1) * qc);
    t.quality_queries = c.quality_queries[i];
  }
  t.n_train = c.n_train[i];
  t.n_test = c.n_test[i];
  t.input_dim = c.input_dim[i];
  t.rank = static_cast<int>(c.rank[i]);
  t.threads = static_cast<int>(c.threads[i]);
  t.fit_end = {c.iterations[i], c.final_objective[i], c.final_grad_norm[i], c.stop_reason[i]};
  row.dataset = c.dataset[i];
  row.split_kind = c.split_kind[i];
  row.method = c.method[i];
  row.label = c.label[i];
  row.setting = c.setting[i];
  row.protocol = c.protocol[i];
  row.split_value = c.split_value[i];
  row.repeat = static_cast<int>(c.repeat[i]);
  row.fold = static_cast<int>(c.fold[i]);
  row.dim = c.dim[i];
  row.seed = c.seed[i];
  row.split_seed = c.split_seed[i];
  return row;
}

ResultsFile read_in_process(const std::string& path, bool with_arrays) {
  h5::Quiet quiet;
  h5::File f = h5::open_file(path, false);
  ResultsFile r;
  r.path = path;
  read_file_attributes(f, path, r);
  h5::Handle g = h5::open_group(f, f.h, "tasks");
  TaskColumns c = read_task_columns(f, g, path, r);
  migrate_settings(r.settings_version, c);
  read_measure_attributes(f, g, path, r);
  if (r.k.size() != c.knn.cols)
    throw Error(path + ": /tasks/knn_error has " + std::to_string(c.knn.cols) +
                " columns but its attribute k lists " + std::to_string(r.k.size()));
  r.tasks.reserve(c.n);
  for (std::size_t i = 0; i < c.n; ++i) r.tasks.push_back(task_row(c, i));
  if (!h5::has_attr(f.h, "repeats"))
    for (const auto& row : r.tasks) r.repeats = std::max(r.repeats, row.repeat + 1);
  std::stable_sort(r.tasks.begin(), r.tasks.end(), [](const TaskRow& a, const TaskRow& b) {
    return a.result.task_id < b.result.task_id;
  });
  if (with_arrays) read_arrays(f, r.tasks);
  if (with_arrays && !c.has_end)
    for (auto& row : r.tasks) row.result.fit_end = trace_end(row.result.trace);
  if (h5::exists(f.h, "tables")) {
    h5::Handle t = h5::open_group(f, f.h, "tables");
    r.tables = h5::children(f, t);
  }
  return r;
}

}  // namespace

std::string config_protocol(const std::string& config_text) {
  try {
    const YAML::Node root = YAML::Load(config_text);
    const YAML::Node p =
        root.IsMap() && root["evaluation"].IsMap() ? root["evaluation"]["protocol"] : YAML::Node();
    if (p && p.IsScalar() && p.Scalar() == "transductive") return "transductive";
  } catch (const YAML::Exception&) {
    // A text that no longer parses was written by a run that parsed it: the default it had.
  }
  return "holdout";
}

void refuse_journal_only(const std::string& path) {
  // A run killed before its first snapshot leaves only the journal; "no such file" would send
  // the user to look for a file that a rerun recreates from that journal.
  const std::string journal = path + ".journal";
  std::error_code ec;
  if (std::filesystem::exists(path, ec) || !std::filesystem::is_regular_file(journal, ec)) return;
  std::string tasks = "its finished tasks";
  try {
    tasks = std::to_string(read_journal(journal).results.size()) + " finished task(s)";
  } catch (const Error&) {  // a damaged journal: the rerun says what it keeps
  }
  throw Error(path + ": the run was interrupted before it wrote this file; its journal " + journal +
              " holds " + tasks + " (fix: rerun the same `drbench run` command to recover them)");
}

ResultsFile read_results(const std::string& path, bool with_arrays) {
  refuse_journal_only(path);
  rehearse_in_child(path, "restore it from a copy, or rerun the experiment with --force-new",
                    [&] { (void)read_in_process(path, with_arrays); });
  return read_in_process(path, with_arrays);
}

std::string read_table(const std::string& path, const std::string& name) {
  h5::Quiet quiet;
  h5::File f = h5::open_file(path, false);
  if (!h5::exists(f.h, "tables/" + name))
    throw Error(path + ": no table '" + name + "' (run `drbench aggregate " + path + "` first)");
  h5::Handle g = h5::open_group(f, f.h, "tables");
  return h5::read_string(f, g, name);
}

}  // namespace drbench
