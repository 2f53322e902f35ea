#include "methods/external/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "framework/support/bytes.hpp"

extern char** environ;

namespace drbench::external {

namespace {

using Clock = std::chrono::steady_clock;

bool executable_file(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

std::string tail_of(const std::string& file, std::size_t bytes) {
  // Opening a FIFO the command put in its place would wait for a writer forever.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return "";
  std::ifstream in(file, std::ios::binary);
  if (!in) return "";
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  // Three bytes more than asked, so the cut can move to the next character boundary.
  const std::streamoff want = std::streamoff(bytes) + 3;
  const std::streamoff from = size > want ? size - want : 0;
  in.seekg(from);
  std::string s(static_cast<std::size_t>(size - from), '\0');
  in.read(s.data(), std::streamsize(s.size()));
  return valid_utf8(s.substr(utf8_tail_start(s, bytes)));
}

// Waits for pid, polling so that the deadline and stop requests are seen; true when it ended.
bool wait_until(pid_t pid, int& status, Clock::time_point until, const std::function<bool()>& stop,
                bool& stopped) {
  auto pause = std::chrono::milliseconds(2);
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) return true;  // not our child any more: nothing to wait for
    if (stop && stop()) {
      stopped = true;
      return false;
    }
    if (Clock::now() >= until) return false;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

// SIGTERM to the group, a moment to leave, then SIGKILL; reaps the child.
void kill_group(pid_t pid, int& status) {
  ::kill(-pid, SIGTERM);
  bool ignored = false;
  if (!wait_until(pid, status, Clock::now() + std::chrono::seconds(2), {}, ignored)) {
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ::kill(-pid, SIGKILL);  // whatever the child left behind in its group
}

}  // namespace

std::vector<std::string> kill_strays(const std::string& marker) {
  std::vector<std::string> killed;
  const pid_t self = ::getpid();
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = static_cast<pid_t>(std::atol(name.c_str()));
    if (pid == self) continue;
    std::ifstream env(e.path() / "environ", std::ios::binary);
    bool found = false;
    for (std::string entry; !found && std::getline(env, entry, '\0');) found = entry == marker;
    if (!found || ::kill(pid, SIGKILL) != 0) continue;
    std::ifstream comm(e.path() / "comm");
    std::string what;
    std::getline(comm, what);
    killed.push_back(name + " (" + what + ")");
  }
  return killed;
}

std::string process_start_time(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string s;
  if (!std::getline(in, s)) return "";
  // Field 2 (the name, in parentheses) may hold spaces: count fields after its last ')'.
  std::size_t at = s.rfind(')');
  if (at == std::string::npos) return "";
  std::istringstream rest(s.substr(at + 1));
  std::string field;
  for (int i = 3; i <= 22 && rest >> field; ++i) {
  }
  return field;
}

std::string RunOutcome::describe() const {
  char buf[64];
  if (!started) return "could not be started (fork failed)";
  if (timed_out) {
    std::snprintf(buf, sizeof buf, "%.1f", seconds);
    return std::string("timed out after ") + buf + " s and was killed";
  }
  if (interrupted) return "was stopped by a stop signal";
  if (signal != 0)
    return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  if (exit_status == 127) return "exit status 127 (the command could not be executed)";
  return "exit status " + std::to_string(exit_status);
}

std::string resolve_executable(const std::string& name, const std::string& base_dir) {
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos) {
    std::filesystem::path p(name);
    if (p.is_relative()) p = std::filesystem::path(base_dir) / p;
    const std::string s = std::filesystem::absolute(p).lexically_normal().string();
    return executable_file(s) ? s : "";
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t at = 0;
  while (at <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', at), dirs.size());
    const std::string dir = dirs.substr(at, end - at);
    const std::string cand = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (executable_file(cand)) return cand;
    at = end + 1;
  }
  return "";
}

// The variables through which mpirun or srun tells a rank who it is (OMPI_*, PMIX_*, PMI_*, ...):
// a command that is itself an MPI program would take them as its own and fail in MPI_Init
// (orte_init failed), so a command starts as if from a plain shell. Open MPI's permission to run
// as root is kept.
bool mpi_runtime_variable(const std::string& key) {
  if (key.rfind("OMPI_ALLOW_RUN_AS_ROOT", 0) == 0) return false;
  for (const char* prefix : {"OMPI_", "PMIX_", "PMI_", "OPAL_", "ORTE_", "PRTE_", "HYDRA_",
                             "MPI_LOCALNRANKS", "MPI_LOCALRANKID"})
    if (key.rfind(prefix, 0) == 0) return true;
  return false;
}

RunOutcome run_command(const RunRequest& req, std::size_t tail_bytes) {
  RunOutcome out;
  // Everything the child needs is built here: between fork and exec it only makes system calls.
  std::vector<std::string> args = req.argv;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::map<std::string, std::string> envmap;
  for (char** e = environ; e && *e; ++e) {
    const std::string s = *e;
    const auto eq = s.find('=');
    const std::string key = s.substr(0, eq);
    if (mpi_runtime_variable(key)) continue;
    envmap[key] = eq == std::string::npos ? "" : s.substr(eq + 1);
  }
  for (const auto& e : req.env) {
    const auto eq = e.find('=');
    envmap[e.substr(0, eq)] = e.substr(eq + 1);
  }
  std::vector<std::string> envs;
  for (const auto& [k, v] : envmap) envs.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& e : envs) envp.push_back(e.data());
  envp.push_back(nullptr);
  const std::string out_file = req.workdir + "/stdout.txt", err_file = req.workdir + "/stderr.txt";
  const char* exec_failed = "drbench: exec failed: ";
  const pid_t parent = ::getpid();

  const auto t0 = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) return out;
  if (pid == 0) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent died before prctl took effect
    // The stop handlers of the parent must not outlive exec as ignored signals. SIGUSR1 is
    // drbench's "stop after the running tasks", and srun passes it to every process of the job
    // step, this command included: ignored, the command finishes as a first stop promises.
    ::signal(SIGTERM, SIG_DFL);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGUSR1, SIG_IGN);
    ::signal(SIGPIPE, SIG_DFL);
    if (::chdir(req.workdir.c_str()) != 0) ::_exit(127);
    const int fo = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int fe = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int fi = ::open("/dev/null", O_RDONLY);
    if (fo < 0 || fe < 0 || fi < 0) ::_exit(127);
    ::dup2(fi, 0);
    ::dup2(fo, 1);
    ::dup2(fe, 2);
    ::close_range(3, ~0U, 0);  // MPI's sockets and the results file stay drbench's
    ::execve(argv[0], argv.data(), envp.data());
    const int err = errno;
    (void)!::write(2, exec_failed, std::strlen(exec_failed));
    const char* why = strerror(err);
    (void)!::write(2, why, std::strlen(why));
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here: no window in which a kill of the group misses it
  out.started = true;
  int status = 0;
  bool stopped = false;
  if (!wait_until(pid, status, req.deadline, req.stop, stopped)) {
    kill_group(pid, status);
    out.timed_out = !stopped;
    out.interrupted = stopped;
  } else {
    ::kill(-pid, SIGKILL);
  }
  if (!req.marker.empty()) out.killed_strays = kill_strays(req.marker);
  out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (WIFEXITED(status)) out.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  out.stderr_tail = tail_of(err_file, tail_bytes);
  return out;
}

}  // namespace drbench::external
