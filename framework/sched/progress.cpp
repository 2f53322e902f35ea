#include "framework/sched/progress.hpp"

#include <unistd.h>

#include <string>

namespace drbench {

namespace {
std::string hms(double s) {
  if (!(s >= 0) || s > 1e8) return "--:--:--";
  const long t = static_cast<long>(s + 0.5);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02ld:%02ld:%02ld", t / 3600, (t / 60) % 60, t % 60);
  return buf;
}
}  // namespace

Progress::Progress(std::size_t total, std::size_t already_done, bool quiet)
    : total_(total), start_done_(already_done), quiet_(quiet), tty_(isatty(fileno(stderr)) != 0) {
  t0_ = last_ = std::chrono::steady_clock::now();
}

void Progress::update(std::size_t done, std::size_t failed, bool force) {
  if (quiet_) return;
  const auto now = std::chrono::steady_clock::now();
  const double since_last = std::chrono::duration<double>(now - last_).count();
  if (!force && since_last < (tty_ ? 0.2 : 5.0)) return;
  last_ = now;
  printed_ = true;
  last_done_ = done;
  last_failed_ = failed;
  const double elapsed = std::chrono::duration<double>(now - t0_).count();
  const std::size_t new_done = done - start_done_;
  const double eta = new_done ? elapsed / new_done * (total_ - done) : -1.0;
  std::fprintf(stderr, "%s[drbench] %zu/%zu tasks done, %zu failed, elapsed %s, ETA %s%s",
               tty_ ? "\r\033[K" : "", done, total_, failed, hms(elapsed).c_str(),
               done == total_ ? hms(0).c_str() : hms(eta).c_str(), tty_ ? "" : "\n");
  std::fflush(stderr);
}

void Progress::finish(std::size_t done, std::size_t failed) {
  // The last line printed may already say this; printed twice it reads as two events.
  if (!printed_ || done != last_done_ || failed != last_failed_) update(done, failed, true);
  if (!quiet_ && tty_) std::fputc('\n', stderr);
}

}  // namespace drbench
