#include "framework/support/child_rehearsal.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>

#include "framework/core/error.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/common_interface_defs.h>
#define DRBENCH_UNDER_ASAN 1
#endif
#endif

namespace drbench {

namespace {

// In the child a crash must end the child as it would in production. Under a fuzzer the inherited
// crash handlers would instead report the child's death as the fuzzer's own finding (and exit with
// a status, not a signal).
void die_plainly_on_crash() {
#ifdef DRBENCH_UNDER_ASAN
  __sanitizer_set_death_callback(nullptr);
#endif
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) std::signal(sig, SIG_DFL);
}

std::string describe(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "crashed the HDF5 library (signal " + std::to_string(sig) + ", " + strsignal(sig) + ")";
  }
  return "ended the reading process abnormally (exit status " +
         std::to_string(WEXITSTATUS(status)) + ")";
}

}  // namespace

void rehearse_in_child(const std::string& file, const std::string& fix,
                       const std::function<void()>& read, const RehearsalLimits& limits) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(file, ec);
  const double limit_s =
      limits.base_seconds + (ec ? 0.0 : double(bytes) / limits.slowest_bytes_per_s);
  std::fflush(nullptr);  // nothing buffered may be written twice
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::fprintf(
        stderr, "[drbench] warning: cannot fork to rehearse reading %s (%s); reading it directly\n",
        file.c_str(), std::strerror(errno));
    return;
  }
  if (pid == 0) {
    die_plainly_on_crash();
    try {
      read();
    } catch (...) {
      // The parent repeats the read and reports the error itself.
    }
    ::_exit(0);
  }
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto pause = std::chrono::microseconds(50);
  int status = 0;
  for (;;) {
    const pid_t got = ::waitpid(pid, &status, WNOHANG);
    if (got == pid) break;
    if (got < 0 && errno != EINTR)
      throw Error(file + ": lost the process rehearsing its read: " + std::strerror(errno));
    if (std::chrono::duration<double>(Clock::now() - start).count() > limit_s) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      throw DataError(file + ": reading it did not finish within " +
                      std::to_string(static_cast<long>(limit_s)) +
                      " s (the HDF5 library loops on some damaged files) (fix: " + fix + ")");
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  throw DataError(file + ": reading it " + describe(status) +
                  " in a separate process, so the file is damaged or not one this libhdf5 can "
                  "read (fix: " +
                  fix + ")");
}

}  // namespace drbench
