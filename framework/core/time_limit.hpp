#pragma once
// Per-task time limits (config max_task_seconds). The task runner sets the deadline of the thread
// that runs the task; optimisers call check_task_deadline() once per iteration, so a long fit
// stops at its next iteration past the limit. The runner catches TimeLimitExceeded and records the
// task with status `timeout`.
#include <chrono>
#include <stdexcept>

namespace drbench {

class TimeLimitExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The calling thread's deadline; time_point::max() (the default) means none.
void set_task_deadline(std::chrono::steady_clock::time_point deadline);
// Throws TimeLimitExceeded("stopped at iteration <iteration>") past the calling thread's deadline.
void check_task_deadline(int iteration);

}  // namespace drbench
