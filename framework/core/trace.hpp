#pragma once
// What an iterative method reports about its optimisation. The scheduler stores it in the results
// file when the config asks for traces; the brief requires objective, gradient norm and time per
// iteration for every optimiser.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace drbench {

struct TraceRow {
  int iteration = 0;
  double objective = 0.0;
  double grad_norm = 0.0;
  double seconds = 0.0;  // wall time since the optimiser started
  // Length of the accepted step (line-search step size or learning rate times the update's
  // scale, as the optimiser defines it); NaN where the optimiser does not record one.
  double step = std::numeric_limits<double>::quiet_NaN();
};

struct Trace {
  std::string optimizer;  // e.g. "scg", "lbfgs"
  std::vector<TraceRow> rows;
  std::vector<std::pair<std::string, std::string>> notes;  // e.g. {"jitter", "1e-6"}

  void log(int it, double f, double g, double s) { rows.push_back({it, f, g, s}); }
  void log(int it, double f, double g, double s, double step) {
    rows.push_back({it, f, g, s, step});
  }
  // Both strings are built in place in the new element. Moving temporary std::strings into the
  // pair made g++ 12 report a -Warray-bounds false positive inside libstdc++'s inlined string move
  // when compiled with the precompiled header (methods/neighbour/tsne/tsne.cpp).
  void note(std::string_view key, std::string_view value) {
    notes.emplace_back(std::piecewise_construct, std::forward_as_tuple(key),
                       std::forward_as_tuple(value));
  }
};

// Where a fit's optimiser ended: kept for every task in the task table, so a results file written
// without traces (a cluster table) still shows which fits stopped early or ran out of iterations.
struct TraceEnd {
  std::uint64_t iterations = 0;  // the last row's iteration; 0 when the method logs no optimiser
  double objective = std::numeric_limits<double>::quiet_NaN();
  double grad_norm = std::numeric_limits<double>::quiet_NaN();
  std::string stop_reason;  // the last stop_reason note ("" when none)
};

inline TraceEnd trace_end(const Trace& t) {
  TraceEnd e;
  if (!t.rows.empty()) {
    e.iterations = t.rows.back().iteration > 0 ? std::uint64_t(t.rows.back().iteration) : 0;
    e.objective = t.rows.back().objective;
    e.grad_norm = t.rows.back().grad_norm;
  }
  for (const auto& [k, v] : t.notes)
    if (k == "stop_reason") e.stop_reason = v;
  return e;
}

}  // namespace drbench
