#pragma once
// Sizes of memory as users write them (--memory-per-rank 4G) and as messages print them, and how
// much memory this node has. The memory model that uses them: framework/sched/memory_check.hpp.
#include <cstdint>
#include <string>

namespace drbench {

// "4G", "1500M", "2GiB", "512MB", "1.5T", "64k": a positive number and a unit K, M, G or T, with
// or without "i" and "B", case-insensitive, all powers of 1024 (as SLURM's --mem reads them).
// A bare number is refused rather than guessed at (bytes? megabytes?). Throws Error naming
// `option`, what was given and the fix.
double parse_memory_size(const std::string& option, const std::string& text);

// "3.2 GiB", "512 MiB", "0.977 KiB": three significant digits, the unit the largest that leaves at
// least 1 (1000 MiB and more are written in GiB).
std::string format_bytes(double bytes);

// What this process may use on its node: the physical memory (sysconf), or less where a limit
// says so: the memory limit of the cgroup that holds the process or of any cgroup above it (v2
// memory.max, v1 memory.limit_in_bytes; a batch system's job cgroup, a container's), or the
// process's address-space limit (RLIMIT_AS: ulimit -v, prlimit --as).
double node_memory_bytes();
// The least memory limit of the cgroups `proc_cgroup` (the text of /proc/self/cgroup) names and
// their ancestors, under the cgroup mount `root`; +inf where none is set.
double cgroup_memory_limit(const std::string& proc_cgroup, const std::string& root);

// This process's peak resident memory so far (Linux VmHWM), 0 where the system does not say; and
// a reset of that peak to the current resident size (false where the system refuses), so the peak
// read after a task is the task's own.
std::uint64_t peak_resident_bytes();
bool reset_peak_resident();

// The limit one rank's tasks are held to, with where it came from for messages.
struct MemoryLimit {
  double bytes = 0;    // 0: not decided yet
  std::string source;  // "--memory-per-rank 4G" or "default: 23.4 GiB on this node / 2 ranks"
};

// --memory-per-rank TEXT (Error naming the option on a bad one).
MemoryLimit memory_limit_given(const std::string& option, const std::string& text);
// The default: the node's memory shared evenly by the ranks on it.
MemoryLimit memory_limit_default(double node_bytes, int ranks_on_node);

}  // namespace drbench
