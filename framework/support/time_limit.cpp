#include "framework/support/time_limit.hpp"

#include <string>

#include "framework/support/stop_signal.hpp"

namespace drbench {

namespace {
// Thread-local: rank 0 runs its tasks in a worker thread beside the dispatcher.
thread_local std::chrono::steady_clock::time_point t_deadline =
    std::chrono::steady_clock::time_point::max();
thread_local void (*t_observer)(const IterationState&) = nullptr;
}  // namespace

void set_task_deadline(std::chrono::steady_clock::time_point deadline) {
  t_deadline = deadline;
}

std::chrono::steady_clock::time_point task_deadline() {
  return t_deadline;
}

void set_iteration_observer(void (*observer)(const IterationState&)) {
  t_observer = observer;
}

std::chrono::steady_clock::time_point deadline_after(std::chrono::steady_clock::time_point from,
                                                     double seconds) {
  using Clock = std::chrono::steady_clock;
  const double room = std::chrono::duration<double>(Clock::time_point::max() - from).count();
  if (!(seconds < room)) return Clock::time_point::max();  // NaN too: no limit, not a wrap
  return from + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

void check_task_deadline(int iteration, double objective, int max_iterations) {
  if (t_observer) t_observer({iteration, objective, max_iterations});
  // A second stop signal abandons the running fits here, at their next iteration.
  if (abandon_requested())
    throw TaskInterrupted("abandoned at a stop signal (iteration " + std::to_string(iteration) +
                          ")");
  if (t_deadline != std::chrono::steady_clock::time_point::max() &&
      std::chrono::steady_clock::now() > t_deadline)
    throw TimeLimitExceeded("stopped at iteration " + std::to_string(iteration));
}

}  // namespace drbench
