#pragma once
// Rank 0's progress line: one line rewritten in place on a terminal, plain lines at most every
// few seconds otherwise (cluster logs), so a 10,000-task sweep does not flood the job's output.
#include <chrono>
#include <cstddef>
#include <cstdio>

namespace drbench {

class Progress {
 public:
  Progress(std::size_t total, std::size_t already_done, bool quiet);
  void update(std::size_t done, std::size_t failed, bool force = false);
  void finish(std::size_t done, std::size_t failed);

 private:
  std::size_t total_, start_done_;
  bool quiet_, tty_;
  std::chrono::steady_clock::time_point t0_, last_;
  bool printed_ = false;  // what the last printed line said, so finish() does not repeat it
  std::size_t last_done_ = 0, last_failed_ = 0;
};

}  // namespace drbench
