#include "framework/sched/run_task.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/data/load.hpp"
#include "framework/data/preprocess.hpp"
#include "framework/data/split.hpp"
#include "framework/eval/coranking.hpp"
#include "framework/eval/knn.hpp"
#include "framework/sched/order.hpp"
#include "framework/support/memory_size.hpp"
#include "framework/support/stop_signal.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The quality measures the config asks for, in its order, on one (input, embedding) pair: one
// co-ranking pass, its query sample seeded by the task.
// `labels` are the scored points' classes (the label-based measures use them; no method sees them).
// An inner validation task (fold >= 0) only chooses a setting by its kNN error: no measures
// (its quality columns read NaN).
void quality_scores(const EvaluationSpec& ev, const arma::mat& high, const arma::mat& low,
                    const arma::uvec& labels, std::uint64_t seed, unsigned threads, TaskResult& r,
                    int fold) {
  if (ev.quality.empty() || fold >= 0) return;
  QualityRequest req{ev.quality,
                     ev.quality_k,
                     arma::uword(ev.quality_sample),
                     hash_seed(seed, "quality"),
                     std::max(1u, threads),
                     &labels};
  const QualityResult q = drbench::quality_scores(high, low, req);
  r.quality.clear();
  r.quality_se.clear();
  for (const auto& c : q.columns) {
    r.quality.push_back(c.value);
    r.quality_se.push_back(c.se);
  }
  r.quality_queries = q.queries;
  r.rnx_curve_k.assign(q.curve_k.begin(), q.curve_k.end());
  r.rnx_curve = q.curve;
}

void require_finite(const arma::mat& E, const char* what) {
  if (!E.is_finite())
    throw MethodError(std::string(what) +
                      " contains NaN or Inf (the fit diverged; try a "
                      "stronger regulariser or fewer iterations)");
}

}  // namespace

std::uint64_t dataset_seed(const Experiment& ex, std::size_t i) {
  return hash_seed(ex.seed, "dataset|" + ex.datasets.at(i).name);
}

const Dataset& TaskRunner::dataset(std::size_t i) {
  auto it = cache_.find(i);
  if (it != cache_.end()) return it->second;
  return cache_.emplace(i, load_dataset(ex_.datasets.at(i), search_path_, dataset_seed(ex_, i)))
      .first->second;
}

namespace {
// Errors of the machine rather than of the method, as the C library and the external-command
// runner word them.
bool caused_by_environment(const std::string& error) {
  for (const char* cause : {"No space left on device", "Disk quota exceeded",
                            "Cannot allocate memory", "could not be executed"})
    if (error.find(cause) != std::string::npos) return true;
  return false;
}

std::atomic<bool> g_iteration_progress{false};
thread_local const std::string* t_task_key = nullptr;
thread_local Clock::time_point t_task_start, t_last_shown, t_loop_start;
// The loop being watched: where its iterations were first seen (an iteration number lower than
// the last one starts another loop or phase), and its last evaluated objective.
thread_local int t_loop_first = 0, t_last_iteration = 0;
thread_local double t_objective = std::nan("");

std::string duration_text(double seconds) {
  char buf[32];
  if (seconds < 60)
    std::snprintf(buf, sizeof buf, "%.0f s", seconds);
  else if (seconds < 3600)
    std::snprintf(buf, sizeof buf, "%dm%02ds", int(seconds) / 60, int(seconds) % 60);
  else
    std::snprintf(buf, sizeof buf, "%dh%02dm", int(seconds) / 3600, int(seconds) / 60 % 60);
  return buf;
}

// Each iteration of a fit (check_task_deadline): on a terminal, where a long fit is, at most
// every 2 s and only after its first 5 s (short tasks show nothing). The ETA is the time left to
// the loop's iteration cap at its rate so far: an upper bound where a tolerance stops it sooner.
void on_iteration(const IterationState& st) {
  if (!g_iteration_progress.load(std::memory_order_relaxed) || !t_task_key) return;
  const auto now = Clock::now();
  if (st.iteration < t_last_iteration || t_loop_start == Clock::time_point{}) {
    t_loop_start = now;
    t_loop_first = st.iteration;
  }
  t_last_iteration = st.iteration;
  if (std::isfinite(st.objective)) t_objective = st.objective;
  if (now - t_task_start < std::chrono::seconds(5) || now - t_last_shown < std::chrono::seconds(2))
    return;
  t_last_shown = now;
  std::string line = "iteration " + std::to_string(st.iteration);
  if (st.max_iterations > 0) line += "/" + std::to_string(st.max_iterations);
  if (std::isfinite(t_objective)) {
    char buf[48];
    std::snprintf(buf, sizeof buf, ", objective %.6g", t_objective);
    line += buf;
  }
  line += ", " + duration_text(since(t_task_start));
  const int done = st.iteration - t_loop_first;
  if (st.max_iterations > st.iteration && done > 0)
    line += ", ETA " +
            duration_text(std::chrono::duration<double>(now - t_loop_start).count() / done *
                          (st.max_iterations - st.iteration)) +
            " at most";
  std::fprintf(stderr, "\r\033[K[drbench] task %s: %s", t_task_key->c_str(), line.c_str());
  std::fflush(stderr);
}
}  // namespace

TaskResult failed_result(const Experiment& ex, const Task& t, std::string error) {
  TaskResult r;
  r.task_id = t.id;
  r.key = t.key;
  r.error = std::move(error);
  r.knn_error.assign(ex.evaluation.knn.size(), arma::datum::nan);
  r.quality.assign(quality_labels(ex.evaluation.quality, ex.evaluation.quality_k).size(),
                   arma::datum::nan);
  r.quality_se = r.quality;
  return r;
}

void show_iteration_progress(bool on) {
  g_iteration_progress = on;
}

TaskResult TaskRunner::run(const Task& t, int rank, int threads) {
  TaskResult r;
  r.task_id = t.id;
  r.key = t.key;
  r.rank = rank;
  r.threads = threads > 0 ? threads : ex_.threads;
  const double limit = ex_.max_task_seconds;
  const auto t0 = Clock::now();
  fit_shape_ = DataShape{};
  const bool peak_reset = reset_peak_resident();
  // Fits driven by the shared optimisers stop at their first iteration past the limit
  // (check_task_deadline); the others are judged when they return.
  set_task_deadline(limit > 0 ? deadline_after(t0, limit) : Clock::time_point::max());
  // Counted for the stop message ("N running tasks will be saved").
  struct Running {
    explicit Running(const std::string& key) {
      task_started();
      set_iteration_observer(on_iteration);
      t_task_key = &key;
      t_task_start = t_last_shown = Clock::now();
      t_loop_start = Clock::time_point{};
      t_last_iteration = 0;
      t_objective = std::nan("");
    }
    ~Running() {
      set_iteration_observer(nullptr);
      t_task_key = nullptr;
      task_ended();
    }
  } running(t.key);
  try {
    run_inner(t, r);
    if (limit > 0 && since(t0) > limit)
      throw TimeLimitExceeded("finished after " + std::to_string(since(t0)) + " s");
    r.ok = true;
  } catch (const TaskInterrupted& e) {
    r.ok = false;
    r.error = std::string(kInterrupted) + e.what();
  } catch (const TimeLimitExceeded& e) {
    r.ok = false;
    r.timed_out = true;
    // Without max_task_seconds the limit was the method's own (an external command's timeout).
    r.error = limit > 0 ? "timeout: the task ran past max_task_seconds = " +
                              to_string(ParamValue(limit)) + " (" + e.what() + ")"
                        : std::string("timeout: ") + e.what();
  } catch (const std::bad_alloc&) {
    // What unwinding freed lets the sweep go on; the record says how much the task wanted.
    r.ok = false;
    r.error = std::string(kEnvironmentFailure) + out_of_memory_message(t);
  } catch (const std::exception& e) {
    r.ok = false;
    r.error = e.what();
    if (caused_by_environment(r.error)) r.error = kEnvironmentFailure + r.error;
  }
  if (!r.ok) {
    r.knn_error.assign(ex_.evaluation.knn.size(), arma::datum::nan);
    r.quality.assign(quality_labels(ex_.evaluation.quality, ex_.evaluation.quality_k).size(),
                     arma::datum::nan);
    r.quality_se = r.quality;
    r.quality_queries = 0;
    r.rnx_curve_k.clear();
    r.rnx_curve.clear();
  }
  if (!ex_.output.keep_embeddings) {
    r.embedding_train.reset();
    r.embedding_test.reset();
    r.index_train.reset();
    r.index_test.reset();
    r.label_train.reset();
    r.label_test.reset();
  }
  r.fit_end = trace_end(r.trace);
  if (!ex_.output.keep_traces) r.trace = Trace{};
  r.task_seconds = since(t0);
  if (peak_reset) r.peak_rss_bytes = peak_resident_bytes();
  return r;
}

std::string TaskRunner::out_of_memory_message(const Task& t) const {
  const MethodSpec& ms = ex_.methods.at(t.method);
  // Ran out before the partition was prepared: loading or preprocessing the data did.
  if (fit_shape_.n == 0)
    return "out of memory while loading and preprocessing dataset '" +
           ex_.datasets.at(t.dataset).name +
           "' (fix: fewer points via max_points, or more memory per rank: fewer ranks per node)";
  const MethodInfo& info = Registry::instance().get(ms.method);
  const double need = memory_of(info, fit_shape_, t.setting, t.dim == 0 ? fit_shape_.d : t.dim);
  return "out of memory (needed about " + format_bytes(need) + " for " + ms.label + " on " +
         std::to_string(fit_shape_.n) + " points in " + std::to_string(fit_shape_.d) +
         "-D; fix: fewer training points, landmarks or neighbour_graph: approximate where the "
         "method has them, or fewer ranks per node and a larger --memory-per-rank)";
}

bool keeps_sparse(const Experiment& ex, std::size_t mi, const std::vector<PreprocStep>& chain) {
  const MethodSpec& ms = ex.methods.at(mi);
  return Registry::instance().get(ms.method).sparse_input && ms.transductive() && chain.empty() &&
         ex.evaluation.quality.empty();
}

std::shared_ptr<const PreparedSplit> TaskRunner::prepared(const Task& t) {
  const std::vector<PreprocStep>& chain = task_preprocessing(ex_, t);
  const Dataset& ds = dataset(t.dataset);
  const bool sparse_fit = ds.sparse() && keeps_sparse(ex_, t.method, chain);
  const std::string key = prepared_key(ex_, t) + (sparse_fit ? "|sparse" : "");
  if (auto hit = splits_.find(key)) return hit;

  const bool transductive = ex_.methods.at(t.method).transductive();
  Partition part = make_partition(ds, ex_.splits, t.split_value, t.split_seed);
  // An inner task sees only its partition's training points: an inner split of them stands in
  // for the partition, under the same protocol, and the partition's test points stay unseen.
  if (t.fold >= 0)
    part = inner_partition(ds, part, ex_.evaluation.validation_folds,
                           ex_.evaluation.validation_fraction, t.fold,
                           hash_seed(t.split_seed, "inner"));
  PreparedSplit p;
  p.train = part.train;
  p.test = part.test;
  // Transductive protocol: training and test points are embedded together, the method sees the
  // training labels only, and each test point is classified by its neighbours among the training
  // points of the joint embedding. splits: {all: true} has no test points: every point is scored
  // leave-one-out (only unsupervised methods get there, see the config validator).
  p.loo = transductive && part.test.is_empty();
  const arma::uvec fit_idx =
      transductive ? arma::uvec(arma::sort(arma::join_cols(part.train, part.test))) : part.train;
  p.train_pos = arma::regspace<arma::uvec>(0, part.train.n_elem - 1);
  if (transductive && !p.loo) {
    arma::uvec is_test(ds.n(), arma::fill::zeros);
    is_test.elem(part.test).fill(1);
    p.train_pos = arma::find(is_test.elem(fit_idx) == 0);
    p.test_pos = arma::find(is_test.elem(fit_idx) == 1);
  }
  // The preprocessing is fitted on the training points only, under either protocol.
  // Holdout fits on exactly the training points, so fitting transforms them as well.
  // Sparse points stay sparse through the columns' copy; the pipeline says where they densify.
  Pipeline pipe(chain);
  if (sparse_fit) {
    p.Xsfit = ds.Xs.cols(fit_idx);
  } else if (ds.sparse() && transductive) {
    pipe.fit(arma::sp_mat(ds.Xs.cols(part.train)));
    p.Xfit = pipe.apply(arma::sp_mat(ds.Xs.cols(fit_idx)));
  } else if (ds.sparse()) {
    p.Xfit = pipe.fit_apply(arma::sp_mat(ds.Xs.cols(part.train)));
  } else if (transductive) {
    pipe.fit(ds.X.cols(part.train));
    p.Xfit = pipe.apply(ds.X.cols(fit_idx));
  } else {
    p.Xfit = pipe.fit_apply(ds.X.cols(part.train));
  }
  p.yfit = ds.y.elem(fit_idx);
  p.yseen = p.yfit;
  if (!p.test_pos.is_empty()) p.yseen.elem(p.test_pos).fill(kUnlabelled);
  if (!ds.sequence.is_empty()) p.seqfit = ds.sequence.elem(fit_idx);
  if (!transductive) {
    p.Xtest = ds.sparse() ? pipe.apply(arma::sp_mat(ds.Xs.cols(part.test)))
                          : pipe.apply(ds.X.cols(part.test));
    p.ytest = ds.y.elem(part.test);
  }
  return splits_.insert(key, std::move(p));
}

void TaskRunner::run_inner(const Task& t, TaskResult& r) {
  const Dataset& ds = dataset(t.dataset);
  const MethodSpec& ms = ex_.methods.at(t.method);
  const MethodInfo& info = Registry::instance().get(ms.method);
  const bool transductive = ms.transductive();

  const std::shared_ptr<const PreparedSplit> prep = prepared(t);
  const arma::mat& Xfit = prep->Xfit;
  const bool sparse_fit = prep->Xsfit.n_cols > 0;
  const arma::uvec& yfit = prep->yfit;
  const arma::uvec& train_pos = prep->train_pos;
  const arma::uvec& test_pos = prep->test_pos;
  const bool loo = prep->loo;
  r.n_train = prep->train.n_elem;
  r.input_dim = sparse_fit ? prep->Xsfit.n_rows : Xfit.n_rows;

  const DataShape shape{sparse_fit ? prep->Xsfit.n_cols : Xfit.n_cols, r.input_dim, ds.n_classes};
  fit_shape_ = shape;
  fit_shape_.n_test = prep->Xtest.n_cols;
  if (info.supervised && (loo || (transductive && !info.partial_labels)))
    throw Error("internal: supervised method " + ms.method +
                " reached a transductive task it cannot run without seeing test labels");

  // Anything that still draws from Armadillo's global generator gets a per-task seed too.
  arma::arma_rng::set_seed(t.seed);
  Rng rng(t.seed);
  FitInput in{Xfit, info.supervised ? &prep->yseen : nullptr, ds.n_classes, t.dim, rng, &r.trace};
  if (!prep->seqfit.is_empty()) in.sequence = &prep->seqfit;
  if (sparse_fit) in.Xs = &prep->Xsfit;
  in.dataset = ds.name;
  in.threads = static_cast<unsigned>(std::max(1, r.threads));
  if (!transductive) in.Xnew = &prep->Xtest;
  // The checked door the contract test certifies (finite input, labels, dims), not make + fit.
  auto t0 = Clock::now();
  const std::unique_ptr<Method> method = info.fit(t.setting, in);
  arma::mat Efit = method->embedding();
  r.fit_seconds = since(t0);
  require_finite(Efit, "the training embedding");
  if (Efit.n_cols != shape.n)
    throw Error("internal: " + ms.method + " returned " + std::to_string(Efit.n_cols) +
                " embedded points for " + std::to_string(shape.n) + " inputs");

  const auto& ks = ex_.evaluation.knn;
  const std::string& metric = ex_.evaluation.knn_metric;
  if (loo) {
    auto t1 = Clock::now();
    r.knn_error = knn_loo_errors(Efit, yfit, ks, metric);
    quality_scores(ex_.evaluation, Xfit, Efit, yfit, t.seed, in.threads, r, t.fold);
    r.eval_seconds = since(t1);
  } else if (transductive) {
    auto t1 = Clock::now();
    const arma::mat Etrain = Efit.cols(train_pos), Etest = Efit.cols(test_pos);
    r.n_test = test_pos.n_elem;
    r.knn_error = knn_errors(Etrain, yfit.elem(train_pos), Etest, yfit.elem(test_pos), ks, metric);
    quality_scores(ex_.evaluation, Xfit, Efit, yfit, t.seed, in.threads, r,
                   t.fold);  // all embedded points
    r.eval_seconds = since(t1);
    r.embedding_test = Etest;
    Efit = Etrain;
  } else {
    const arma::mat& Xtest = prep->Xtest;
    const arma::uvec& ytest = prep->ytest;
    r.n_test = Xtest.n_cols;
    auto t1 = Clock::now();
    arma::mat Etest = method->transform(Xtest);
    r.transform_seconds = since(t1);
    require_finite(Etest, "the test embedding");
    auto t2 = Clock::now();
    r.knn_error = knn_errors(Efit, yfit, Etest, ytest, ks, metric);
    quality_scores(ex_.evaluation, Xtest, Etest, ytest, t.seed, in.threads, r, t.fold);
    r.eval_seconds = since(t2);
    r.embedding_test = std::move(Etest);
  }
  r.embedding_train = std::move(Efit);
  if (ex_.output.keep_embeddings) {
    r.index_train = prep->train;
    r.index_test = prep->test;
    r.label_train = ds.y.elem(prep->train);
    r.label_test = ds.y.elem(prep->test);
  }
}

}  // namespace drbench
