#pragma once
// What the neighbour layouts with their own optimiser loop (PaCMAP's Adam, TriMap's
// delta-bar-delta) share: the refusal of too few points for the neighbours asked, and the end of
// every iteration (the trace row, a loss that is no longer finite refused with the fix, and the
// task's time limit, stop signal and progress line, which the shared optimisers get the same way).
#include <armadillo>
#include <chrono>
#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/core/method.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

// `neighbours` nearest others need more than neighbours + 1 of the n points.
inline void check_layout_neighbours(const char* method, arma::uword neighbours, arma::uword n) {
  if (neighbours + 1 >= n)
    throw MethodError(std::string(method) + ": neighbours = " + std::to_string(neighbours) +
                      " needs more than " + std::to_string(neighbours + 1) + " points, got " +
                      std::to_string(n) + " (fix: neighbours < " + std::to_string(n - 1) + ")");
}

// Iteration itr (0-based) of `iterations` of `method`'s layout, loss f and gradient G, the
// accepted step `step`; t0 is when the loop started.
inline void end_layout_iteration(const FitInput& in, const char* method, int itr, int iterations,
                                 double f, const arma::mat& G,
                                 std::chrono::steady_clock::time_point t0, double step) {
  if (in.trace)
    in.trace->log(itr + 1, f, arma::norm(G, "fro"),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  step);
  if (!std::isfinite(f))
    throw MethodError(std::string(method) + ": the loss is not finite at iteration " +
                      std::to_string(itr + 1) + " (fix: lower 'learning_rate')");
  check_task_deadline(itr + 1, f, iterations);
}

}  // namespace drbench
