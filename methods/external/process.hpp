#pragma once
// One external command run to completion, or stopped: argv is exec'd directly (never through a
// shell, so no label or parameter is ever parsed as shell text), in its own process group and
// working directory, with stdout and stderr kept in files there. The group is killed when the
// command passes its deadline, when the run is asked to stop, and after it exits (anything it left
// running in the background); its direct child also dies with the thread that started it
// (PR_SET_PDEATHSIG), so even a SIGKILLed drbench leaves no command behind.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace drbench::external {

struct RunRequest {
  std::vector<std::string> argv;  // argv[0]: an executable path (already resolved)
  std::string workdir;            // the command's working directory
  std::vector<std::string> env;   // "NAME=value" entries added to (or replacing) the environment
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  std::function<bool()> stop;  // polled while it runs; true: kill the group and give up
  // An env entry ("NAME=value") unique to this run: every process the command starts inherits it,
  // so what outlives the command in a session of its own is found by it (kill_strays) and killed.
  std::string marker;
};

struct RunOutcome {
  bool started = false;      // false: fork failed (exec failures show as exit status 127)
  bool timed_out = false;    // killed at the deadline
  bool interrupted = false;  // killed because stop() said so
  int exit_status = -1;      // when it exited
  int signal = 0;            // when a signal ended it (timed_out/interrupted: ours)
  double seconds = 0.0;
  std::string stderr_tail;  // the last bytes it wrote to stderr
  // Processes the command left running outside its group (a setsid child, a daemon), found by
  // RunRequest::marker in their environment and killed: "1234 (sleep)" each.
  std::vector<std::string> killed_strays;
  // "exit status 3", "killed by signal 11 (Segmentation fault)", "timed out after 2.0 s", ...
  std::string describe() const;
};

RunOutcome run_command(const RunRequest& req, std::size_t tail_bytes = 2000);
// Kills (SIGKILL) this user's processes whose environment holds `marker` exactly, other than the
// caller; returns "pid (name)" of each. Processes of other users cannot be read, and are not ours.
std::vector<std::string> kill_strays(const std::string& marker);
// The start time of process `pid` (/proc/<pid>/stat field 22, clock ticks since boot), "" when
// there is no such process: a pid with the same start time is the same process.
std::string process_start_time(long pid);
// True for the variables of the MPI launcher (OMPI_*, PMIX_*, PMI_*...) that run_command leaves
// out of the command's environment.
bool mpi_runtime_variable(const std::string& key);

// argv[0] as exec would find it: a path with '/' as given (relative to `base_dir` when relative),
// else the first executable of that name on PATH. Empty when there is none.
std::string resolve_executable(const std::string& name, const std::string& base_dir);

}  // namespace drbench::external
