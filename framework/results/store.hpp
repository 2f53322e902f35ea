#pragma once
// The results file and its journal. Only rank 0 writes. Finished tasks are appended to
// <path>.journal in groups, one write and one fsync per commit(), so a kill -9 loses nothing that
// was committed (the scheduler reports a task as saved only after its commit); the HDF5 file
// itself is rewritten whole to <path>.tmp and renamed over the old one, so it is never
// half-written.
// Rerunning the same command reads both and skips what is done.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/plan/task.hpp"
#include "framework/results/schema.hpp"
#include "framework/results/task_result.hpp"

namespace drbench {

// Refuses an output path that is a directory (or names one with a trailing '/'), before anything
// is created: the file, its journal and its lock all live next to it. `key` names where the path
// came from (output.path or --output).
void check_output_path(const std::string& path, const std::string& key);

// What a journal holds, read without opening a store or taking its lock (a resume reads it this
// way too; `drbench plan --remaining` reads a killed run's). Reading stops at the first torn or
// unknown record, as a kill mid-write leaves one.
struct JournalContents {
  std::string config;               // the config record's text ("" when the journal has none)
  std::vector<TaskResult> results;  // every intact result record, in order
  std::uint64_t base = 0;           // bytes of header + config record
  std::uint64_t valid = 0;          // bytes of intact records (0 without a config record)
  std::uint64_t size = 0;           // bytes in the file
  int graph_version = 1;            // of its results (kGraphVersion; 1 in older journals)
  std::size_t records = 0;          // intact result records (results.size() when decoded)
};
// An absent file (or one killed while its header was written) gives empty contents; a file that
// is not a journal, or a record this build cannot interpret, throws Error naming it and the fix.
// decode = false only counts the intact records (a progress line), decoding neither the config
// nor the results, so it throws only for a file that is not a journal.
JournalContents read_journal(const std::string& path, bool decode = true);

class ResultsStore {
 public:
  // Opens (or starts) the store at ex.output.path, creating its directory. Finished tasks found
  // in the existing file and journal are matched to `tasks` by key. When either was made by a
  // different experiment (normalised_config differs: comments and layout do not count), throws
  // Error naming the file unless force_new; force_new moves an old file to <path>.bak and an old
  // journal to <path>.journal.bak and starts empty.
  ResultsStore(const Experiment& ex, const std::vector<Task>& tasks, const RunInfo& info,
               bool force_new);
  ~ResultsStore();
  ResultsStore(const ResultsStore&) = delete;
  ResultsStore& operator=(const ResultsStore&) = delete;

  bool done(std::uint64_t task_id) const { return results_.count(task_id) != 0; }
  std::size_t n_done() const { return results_.size(); }
  const std::map<std::uint64_t, TaskResult>& results() const { return results_; }
  const std::string& path() const { return path_; }

  // Why no task may be added: the finished tasks carried over (file or journal) were computed with
  // another neighbour graph version than this build's (kGraphVersion), naming the file, the
  // attribute and the fix; "" when tasks may be added. A resume asks before it runs anything.
  std::string mixing_refusal() const;

  // Takes a finished task into the store and queues its journal record; nothing is durable until
  // commit(). Throws Error for a task id/key that is not part of this experiment, or when
  // mixing_refusal() says why not.
  void add(const TaskResult& r);
  // Writes the queued records with one write and one fsync, then an HDF5 snapshot when the last
  // one is older than the snapshot interval. Does nothing when nothing is queued.
  void commit();
  std::size_t n_uncommitted() const { return n_queued_; }
  // Commit, full rewrite, atomic rename. Empties the journal (everything is in the file now) and
  // removes it when every task is done. Rewrites nothing when nothing changed since the last write.
  // The destructor does not call it: what was added since is in the journal and is recovered by the
  // next store opened on the same path, exactly as after a crash.
  void write_hdf5();
  // The run has done every task it planned although some expanded tasks never ran (successive
  // halving's second stage runs only the kept settings): the next write_hdf5 stamps the file
  // finished and removes the journal, as when every task is done.
  void mark_planned_done() {
    planned_done_ = true;
    dirty_ = true;
  }

  // Minimum seconds between snapshots (default 10). Each snapshot also waits at least 10x as long
  // as the previous one took, so large embeddings do not turn the run into a file copy loop.
  void set_snapshot_interval(double seconds) { interval_ = seconds; }

 private:
  void open_existing(bool force_new);
  void load_file(bool& have_config);
  void load_journal();
  void open_journal();
  void lock_output();
  void adopt(TaskResult r);
  [[noreturn]] void refuse(const std::string& file, const std::string& old_text) const;
  // The oldest graph version among the carried-over results becomes the file's (info_).
  void carry_graph_version(int version, const std::string& from);

  const Experiment& ex_;
  const std::vector<Task>& tasks_;
  RunInfo info_;
  std::string graph_from_;  // where info_.graph_version was carried from ("": this build's)
  std::string path_, journal_path_;
  std::map<std::string, std::uint64_t> id_of_key_;
  std::map<std::uint64_t, TaskResult> results_;
  int journal_fd_ = -1;
  int lock_fd_ = -1;                 // flock on <path>.lock held while the store is open
  std::uint64_t journal_base_ = 0;   // bytes of header + config record
  std::uint64_t journal_valid_ = 0;  // bytes of intact records found when loading
  std::string queued_;               // journal records not yet written
  std::size_t n_queued_ = 0;
  bool planned_done_ = false;
  bool dirty_ = false;
  std::size_t unmatched_ = 0;  // journal records whose key is not a task of this experiment
  double interval_ = 10.0;
  double last_snapshot_ = 0.0;  // steady-clock seconds
  double last_write_cost_ = 0.0;
};

}  // namespace drbench
