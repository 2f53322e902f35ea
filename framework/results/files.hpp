#pragma once
// File-system steps that make the results file crash-safe: a file is written whole under a
// temporary name, flushed to disk, and renamed over the old one, so readers (and a rerun after a
// kill -9) only ever see the old file or the new one.
#include <functional>
#include <string>

namespace drbench {

// Creates the directories above `path` (nothing when it has none).
void make_parent_dirs(const std::string& path);

// Calls write(tmp) with tmp = path + ".tmp", fsyncs tmp, renames it over `path` and fsyncs the
// directory. If write throws, tmp is removed and `path` is untouched.
void replace_atomically(const std::string& path,
                        const std::function<void(const std::string&)>& write);

void fsync_path(const std::string& path);  // a file or a directory
void fsync_parent_dir(const std::string& path);

// "2026-11-21T20:41:56Z"
std::string utc_now_iso();

}  // namespace drbench
