#include "framework/results/schema.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/eval/coranking.hpp"
#include "framework/support/h5.hpp"

namespace drbench {

std::string config_hash(const std::string& text) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash_seed(0, text)));
  return buf;
}

namespace {

// Fixed-width rows (knn_error, quality) padded with NaN where a task has fewer values (failed
// tasks have none).
std::vector<double> padded(const std::vector<const TaskResult*>& rows,
                           std::vector<double> TaskResult::*field, std::size_t width) {
  std::vector<double> out(rows.size() * width, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& v = rows[i]->*field;
    for (std::size_t j = 0; j < width && j < v.size(); ++j) out[i * width + j] = v[j];
  }
  return out;
}

// The measures of every task: its kNN errors (one column per k) and quality values (one column
// per measure and K), padded with NaN where a task has none (failed rows).
void write_measures(const h5::File& f, hid_t g, const Experiment& ex,
                    const std::vector<const TaskResult*>& rows) {
  std::size_t K = ex.evaluation.knn.size();
  std::vector<std::int64_t> ks(ex.evaluation.knn.begin(), ex.evaluation.knn.end());
  auto knn = padded(rows, &TaskResult::knn_error, K);
  h5::Handle dk = h5::write_matrix(f, g, "knn_error", rows.size(), K, knn.data());
  h5::attr_ints(f, dk, "k", ks);
  h5::attr_string(f, dk, "metric", ex.evaluation.knn_metric);
  // Quality: one column per measure and K (names "rnx@10", "stress"), with each column's
  // measure and K (0 for measures without one) and the standard errors beside.
  const std::vector<std::string> qnames =
      quality_labels(ex.evaluation.quality, ex.evaluation.quality_k);
  std::vector<std::string> qmeasure;
  std::vector<std::int64_t> qk;
  for (const auto& m : ex.evaluation.quality) {
    if (!find_quality_measure(m)->per_k) {
      qmeasure.push_back(m);
      qk.push_back(0);
    } else {
      for (int k : ex.evaluation.quality_k) {
        qmeasure.push_back(m);
        qk.push_back(k);
      }
    }
  }
  const std::size_t Q = qnames.size();
  auto quality = padded(rows, &TaskResult::quality, Q);
  h5::Handle dq = h5::write_matrix(f, g, "quality", rows.size(), Q, quality.data());
  h5::attr_strings(f, dq, "names", qnames);
  h5::attr_strings(f, dq, "measure", qmeasure);
  h5::attr_ints(f, dq, "k", qk);
  std::vector<std::string> higher;
  for (const auto& m : qmeasure)
    higher.push_back(find_quality_measure(m)->higher_better ? "higher" : "lower");
  h5::attr_strings(f, dq, "better", higher);
  auto quality_se = padded(rows, &TaskResult::quality_se, Q);
  h5::write_matrix(f, g, "quality_se", rows.size(), Q, quality_se.data());
  std::vector<std::uint64_t> queries;
  for (const TaskResult* r : rows) queries.push_back(std::uint64_t(r->quality_queries));
  h5::write_u64(f, g, "quality_queries", queries);
  h5::attr_int(f, dq, "sample", ex.evaluation.quality_sample);
}

void write_tasks(const h5::File& f, const Experiment& ex, const std::vector<Task>& tasks,
                 const std::map<std::uint64_t, TaskResult>& results) {
  std::vector<const TaskResult*> rows;
  std::vector<const Task*> info;
  for (const auto& [id, r] : results) {
    if (id >= tasks.size())
      throw Error(f.where + ": result for task " + std::to_string(id) + " but only " +
                  std::to_string(tasks.size()) + " tasks exist");
    rows.push_back(&r);
    info.push_back(&tasks[id]);
  }
  auto col = [&](auto get) {
    using T = decltype(get(std::size_t{0}));
    std::vector<T> v;
    v.reserve(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) v.push_back(get(i));
    return v;
  };
  h5::Handle g = h5::create_group(f, f.h, "tasks");
  h5::write_u64(f, g, "id", col([&](std::size_t i) { return std::uint64_t(info[i]->id); }));
  h5::write_strings(f, g, "key", col([&](std::size_t i) { return info[i]->key; }));
  h5::write_strings(f, g, "dataset",
                    col([&](std::size_t i) { return ex.datasets.at(info[i]->dataset).name; }));
  h5::write_strings(f, g, "split_kind",
                    col([&](std::size_t) { return split_kind_name(ex.splits.kind); }));
  h5::write_f64(f, g, "split_value", col([&](std::size_t i) { return info[i]->split_value; }));
  h5::write_i32(f, g, "repeat", col([&](std::size_t i) { return std::int32_t(info[i]->repeat); }));
  h5::write_i32(f, g, "fold", col([&](std::size_t i) { return std::int32_t(info[i]->fold); }));
  h5::write_strings(f, g, "method",
                    col([&](std::size_t i) { return ex.methods.at(info[i]->method).method; }));
  h5::write_strings(f, g, "label",
                    col([&](std::size_t i) { return ex.methods.at(info[i]->method).label; }));
  h5::write_strings(f, g, "setting",
                    col([&](std::size_t i) { return info[i]->setting.canonical(); }));
  h5::write_strings(f, g, "protocol", col([&](std::size_t i) {
                      return std::string(protocol_name(ex.methods.at(info[i]->method).protocol));
                    }));
  h5::write_u64(f, g, "dim", col([&](std::size_t i) { return std::uint64_t(info[i]->dim); }));
  h5::write_u64(f, g, "seed", col([&](std::size_t i) { return info[i]->seed; }));
  h5::write_u64(f, g, "split_seed", col([&](std::size_t i) { return info[i]->split_seed; }));
  h5::write_i8(f, g, "status", col([&](std::size_t i) {
                 return std::int8_t(rows[i]->ok ? 0 : (rows[i]->timed_out ? 2 : 1));
               }));
  h5::write_strings(f, g, "error", col([&](std::size_t i) { return rows[i]->error; }));
  h5::write_f64(f, g, "fit_seconds", col([&](std::size_t i) { return rows[i]->fit_seconds; }));
  h5::write_f64(f, g, "transform_seconds",
                col([&](std::size_t i) { return rows[i]->transform_seconds; }));
  h5::write_f64(f, g, "eval_seconds", col([&](std::size_t i) { return rows[i]->eval_seconds; }));
  h5::write_f64(f, g, "task_seconds", col([&](std::size_t i) { return rows[i]->task_seconds; }));
  h5::write_u64(f, g, "peak_rss_bytes",
                col([&](std::size_t i) { return rows[i]->peak_rss_bytes; }));
  h5::write_u64(f, g, "n_train",
                col([&](std::size_t i) { return std::uint64_t(rows[i]->n_train); }));
  h5::write_u64(f, g, "n_test", col([&](std::size_t i) { return std::uint64_t(rows[i]->n_test); }));
  h5::write_u64(f, g, "input_dim",
                col([&](std::size_t i) { return std::uint64_t(rows[i]->input_dim); }));
  h5::write_i32(f, g, "rank", col([&](std::size_t i) { return std::int32_t(rows[i]->rank); }));
  h5::write_i32(f, g, "threads",
                col([&](std::size_t i) { return std::int32_t(rows[i]->threads); }));
  h5::write_u64(f, g, "iterations",
                col([&](std::size_t i) { return rows[i]->fit_end.iterations; }));
  h5::write_f64(f, g, "final_objective",
                col([&](std::size_t i) { return rows[i]->fit_end.objective; }));
  h5::write_f64(f, g, "final_grad_norm",
                col([&](std::size_t i) { return rows[i]->fit_end.grad_norm; }));
  h5::write_strings(f, g, "stop_reason",
                    col([&](std::size_t i) { return rows[i]->fit_end.stop_reason; }));

  write_measures(f, g, ex, rows);
}

void write_arrays(const h5::File& f, const std::map<std::uint64_t, TaskResult>& results) {
  h5::Handle emb = h5::create_group(f, f.h, "embeddings");
  h5::Handle traces = h5::create_group(f, f.h, "traces");
  h5::Handle curves = h5::create_group(f, f.h, "rnx_curves");
  for (const auto& [id, r] : results) {
    std::string name = std::to_string(id);
    // Armadillo stores dim x n column-major, which is exactly n x dim row-major: h5py reads
    // (n, dim) with one point per row.
    if (!r.embedding_train.is_empty() || !r.embedding_test.is_empty()) {
      h5::Handle g = h5::create_group(f, emb, name);
      h5::write_matrix(f, g, "train", r.embedding_train.n_cols, r.embedding_train.n_rows,
                       r.embedding_train.memptr());
      h5::write_matrix(f, g, "test", r.embedding_test.n_cols, r.embedding_test.n_rows,
                       r.embedding_test.memptr());
      // Which dataset points these rows are, and their classes, so a plot needs no re-split.
      auto u64s = [](const arma::uvec& v) {
        return std::vector<std::uint64_t>(v.begin(), v.end());
      };
      h5::write_u64(f, g, "train_index", u64s(r.index_train));
      h5::write_u64(f, g, "test_index", u64s(r.index_test));
      h5::write_u64(f, g, "train_label", u64s(r.label_train));
      h5::write_u64(f, g, "test_label", u64s(r.label_test));
    }
    if (!r.rnx_curve.empty()) {  // R_NX on its log-K grid: rows (K, R_NX)
      std::vector<double> m;
      for (std::size_t g = 0; g < r.rnx_curve.size(); ++g) {
        m.push_back(r.rnx_curve_k[g]);
        m.push_back(r.rnx_curve[g]);
      }
      h5::write_matrix(f, curves, name, r.rnx_curve.size(), 2, m.data());
    }
    if (!r.trace.rows.empty() || !r.trace.optimizer.empty()) {
      std::vector<double> m;
      m.reserve(r.trace.rows.size() * 5);
      for (const auto& row : r.trace.rows) {
        m.push_back(row.iteration);
        m.push_back(row.objective);
        m.push_back(row.grad_norm);
        m.push_back(row.seconds);
        m.push_back(row.step);
      }
      h5::Handle d = h5::write_matrix(f, traces, name, r.trace.rows.size(), 5, m.data());
      h5::attr_string(f, d, "optimizer", r.trace.optimizer);
      h5::attr_strings(f, d, "columns", {"iteration", "objective", "grad_norm", "seconds", "step"});
      std::vector<std::string> notes;
      for (const auto& [k, v] : r.trace.notes) notes.push_back(k + "=" + v);
      h5::attr_strings(f, d, "notes", notes);
    }
  }
}

}  // namespace

void write_results_file(const std::string& file, const Experiment& ex,
                        const std::vector<Task>& tasks, const RunInfo& info,
                        const std::map<std::uint64_t, TaskResult>& results,
                        const std::string& finished) {
  h5::Quiet quiet;
  h5::File f = h5::create_file(file);
  h5::attr_string(f, f.h, "name", ex.name);
  h5::attr_string(f, f.h, "config", ex.text);
  h5::attr_string(f, f.h, "config_hash", config_hash(ex.text));
  h5::attr_string(f, f.h, "profile", ex.profile);
  h5::attr_string(f, f.h, "drbench_version", info.version);
  h5::attr_string(f, f.h, "blas", info.blas);
  h5::attr_string(f, f.h, "host", info.host);
  h5::attr_string(f, f.h, "started", info.started);
  h5::attr_string(f, f.h, "finished", finished);
  h5::attr_int(f, f.h, "ranks", info.ranks);
  h5::attr_int(f, f.h, "settings_version", kSettingsVersion);
  h5::attr_int(f, f.h, "graph_version", info.graph_version);
  h5::attr_int(f, f.h, "n_tasks", static_cast<std::int64_t>(tasks.size()));
  h5::attr_int(f, f.h, "repeats", ex.splits.repeats);
  // Config order of rows and columns, for tables (task ids need not follow it).
  std::vector<std::string> datasets, labels;
  for (const auto& d : ex.datasets) datasets.push_back(d.name);
  for (const auto& m : ex.methods) labels.push_back(m.label);
  h5::attr_strings(f, f.h, "datasets", datasets);
  h5::attr_strings(f, f.h, "labels", labels);
  h5::attr_string(f, f.h, "ttest_reference", ex.evaluation.ttest_reference);
  h5::attr_string(f, f.h, "selection", selection_name(ex.evaluation.selection));
  if (ex.evaluation.validated()) {
    h5::attr_int(f, f.h, "validation_folds", ex.evaluation.validation_folds);
    char fraction[32];  // as text: the h5 layer keeps integer and string attributes only
    std::snprintf(fraction, sizeof fraction, "%.17g", ex.evaluation.validation_fraction);
    h5::attr_string(f, f.h, "validation_fraction", fraction);
  }
  if (ex.evaluation.halving_repeats > 0) {
    h5::attr_int(f, f.h, "halving_repeats", ex.evaluation.halving_repeats);
    h5::attr_int(f, f.h, "halving_keep", ex.evaluation.halving_keep);
  }
  write_tasks(f, ex, tasks, results);
  write_arrays(f, results);
  h5::create_group(f, f.h, "tables");
  if (f.h.close() < 0) throw Error(file + ": cannot finish writing the HDF5 file (disk full?)");
}

}  // namespace drbench
