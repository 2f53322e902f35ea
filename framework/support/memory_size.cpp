#include "framework/support/memory_size.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "framework/core/error.hpp"

namespace drbench {

double parse_memory_size(const std::string& option, const std::string& text) {
  const std::string fix = " (fix: a number and a unit, e.g. " + option + " 4G, " + option +
                          " 1500M or " + option + " 2GiB)";
  std::size_t used = 0;
  double value = 0;
  try {
    if (!text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.'))
      value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0) throw Error(option + " needs a memory size, got '" + text + "'" + fix);
  std::string unit = text.substr(used);
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.empty())
    throw Error(option + " '" + text +
                "' has no unit, so bytes and megabytes would both be guesses" + fix);
  static const std::string kUnits = "KMGT";
  const std::size_t power = kUnits.find(unit[0]);
  const std::string rest = unit.substr(1);
  if (power == std::string::npos || !(rest.empty() || rest == "B" || rest == "I" || rest == "IB"))
    throw Error(option + " '" + text + "': unknown unit '" + text.substr(used) +
                "' (K, M, G or T, optionally with i and B)" + fix);
  const double bytes = value * std::pow(1024.0, double(power + 1));
  if (!std::isfinite(bytes) || bytes < 1024.0 * 1024.0)
    throw Error(option + " '" + text + "' is below 1 MiB, too little for any task" + fix);
  return bytes;
}

std::string format_bytes(double bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  // From 1000 up the next unit, so three significant digits never need an exponent.
  while (u < 6 && std::fabs(bytes) >= 1000.0) {
    bytes /= 1024.0;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", bytes, kUnits[u]);
  return buf;
}

namespace {

// A cgroup limit file's number, or +inf for "max", an unlimited v1 value or no file.
double cgroup_limit(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  if (!(in >> s) || s == "max") return HUGE_VAL;
  try {
    const double v = std::stod(s);
    return v > 0 && v < 1e18 ? v : HUGE_VAL;  // v1 writes ~2^63 for "no limit"
  } catch (const std::exception&) {
    return HUGE_VAL;
  }
}

}  // namespace

double cgroup_memory_limit(const std::string& proc_cgroup, const std::string& root) {
  double least = HUGE_VAL;
  std::istringstream in(proc_cgroup);
  std::string line;
  while (std::getline(in, line)) {
    // "4:memory:/slurm/uid_0/job_7" (v1, controllers comma-separated) or "0::/user.slice" (v2).
    const std::size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = "," + line.substr(a + 1, b - a - 1) + ",";
    std::string path = line.substr(b + 1), dir, file;
    if (controllers == ",,")
      dir = root, file = "memory.max";
    else if (controllers.find(",memory,") != std::string::npos)
      dir = root + "/memory", file = "memory.limit_in_bytes";
    else
      continue;
    // The limit of every cgroup from the process's own up to the mount's root applies.
    for (;;) {
      least = std::min(least, cgroup_limit((dir + path + "/" + file).c_str()));
      if (path.empty() || path == "/") break;
      path = path.substr(0, path.find_last_of('/'));
    }
  }
  return least;
}

double node_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  double bytes = pages > 0 && page > 0 ? double(pages) * double(page) : HUGE_VAL;
  std::ifstream self("/proc/self/cgroup");
  std::stringstream own;
  own << self.rdbuf();
  // The mount's root (a container's own cgroup) and the process's own cgroup below it, where a
  // batch system's job (Slurm's task/cgroup) or a test's node sits.
  bytes = std::min({bytes, cgroup_limit("/sys/fs/cgroup/memory.max"),
                    cgroup_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
                    cgroup_memory_limit(own.str(), "/sys/fs/cgroup")});
  // An address-space limit (ulimit -v, prlimit --as) bounds what one process can allocate.
  struct rlimit as {};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    bytes = std::min(bytes, double(as.rlim_cur));
  // Neither source answered: say so rather than invent a size.
  if (!std::isfinite(bytes))
    throw Error(
        "cannot tell how much memory this node has (sysconf and cgroups say nothing) "
        "(fix: give --memory-per-rank SIZE)");
  return bytes;
}

MemoryLimit memory_limit_given(const std::string& option, const std::string& text) {
  return {parse_memory_size(option, text), option + " " + text};
}

MemoryLimit memory_limit_default(double node_bytes, int ranks_on_node) {
  const int r = std::max(1, ranks_on_node);
  return {node_bytes / r, "default: " + format_bytes(node_bytes) + " on this node / " +
                              std::to_string(r) + (r == 1 ? " rank" : " ranks") +
                              "; --memory-per-rank SIZE to change it"};
}

std::uint64_t peak_resident_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) {
      unsigned long long kib = 0;
      if (std::sscanf(line.c_str() + 6, "%llu", &kib) == 1) return kib * 1024ull;
    }
  return 0;
}

bool reset_peak_resident() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";  // 5: reset the peak resident size (Linux 4.0 and later)
  out.flush();
  return static_cast<bool>(out);
}

}  // namespace drbench
