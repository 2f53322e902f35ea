#include "framework/results/files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "framework/core/error.hpp"

namespace drbench {

namespace fs = std::filesystem;

void make_parent_dirs(const std::string& path) {
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec)
    throw Error(path + ": cannot create directory '" + parent.string() + "': " + ec.message() +
                " (fix: choose a writable output.path)");
}

void fsync_path(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw Error(path + ": cannot open to flush: " + std::strerror(errno));
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  // Some file systems refuse fsync on directories (EINVAL); the rename is still atomic there.
  if (rc != 0 && err != EINVAL) throw Error(path + ": fsync failed: " + std::strerror(err));
}

void fsync_parent_dir(const std::string& path) {
  fs::path parent = fs::path(path).parent_path();
  fsync_path(parent.empty() ? "." : parent.string());
}

void replace_atomically(const std::string& path,
                        const std::function<void(const std::string&)>& write) {
  std::string tmp = path + ".tmp";
  try {
    write(tmp);
    fsync_path(tmp);
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw Error(path + ": cannot rename " + tmp + " over it: " + std::strerror(errno));
  fsync_parent_dir(path);
}

std::string utc_now_iso() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace drbench
