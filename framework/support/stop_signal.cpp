#include "framework/support/stop_signal.hpp"

#include <atomic>
#include <csignal>

namespace drbench {

namespace {

std::atomic<int> g_stop{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_stop_signal(int) {
  g_stop.store(1);
}

}  // namespace

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  // SIGTERM stays caught: mpirun sends it to the ranks still running when one exits non-zero (as
  // rank 0 does, with 75, after a stop), and a rank still finishing its own stop must not die of
  // it. A second ^C ends the process at once.
  sa.sa_flags = SA_RESTART;
  for (int s : {SIGTERM, SIGUSR1}) sigaction(s, &sa, nullptr);
  sa.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
}

bool stop_requested() {
  return g_stop.load() != 0;
}
void request_stop() {
  g_stop.store(1);
}

}  // namespace drbench
