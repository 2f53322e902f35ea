#include "framework/support/stop_signal.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

namespace drbench {

namespace {

std::atomic<int> g_stop{0};     // stop signals so far (2 or more: abandon)
std::atomic<int> g_running{0};  // tasks running in this process
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");
// This process's rank under mpirun or srun, read before any signal can come; -1 without one.
int g_rank = -1;
// Set under Open MPI's mpirun, whose own SIGINT/SIGTERM become SIGTERM to the ranks and SIGKILL a
// second later (odls_base_sigkill_timeout): a SIGTERM from it leaves no time to finish a task.
bool g_mpirun_parent = false;

// The handler may only use async-signal-safe calls: the message is put together by hand and
// written with write(2), at once, whatever the process is doing.
class Line {
 public:
  Line& operator<<(const char* s) {
    while (*s && n_ < sizeof buf_ - 1) buf_[n_++] = *s++;
    return *this;
  }
  Line& operator<<(int v) {
    char d[12];
    int k = 0;
    unsigned u = v < 0 ? 0u : static_cast<unsigned>(v);
    do d[k++] = static_cast<char>('0' + u % 10);
    while ((u /= 10) > 0);
    while (k > 0 && n_ < sizeof buf_ - 1) buf_[n_++] = d[--k];
    return *this;
  }
  void emit() {
    buf_[n_++] = '\n';
    for (std::size_t off = 0; off < n_;) {
      const ssize_t w = write(STDERR_FILENO, buf_ + off, n_ - off);
      if (w <= 0) return;
      off += static_cast<std::size_t>(w);
    }
  }

 private:
  char buf_[400];
  std::size_t n_ = 0;
};

void announce(int count, bool from_launcher) {
  const int running = g_running.load();
  Line l;
  l << "[drbench] ";
  if (g_rank >= 0) l << "rank " << g_rank << ": ";
  if (count == 1 && from_launcher)
    l << "mpirun is ending the job (Ctrl-C or SIGTERM to mpirun, or another rank died): " << running
      << " running task(s) are abandoned, finished ones are saved; to let running tasks finish, "
         "stop with scripts/drbench-mpirun or kill -USR1 <mpirun pid> (docs/cluster.md)";
  else if (count == 1)
    l << "stopping: " << running << " running task(s) will be saved; Ctrl-C again to abandon them";
  else if (count == 2)
    l << "abandoning " << running
      << " running task(s): they are not saved and rerun on resume; Ctrl-C again to quit at once";
  else
    return;
  l.emit();
}

extern "C" void on_stop_signal(int sig, siginfo_t* info, void*) {
  const int saved_errno = errno;
  const int before = g_stop.fetch_add(1);
  int count = before + 1;
  const bool from_launcher = g_mpirun_parent && sig == SIGTERM && info && info->si_pid == getppid();
  // A rank that is already stopping with nothing running gets mpirun's SIGTERM when another rank
  // has exited with the stop's status first (mpirun ends the job on any non-zero exit): nothing is
  // lost, and a line here would only break up the launcher's notices.
  if (from_launcher && before > 0 && g_running.load() == 0) {
    errno = saved_errno;
    return;
  }
  if ((sig == SIGUSR2 || from_launcher) && count < 2) {
    g_stop.store(2);
    count = 2;
  }
  if (count >= 3 && sig == SIGINT) {
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
  }
  announce(from_launcher ? 1 : count, from_launcher);
  errno = saved_errno;
}

int launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* v = std::getenv(name)) return std::atoi(v);
  return -1;
}

}  // namespace

void install_stop_handlers() {
  // From the environment the launcher gave, before MPI_Init (a singleton's MPI_Init sets a rank
  // variable of its own).
  static const bool once = [] {
    g_rank = launcher_rank();
    g_mpirun_parent = std::getenv("OMPI_COMM_WORLD_RANK") != nullptr;
    return true;
  }();
  (void)once;
  struct sigaction sa {};
  sa.sa_sigaction = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  // SIGTERM stays caught: mpirun also sends it to ranks still running when another one exits or
  // dies, and a rank finishing its stop must not die of it before it says so.
  sa.sa_flags = SA_RESTART | SA_SIGINFO;
  for (int s : {SIGINT, SIGTERM, SIGUSR1, SIGUSR2}) sigaction(s, &sa, nullptr);
}

bool stop_requested() {
  return g_stop.load() != 0;
}
bool abandon_requested() {
  return g_stop.load() >= 2;
}
void request_stop() {
  int expected = 0;
  g_stop.compare_exchange_strong(expected, 1);
}

void task_started() {
  g_running.fetch_add(1);
}
void task_ended() {
  g_running.fetch_sub(1);
}

}  // namespace drbench
