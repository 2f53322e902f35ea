#pragma once
// A read rehearsed in a child process. Debian's libhdf5 1.10.8 can crash or over-read on a damaged
// file inside its own decoding (fuzz/known/README.md), where drbench cannot validate first. Reading
// such a file once in a forked child turns a crash or a hang in the library into an Error naming
// the file; only a file the child survived is then read in-process.
//
// Fork safety: call it only while the process has a single thread (rank 0's up-front checks,
// resuming, the CLI's readers), never from the scheduler's threads; the child touches nothing but
// the read and leaves with _exit, so MPI, atexit handlers and buffered output stay the parent's.
#include <functional>
#include <string>

namespace drbench {

struct RehearsalLimits {
  double base_seconds = 30;           // plus the time to read the file at the slowest rate below
  double slowest_bytes_per_s = 20e6;  // a network file system on a bad day
};

// Runs `read` in a child. Returns when the child finished, whether or not `read` threw: the caller
// repeats the read in-process and gets the same answer, or the same error with its own message.
// Throws DataError (the file, what happened, then `fix`) when the child died by a signal, left with
// another status, or ran past the limit. When fork itself fails the rehearsal is skipped with a
// warning on stderr.
void rehearse_in_child(const std::string& file, const std::string& fix,
                       const std::function<void()>& read, const RehearsalLimits& limits = {});

}  // namespace drbench
