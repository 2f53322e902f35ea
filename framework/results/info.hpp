#pragma once
// What a results file holds, for `drbench info`: the experiment and where it came from, how far
// the run got, and what was kept (tables, embeddings, traces).
#include <string>

namespace drbench {

// A human-readable summary of the results file at `path`, after reading every dataset in it (so
// a damaged embedding or trace is found, which aggregate, reading /tasks only, would not see).
// Throws Error when it is not a results file or is damaged.
std::string describe_results(const std::string& path);

}  // namespace drbench
