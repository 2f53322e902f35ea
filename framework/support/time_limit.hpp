#pragma once
// Per-task time limits (config max_task_seconds). The task runner sets the deadline of the thread
// that runs the task; optimisers call check_task_deadline() once per iteration, so a long fit
// stops at its next iteration past the limit. The runner catches TimeLimitExceeded and records the
// task with status `timeout`.
#include <chrono>
#include <limits>
#include <stdexcept>

namespace drbench {

class TimeLimitExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A task abandoned because the run was asked to stop (a second stop signal): not a result. The
// runner marks it (TaskResult::error starts with kInterrupted) and the recorder leaves it out, so
// resuming runs it again.
class TaskInterrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
inline constexpr const char* kInterrupted = "interrupted: ";
// A task that failed because of where it ran, not because of the method (out of memory, a full
// disk or TMPDIR, a program missing): recorded as failed with this prefix, and a resumed run
// tries it again.
inline constexpr const char* kEnvironmentFailure = "environment: ";

// The calling thread's deadline; time_point::max() (the default) means none.
void set_task_deadline(std::chrono::steady_clock::time_point deadline);
// The calling thread's deadline (time_point::max() when none): for work that waits on something
// else (an external process) rather than iterating.
std::chrono::steady_clock::time_point task_deadline();
// `seconds` after `from`, saturated to time_point::max() (no limit) where the sum would not fit
// the clock (about 292 years from boot: max_task_seconds: 1e10 or 1e300 means no practical
// limit, never a deadline that wrapped into the past).
std::chrono::steady_clock::time_point deadline_after(std::chrono::steady_clock::time_point from,
                                                     double seconds);
// Where a fit is, as its loop reports it to check_task_deadline.
struct IterationState {
  int iteration = 0;
  double objective = std::numeric_limits<double>::quiet_NaN();  // NaN: not evaluated this time
  int max_iterations = 0;  // the loop's iteration cap (the budget an ETA is read from); 0: none
};
// Throws TimeLimitExceeded("stopped at iteration <iteration>") past the calling thread's deadline,
// and TaskInterrupted once the run is asked to abandon its running tasks (stop_signal.hpp). Every
// iterative loop of a method calls it once per iteration (the shared optimisers do, and the
// methods with loops of their own), so limits, stop signals and the progress line reach them all.
void check_task_deadline(int iteration, double objective = std::numeric_limits<double>::quiet_NaN(),
                         int max_iterations = 0);
// Called by check_task_deadline with each iteration, on the thread that runs the task (the task
// runner shows a long fit's progress with it); nullptr: none.
void set_iteration_observer(void (*observer)(const IterationState& state));

}  // namespace drbench
