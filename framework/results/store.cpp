#include "framework/results/store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/results/files.hpp"
#include "framework/results/reader.hpp"
#include "framework/support/bytes.hpp"

namespace drbench {

namespace fs = std::filesystem;

namespace {

// Journal layout (docs/results-format.md): magic, then records of
//   u32 payload length | u32 CRC-32 of payload | payload
// The first payload is 'C' + the config text + u32 graph version (absent in journals from before
// it: version 1), every other one 'R' + TaskResult::serialize().
constexpr char kMagic[] = "DRBJNL01";
constexpr std::size_t kMagicSize = 8;
constexpr char kConfigRecord = 'C';
constexpr char kResultRecord = 'R';

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string record(char type, const std::string& body) {
  std::string payload(1, type);
  payload += body;
  ByteWriter w;
  w.u32(static_cast<std::uint32_t>(payload.size()));
  w.u32(crc32(payload));
  return w.take() + payload;
}

void write_all(int fd, const std::string& bytes, const std::string& file) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(file + ": cannot write the journal: " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0)
    throw Error(file + ": fsync of the journal failed: " + std::strerror(errno));
}

void move_aside(const std::string& from, const std::string& to) {
  if (!fs::exists(from)) return;
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) throw Error(from + ": cannot move the old file to " + to + ": " + ec.message());
}

}  // namespace

void check_output_path(const std::string& path, const std::string& key) {
  std::error_code ec;
  if (path.empty() || path.back() == '/' || fs::is_directory(path, ec) ||
      fs::path(path).filename() == "." || fs::path(path).filename() == "..")
    throw Error(key + ": '" + path +
                "' is a directory, not a results file (fix: name a file in it, e.g. " +
                (fs::path(path) / "results.h5").lexically_normal().string() + ")");
}

ResultsStore::ResultsStore(const Experiment& ex, const std::vector<Task>& tasks,
                           const RunInfo& info, bool force_new)
    : ex_(ex),
      tasks_(tasks),
      info_(info),
      path_(ex.output.path),
      journal_path_(ex.output.path + ".journal") {
  if (path_.empty())
    throw Error(ex.file + ": output.path is empty (fix: set output: {path: results/<name>.h5})");
  check_output_path(path_, "output.path");
  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    if (tasks_[i].id != i)
      throw Error("ResultsStore: task at position " + std::to_string(i) + " has id " +
                  std::to_string(tasks_[i].id) + " (ids must be positions in the expansion)");
    id_of_key_[tasks_[i].key] = i;
  }
  make_parent_dirs(path_);
  const bool had_lock = fs::exists(path_ + ".lock");
  lock_output();
  try {
    open_existing(force_new);
  } catch (...) {
    // A refused run leaves nothing behind, not even the lock file it made.
    ::close(lock_fd_);
    lock_fd_ = -1;
    std::error_code ec;
    if (!had_lock) fs::remove(path_ + ".lock", ec);
    throw;
  }
}

void ResultsStore::open_existing(bool force_new) {
  std::error_code ec;
  fs::remove(path_ + ".tmp", ec);  // left by a run killed while snapshotting
  if (force_new) {
    move_aside(path_, path_ + ".bak");
    move_aside(journal_path_, journal_path_ + ".bak");
  }
  bool have_file = false;
  load_file(have_file);
  load_journal();
  dirty_ = !have_file || journal_valid_ > journal_base_;  // journal holds results
  // The journal is opened (and a torn tail cut off) at the first add(), so merely opening a
  // finished file, e.g. to rerun a complete experiment, leaves no journal behind.
  last_snapshot_ = now_seconds();
}

ResultsStore::~ResultsStore() {
  // No snapshot here on purpose: everything added is already in the journal, and leaving it there
  // is exactly what a crash would do, so the recovery path is the one that always gets exercised.
  if (journal_fd_ >= 0) ::close(journal_fd_);
  // Unlinked while still held, so no other run can lock this file between unlink and close;
  // lock_output checks that the file it locked is still the one on disk.
  if (lock_fd_ >= 0) {
    ::unlink((path_ + ".lock").c_str());
    ::close(lock_fd_);
  }
}

// Two runs appending to one journal would interleave records and each rewrite the other's file.
// The kernel drops a flock when its holder dies, so a killed run never leaves a stale lock.
// A finished run removes its lock file (holding the lock while it unlinks), so a lock taken on a
// file that was unlinked meanwhile guards nothing: then lock the new file instead.
void ResultsStore::lock_output() {
  const std::string lock_path = path_ + ".lock";
  int err = 0;
  for (;;) {
    lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock_fd_ < 0)
      throw Error(lock_path + ": cannot create the lock file: " + std::strerror(errno));
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      err = errno;
      break;
    }
    struct stat held {
    }, on_disk{};
    if (::fstat(lock_fd_, &held) == 0 && ::stat(lock_path.c_str(), &on_disk) == 0 &&
        held.st_ino == on_disk.st_ino && held.st_dev == on_disk.st_dev)
      return;
    ::close(lock_fd_);
  }
  if (err == EWOULDBLOCK) {
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw Error(path_ + ": another drbench run is writing this results file (" + lock_path +
                " is locked) (fix: wait for it to finish, or pass --output to write elsewhere)");
  }
  // Some network filesystems refuse flock (ENOLCK); the run can still go on, unguarded.
  std::fprintf(stderr, "[drbench] warning: cannot lock %s (%s); do not start a second run on it\n",
               lock_path.c_str(), std::strerror(err));
}

void ResultsStore::refuse(const std::string& file, const std::string& old_text) const {
  throw Error(file + ": was made by a different config (config_hash " + config_hash(old_text) +
              ", the config now has " + config_hash(ex_.text) +
              "): the config changed since this run started, so its finished tasks cannot be "
              "reused (fix: rerun with --force-new to start over, the old results moving to " +
              path_ + ".bak; or set output.path to a new file to keep both)");
}

void ResultsStore::adopt(TaskResult r) {
  auto it = id_of_key_.find(r.key);
  if (it == id_of_key_.end()) {
    // A journal record written under earlier parameter names (a journal keeps no settings
    // version; the migration leaves current names as they are): its setting under today's names.
    const std::string label = label_of_key(r.key), setting = setting_of_key(r.key);
    for (const auto& m : ex_.methods)
      if (m.label == label)
        if (const MethodInfo* info = Registry::instance().find(m.method)) {
          r.key = key_with_setting(r.key, info->migrate_setting(setting, 1));
          it = id_of_key_.find(r.key);
        }
  }
  if (it == id_of_key_.end()) {  // a task this expansion no longer produces
    ++unmatched_;
    return;
  }
  r.task_id = it->second;
  results_[it->second] = std::move(r);
}

void ResultsStore::load_file(bool& have_file) {
  have_file = fs::exists(path_);
  if (!have_file) return;
  ResultsFile old = read_results(path_, true);
  // A file from before the selection attribute ran under min_mean_error whatever its text says.
  const std::string now = normalised_config(ex_.text);
  if (normalised_config(old.config, old.settings_version, old.selection) != now) {
    if (!old.selection_recorded && normalised_config(old.config, old.settings_version) == now)
      throw Error(path_ +
                  ": was run under selection: min_mean_error (written before selection: "
                  "validation existed, it states no rule), and the config, stating none, now "
                  "means validation (fix: add evaluation: {selection: min_mean_error} to the "
                  "config to resume this file; or --force-new to start over under validation, the "
                  "old results moving to " +
                  path_ + ".bak)");
    refuse(path_, old.config);
  }
  if (!old.tasks.empty()) carry_graph_version(old.graph_version, path_);
  for (auto& row : old.tasks) adopt(std::move(row.result));
}

void ResultsStore::carry_graph_version(int version, const std::string& from) {
  if (graph_from_.empty() || version < info_.graph_version) {
    info_.graph_version = version;
    graph_from_ = from;
  }
}

std::string ResultsStore::mixing_refusal() const {
  if (info_.graph_version == kGraphVersion) return "";
  return graph_from_ + ": its " + std::to_string(results_.size()) +
         " finished task(s) were computed with neighbour graph version " +
         std::to_string(info_.graph_version) + " (root attribute graph_version" +
         (info_.graph_version == 1 ? ", absent: the retired brute-force search of LE, LLE, "
                                     "Isomap and the other graph methods before the one search"
                                   : "") +
         "), this drbench computes version " + std::to_string(kGraphVersion) +
         ", and one file never mixes the two (fix: rerun with --force-new to start over under "
         "this build, the old results moving to " +
         path_ +
         ".bak; or set output.path to a new file to keep both; or finish it with the "
         "drbench that started it)";
}

JournalContents read_journal(const std::string& path, bool decode) {
  JournalContents j;
  if (!fs::exists(path)) return j;
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  j.size = bytes.size();
  if (bytes.size() < kMagicSize) {
    // Killed while creating it: nothing was recorded yet.
    if (std::string(kMagic, bytes.size()) == bytes) return j;
    throw Error(path + ": not a drbench journal (fix: move it away or use --force-new)");
  }
  if (bytes.compare(0, kMagicSize, kMagic) != 0)
    throw Error(path + ": not a drbench journal (fix: move it away or use --force-new)");
  std::size_t pos = kMagicSize;
  bool first = true;
  while (bytes.size() - pos >= 8) {
    ByteReader head(std::string_view(bytes).substr(pos, 8), path);
    std::uint32_t len = head.u32(), crc = head.u32();
    if (len == 0 || bytes.size() - pos - 8 < len) break;  // cut short by a kill mid-write
    std::string payload = bytes.substr(pos + 8, len);
    if (crc32(payload) != crc) break;
    if (first) {
      if (payload[0] != kConfigRecord) break;
      if (decode) {
        ByteReader r(std::string_view(payload).substr(1), path);
        j.config = r.str();
        if (r.left() >= 4) j.graph_version = static_cast<int>(r.u32());
      }
      j.base = pos + 8 + len;
      first = false;
    } else if (payload[0] == kResultRecord) {
      ++j.records;
      if (decode) {
        try {
          j.results.push_back(TaskResult::deserialize(payload.substr(1)));
        } catch (const Error& e) {
          // The checksum matched, so this is not a torn write but a record we cannot interpret.
          throw Error(path + ": " + e.what() +
                      " (fix: rerun with the drbench version that wrote it, or use --force-new)");
        }
      }
    } else {
      break;
    }
    pos += 8 + len;
  }
  j.valid = first ? 0 : pos;
  return j;
}

void ResultsStore::load_journal() {
  journal_base_ = journal_valid_ = 0;
  JournalContents j = read_journal(journal_path_);
  if (j.valid == 0) {
    if (j.size > 0)  // the file exists but not even its header is intact: say so, then replace it
      std::cerr << "drbench: " << journal_path_ << ": dropped all " << j.size
                << " bytes: no intact journal header (damaged, or not a drbench journal); "
                   "the tasks it may have held run again\n";
    return;
  }
  // A journal records no settings version: its config is read as of version 1 (the migration
  // leaves current names as they are).
  if (normalised_config(j.config, 1) != normalised_config(ex_.text))
    refuse(journal_path_, j.config);
  journal_base_ = j.base;
  if (!j.results.empty()) carry_graph_version(j.graph_version, journal_path_);
  unmatched_ = 0;
  for (auto& r : j.results) adopt(std::move(r));
  journal_valid_ = j.valid;
  if (j.valid < j.size)
    std::cerr << "drbench: " << journal_path_ << ": dropped " << j.size - j.valid
              << " bytes after the last intact record (" << j.results.size()
              << " task result(s) recovered; a run killed while writing leaves such a tail, and "
                 "the tasks it held run again)\n";
  if (unmatched_ > 0)
    std::cerr << "drbench: " << journal_path_ << ": dropped " << unmatched_
              << " recorded result(s) whose task keys this experiment no longer has\n";
}

void ResultsStore::open_journal() {
  if (journal_valid_ > 0) {
    journal_fd_ = ::open(journal_path_.c_str(), O_WRONLY | O_APPEND);
    if (journal_fd_ < 0)
      throw Error(journal_path_ + ": cannot open for appending: " + std::strerror(errno));
    // Drop a torn last record so new records follow intact ones.
    if (::ftruncate(journal_fd_, static_cast<off_t>(journal_valid_)) != 0 || ::fsync(journal_fd_))
      throw Error(journal_path_ + ": cannot truncate: " + std::strerror(errno));
    return;
  }
  journal_fd_ = ::open(journal_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
  if (journal_fd_ < 0)
    throw Error(journal_path_ + ": cannot create the journal: " + std::strerror(errno) +
                " (fix: make the output directory writable)");
  ByteWriter w;
  w.str(ex_.text);
  w.u32(static_cast<std::uint32_t>(info_.graph_version));
  std::string head = std::string(kMagic, kMagicSize) + record(kConfigRecord, w.bytes());
  write_all(journal_fd_, head, journal_path_);
  fsync_parent_dir(journal_path_);
  journal_base_ = journal_valid_ = head.size();
}

void ResultsStore::add(const TaskResult& r) {
  TaskResult copy = r;
  if (copy.task_id >= tasks_.size())
    throw Error(path_ + ": result for task id " + std::to_string(copy.task_id) +
                ", but the experiment has " + std::to_string(tasks_.size()) + " tasks");
  if (const std::string why = mixing_refusal(); !why.empty()) throw Error(why);
  const std::string& key = tasks_[copy.task_id].key;
  if (copy.key.empty()) copy.key = key;
  if (copy.key != key)
    throw Error(path_ + ": result for task " + std::to_string(copy.task_id) + " has key '" +
                copy.key + "' but that task is '" + key + "'");
  queued_ += record(kResultRecord, copy.serialize());
  ++n_queued_;
  results_[copy.task_id] = std::move(copy);
  dirty_ = true;
}

void ResultsStore::commit() {
  if (n_queued_ == 0) return;
  if (journal_fd_ < 0) open_journal();
  write_all(journal_fd_, queued_, journal_path_);
  queued_.clear();
  n_queued_ = 0;
  double wait = std::max(interval_, 10.0 * last_write_cost_);
  if (now_seconds() - last_snapshot_ >= wait) write_hdf5();
}

void ResultsStore::write_hdf5() {
  commit();
  bool complete = planned_done_ || results_.size() == tasks_.size();
  if (dirty_) {
    double t0 = now_seconds();
    std::string finished = complete ? utc_now_iso() : "";
    replace_atomically(path_, [&](const std::string& tmp) {
      write_results_file(tmp, ex_, tasks_, info_, results_, finished);
    });
    last_snapshot_ = now_seconds();
    last_write_cost_ = last_snapshot_ - t0;
    dirty_ = false;
  }
  if (journal_fd_ >= 0 && !complete) {
    if (::ftruncate(journal_fd_, static_cast<off_t>(journal_base_)) != 0 || ::fsync(journal_fd_))
      throw Error(journal_path_ + ": cannot truncate: " + std::strerror(errno));
    return;
  }
  // The file now holds everything any journal here recorded.
  if (journal_fd_ >= 0) ::close(journal_fd_);
  journal_fd_ = -1;
  journal_valid_ = 0;
  if (fs::exists(journal_path_)) {
    std::error_code ec;
    fs::remove(journal_path_, ec);
    if (ec) throw Error(journal_path_ + ": cannot remove: " + ec.message());
    fsync_parent_dir(journal_path_);
  }
}

}  // namespace drbench
