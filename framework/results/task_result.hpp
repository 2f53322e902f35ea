#pragma once
// What a worker sends back for one task, and what one row of the results file holds.
#include <armadillo>
#include <cstdint>
#include <string>
#include <vector>

#include "framework/core/trace.hpp"

namespace drbench {

struct TaskResult {
  std::uint64_t task_id = 0;
  std::string key;
  bool ok = false;
  bool timed_out = false;  // !ok because it ran past max_task_seconds (status `timeout`)
  std::string error;       // the exception text when !ok
  double fit_seconds = 0.0;
  double transform_seconds = 0.0;
  double eval_seconds = 0.0;
  // The whole task as the runner saw it: also the split, per-task preprocessing and data access,
  // which the three above leave out (what plans and the cost model need). 0: not recorded.
  double task_seconds = 0.0;
  // task_seconds where recorded, else fit + transform + eval.
  double total_seconds() const {
    return task_seconds > 0 ? task_seconds : fit_seconds + transform_seconds + eval_seconds;
  }
  // The peak resident memory of the rank's process while the task ran (Linux: VmHWM, reset when
  // the task starts), so it includes what the rank already held (its datasets); 0: not recorded.
  std::uint64_t peak_rss_bytes = 0;
  std::vector<double> knn_error;  // one per evaluation.knn entry, fraction in [0,1]
  // One per quality column (quality_labels(): per-K measures once per K), and the standard error
  // of each (0 when computed exactly); the query points the co-ranking pass used; R_NX on its
  // log-K grid (empty unless rnx or rnx_auc was asked).
  std::vector<double> quality, quality_se;
  std::uint64_t quality_queries = 0;
  std::vector<double> rnx_curve_k, rnx_curve;
  arma::uword n_train = 0, n_test = 0, input_dim = 0;  // after preprocessing
  int rank = 0;
  // Threads the task's fit and scoring ran on (FitInput::threads): the config's `threads`, or
  // more for a task placed on a node with other ranks held back (docs/cluster.md). 0: not
  // recorded (files written before it was).
  int threads = 0;
  arma::mat embedding_train;  // kept only when output.keep_embeddings
  arma::mat embedding_test;
  // With the embeddings: the dataset columns (point indices, after any max_points subsampling)
  // and labels of the embedded training and test points, in embedding order.
  arma::uvec index_train, index_test, label_train, label_test;
  Trace trace;       // kept only when output.keep_traces
  TraceEnd fit_end;  // where the trace ended, always kept

  // Byte encoding used for MPI messages and the crash-safe journal.
  std::string serialize() const;
  static TaskResult deserialize(const std::string& bytes);
};

}  // namespace drbench
