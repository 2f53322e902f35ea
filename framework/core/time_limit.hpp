#pragma once
// A task ran past its time limit (config max_task_seconds). Thrown from inside the task and
// caught by the task runner, which records the task with status `timeout`.
#include <stdexcept>

namespace drbench {

class TimeLimitExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace drbench
