#include "framework/results/task_result.hpp"

#include "framework/core/error.hpp"
#include "framework/support/bytes.hpp"

namespace drbench {

namespace {

// Bumped whenever the field list below changes; old journals are then refused, not misread.
// 3: task_seconds at the end; 4: point indices and labels after it; 5: where the trace ended;
// 6: quality standard errors, query count and R_NX curve; 7: the task's peak resident memory.
// Records of formats 2-6 are still read (without what they lack).
constexpr std::uint8_t kFormat = 8;
constexpr std::uint8_t kOldest = 2;  // 2: trace rows carry a step

void put_mat(ByteWriter& w, const arma::mat& m) {
  w.u64(m.n_rows);
  w.u64(m.n_cols);
  for (double v : m) w.f64(v);
}

arma::mat get_mat(ByteReader& r) {
  std::uint64_t rows = r.u64();
  std::uint64_t cols = rows == 0 ? r.u64() : r.count(8 * rows);
  arma::mat m(rows, cols);
  for (auto& v : m) v = r.f64();
  return m;
}

void put_uvec(ByteWriter& w, const arma::uvec& v) {
  w.u64(v.n_elem);
  for (arma::uword x : v) w.u64(x);
}

arma::uvec get_uvec(ByteReader& r) {
  arma::uvec v(r.count(8));
  for (auto& x : v) x = r.u64();
  return v;
}

}  // namespace

std::string TaskResult::serialize() const {
  ByteWriter w;
  w.u8(kFormat);
  w.u64(task_id);
  w.str(key);
  // 1 ok, 0 failed, 2 timed out: one byte, so journals written before timeouts read unchanged.
  w.u8(ok ? 1 : (timed_out ? 2 : 0));
  w.str(error);
  w.f64(fit_seconds);
  w.f64(transform_seconds);
  w.f64(eval_seconds);
  w.f64s(knn_error);
  w.f64s(quality);
  w.u64(n_train);
  w.u64(n_test);
  w.u64(input_dim);
  w.i32(rank);
  put_mat(w, embedding_train);
  put_mat(w, embedding_test);
  w.str(trace.optimizer);
  w.u64(trace.rows.size());
  for (const auto& row : trace.rows) {
    w.i32(row.iteration);
    w.f64(row.objective);
    w.f64(row.grad_norm);
    w.f64(row.seconds);
    w.f64(row.step);
  }
  w.u64(trace.notes.size());
  for (const auto& [k, v] : trace.notes) {
    w.str(k);
    w.str(v);
  }
  w.f64(task_seconds);
  for (const arma::uvec* v : {&index_train, &index_test, &label_train, &label_test})
    put_uvec(w, *v);
  w.u64(fit_end.iterations);
  w.f64(fit_end.objective);
  w.f64(fit_end.grad_norm);
  w.str(fit_end.stop_reason);
  w.f64s(quality_se);
  w.u64(quality_queries);
  w.f64s(rnx_curve_k);
  w.f64s(rnx_curve);
  w.u64(peak_rss_bytes);
  w.i32(threads);
  return w.take();
}

TaskResult TaskResult::deserialize(const std::string& bytes) {
  ByteReader r(bytes, "task result record");
  std::uint8_t format = r.u8();
  if (format < kOldest || format > kFormat)
    throw Error("task result record: format version " + std::to_string(format) + ", expected " +
                std::to_string(kOldest) + ".." + std::to_string(kFormat) +
                " (written by a different drbench version; rerun it)");
  TaskResult t;
  t.task_id = r.u64();
  t.key = r.str();
  const std::uint8_t status = r.u8();
  t.ok = status == 1;
  t.timed_out = status == 2;
  t.error = r.str();
  t.fit_seconds = r.f64();
  t.transform_seconds = r.f64();
  t.eval_seconds = r.f64();
  t.knn_error = r.f64s();
  t.quality = r.f64s();
  t.n_train = r.u64();
  t.n_test = r.u64();
  t.input_dim = r.u64();
  t.rank = r.i32();
  t.embedding_train = get_mat(r);
  t.embedding_test = get_mat(r);
  t.trace.optimizer = r.str();
  std::uint64_t n_rows = r.count(36);
  t.trace.rows.resize(n_rows);
  for (auto& row : t.trace.rows) {
    row.iteration = r.i32();
    row.objective = r.f64();
    row.grad_norm = r.f64();
    row.seconds = r.f64();
    row.step = r.f64();
  }
  std::uint64_t n_notes = r.count(16);
  for (std::uint64_t i = 0; i < n_notes; ++i) {
    std::string k = r.str();
    std::string v = r.str();
    t.trace.notes.emplace_back(std::move(k), std::move(v));
  }
  if (format >= 3) t.task_seconds = r.f64();
  if (format >= 4)
    for (arma::uvec* v : {&t.index_train, &t.index_test, &t.label_train, &t.label_test})
      *v = get_uvec(r);
  if (format >= 5) {
    t.fit_end.iterations = r.u64();
    t.fit_end.objective = r.f64();
    t.fit_end.grad_norm = r.f64();
    t.fit_end.stop_reason = r.str();
  } else {
    t.fit_end = trace_end(t.trace);  // the best an older record can say
  }
  if (format >= 6) {
    t.quality_se = r.f64s();
    t.quality_queries = r.u64();
    t.rnx_curve_k = r.f64s();
    t.rnx_curve = r.f64s();
  }
  if (format >= 7) t.peak_rss_bytes = r.u64();
  if (format >= 8) t.threads = r.i32();
  if (r.left() != 0)
    throw Error("task result record: " + std::to_string(r.left()) + " unexpected trailing bytes");
  return t;
}

}  // namespace drbench
