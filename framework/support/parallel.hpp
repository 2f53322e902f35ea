#pragma once
// Threads inside one task. The index range is cut into `threads` contiguous blocks fixed by the
// range and the thread count alone, never by which thread is free first, so a loop whose
// iterations write disjoint outputs gives the same bits for any thread count, and a reduction
// that sums per-block partials in block order gives the same bits for a given thread count.
#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace drbench {

// Calls body(begin, end, block) for `threads` contiguous blocks of [0, n) (fewer when n is
// small), block 0 on the calling thread. The first exception thrown by any block is rethrown
// once every block has finished.
template <class Body>
void parallel_blocks(std::size_t n, unsigned threads, Body&& body) {
  const std::size_t t = std::max<std::size_t>(1, std::min<std::size_t>(threads, n));
  if (t == 1) {
    if (n > 0) body(std::size_t(0), n, std::size_t(0));
    return;
  }
  std::vector<std::exception_ptr> errors(t);
  auto run = [&](std::size_t b) {
    const std::size_t s = n * b / t, e = n * (b + 1) / t;
    try {
      body(s, e, b);
    } catch (...) {
      errors[b] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(t - 1);
  for (std::size_t b = 1; b < t; ++b) pool.emplace_back(run, b);
  run(0);
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// body(i) for every i in [0, n), split as parallel_blocks does.
template <class Body>
void parallel_for(std::size_t n, unsigned threads, Body&& body) {
  parallel_blocks(n, threads, [&](std::size_t s, std::size_t e, std::size_t) {
    for (std::size_t i = s; i < e; ++i) body(i);
  });
}

}  // namespace drbench
