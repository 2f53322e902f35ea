#pragma once
// What a results file holds, for `drbench info`: the experiment and where it came from, how far
// the run got, and what was kept (tables, embeddings, traces).
#include <string>

namespace drbench {

// A human-readable summary of the results file at `path`, after reading every dataset in it (so
// a damaged embedding or trace is found, which aggregate, reading /tasks only, would not see).
// Throws Error when it is not a results file or is damaged.
std::string describe_results(const std::string& path);

// How far the run of the results file at `path` has come, for readers in other languages (the
// report's progress line), as one tab-separated line: the path, the tasks the file holds, the
// experiment's tasks (n_tasks), 1 when the file is stamped finished else 0, the journal's path
// ("" when there is none), the finished tasks it holds (-1 without one; counted as a resume reads
// it), and the tasks left (-1 under successive halving, which never runs every expanded task).
// Throws Error as read_results does (a run interrupted before its first snapshot included).
std::string progress_record(const std::string& path);

}  // namespace drbench
