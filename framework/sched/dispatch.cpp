#include "framework/sched/dispatch.hpp"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <list>
#include <mutex>
#include <thread>

#include "framework/core/error.hpp"
#include "framework/sched/placement.hpp"
#include "framework/support/bytes.hpp"

namespace drbench {

namespace {

using Clock = std::chrono::steady_clock;

// Message tags of one dispatch() call. Every call has its own four: a rank that finishes a call
// (successive halving's first stage) starts the next while rank 0 may still wait on its own worker
// in the previous one, and that call must not answer the next one's requests. It did: it handed
// the early rank an empty chunk and took its goodbye, the rank left the second stage without a
// task, and rank 0, counting one goodbye too many, waited forever.
struct Tags {
  int update, chunk, quit, ack;
};
Tags tags_of_call(int call) {
  const int base = 16 + 4 * (call % 4096);  // MPI guarantees tags up to 32767
  return {base, base + 1, base + 2, base + 3};
}
int g_calls = 0;  // dispatch() calls so far in this process (collective: alike on every rank)
// Flags of an update (remote rank -> rank 0): results, then what the rank wants.
enum : std::uint8_t { kWantMore = 1, kBye = 2, kSignalled = 4 };

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Idle waits. Open MPI's blocking calls spin a core, which on a node where every core runs a task
// steals from the tasks; an idle rank instead polls at growing intervals. Work is requested ahead
// of need, so these waits are off the critical path except when a rank has truly run dry.
class Backoff {
 public:
  void reset() { wait_ = kMin; }
  std::chrono::microseconds next() {
    auto w = wait_;
    wait_ = std::min(wait_ * 2, kMax);
    return w;
  }
  void sleep() { std::this_thread::sleep_for(next()); }

 private:
  static constexpr std::chrono::microseconds kMin{20}, kMax{1000};
  std::chrono::microseconds wait_ = kMin;
};

struct Outgoing {
  std::string bytes;
  std::vector<std::uint64_t> ids;
  MPI_Request req = MPI_REQUEST_NULL;
};

// Sends stay alive until MPI has finished with their buffers; finished ones are dropped.
class Outbox {
 public:
  Outgoing& add() { return items_.emplace_back(); }
  void reap() {
    for (auto it = items_.begin(); it != items_.end();) {
      int done = 0;
      MPI_Test(&it->req, &done, MPI_STATUS_IGNORE);
      it = done ? items_.erase(it) : std::next(it);
    }
  }
  void drain() {
    Backoff b;
    for (reap(); !items_.empty(); reap()) b.sleep();
  }

 private:
  std::list<Outgoing> items_;
};

void send_empty(Outbox& out, int dest, int tag) {
  Outgoing& o = out.add();
  MPI_Isend(nullptr, 0, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &o.req);
}

// ---- remote ranks ---------------------------------------------------------------------------

void remote_worker(const DispatchHooks& hooks, const DispatchOptions& opt, const Tags& tag) {
  std::deque<std::uint64_t> queue;
  std::vector<std::uint64_t> chunk_buf(opt.max_chunk);
  MPI_Request chunk_req = MPI_REQUEST_NULL;
  bool no_more = false, quit = false;
  std::size_t last_chunk = 1;
  std::vector<std::string> done;
  std::size_t done_bytes = 0;
  Clock::time_point oldest;
  Outbox out;

  auto send_update = [&](std::uint8_t flags) {
    ByteWriter w;
    w.u8(flags);
    w.u64(done.size());
    for (const auto& d : done) w.str(d);
    done.clear();
    done_bytes = 0;
    // The reply's receive is posted first, so rank 0's answer never waits on this rank.
    if (flags & kWantMore)
      MPI_Irecv(chunk_buf.data(), static_cast<int>(chunk_buf.size()), MPI_UINT64_T, 0, tag.chunk,
                MPI_COMM_WORLD, &chunk_req);
    Outgoing& o = out.add();
    o.bytes = w.take();
    MPI_Isend(o.bytes.data(), static_cast<int>(o.bytes.size()), MPI_BYTE, 0, tag.update,
              MPI_COMM_WORLD, &o.req);
  };
  auto poll = [&] {
    if (chunk_req != MPI_REQUEST_NULL) {
      int flag = 0;
      MPI_Status st;
      MPI_Test(&chunk_req, &flag, &st);
      if (flag) {
        int n = 0;
        MPI_Get_count(&st, MPI_UINT64_T, &n);
        if (n == 0) no_more = true;
        queue.insert(queue.end(), chunk_buf.begin(), chunk_buf.begin() + n);
        if (n > 0) last_chunk = static_cast<std::size_t>(n);
      }
    }
    int flag = 0;
    MPI_Iprobe(0, tag.quit, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    if (flag) {
      MPI_Recv(nullptr, 0, MPI_BYTE, 0, tag.quit, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      quit = true;
    }
    if (stop_requested()) quit = true;
    out.reap();
  };

  send_update(kWantMore);
  Backoff idle;
  for (;;) {
    poll();
    if (quit) break;
    if (queue.empty()) {
      if (no_more) break;
      // Results do not wait while the rank idles: rank 0 may be waiting on them (a node's slots
      // are freed by its running task's result, SlotTable).
      if (chunk_req != MPI_REQUEST_NULL && !done.empty()) send_update(0);
      if (chunk_req == MPI_REQUEST_NULL) send_update(kWantMore);
      idle.sleep();
      continue;
    }
    idle.reset();
    const std::uint64_t id = queue.front();
    queue.pop_front();
    // Ask for more while half the chunk is still to run: the reply arrives during this task.
    if (!no_more && chunk_req == MPI_REQUEST_NULL && queue.size() <= last_chunk / 2)
      send_update(kWantMore);
    std::string r = hooks.run(id);
    if (done.empty()) oldest = Clock::now();
    done_bytes += r.size();
    done.push_back(std::move(r));
    if (since(oldest) >= opt.flush_seconds || done_bytes >= opt.flush_bytes) send_update(0);
  }
  send_update(kBye | (stop_requested() ? kSignalled : 0));
  // Rank 0 answers every request and acknowledges the goodbye last; receiving everything up to the
  // acknowledgement leaves no message of this run unreceived.
  Backoff b;
  while (chunk_req != MPI_REQUEST_NULL) {
    int flag = 0;
    MPI_Test(&chunk_req, &flag, MPI_STATUS_IGNORE);
    if (!flag) b.sleep();
  }
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag) {
      b.sleep();
      continue;
    }
    MPI_Recv(nullptr, 0, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (st.MPI_TAG == tag.ack) break;
  }
  out.drain();
}

// ---- rank 0 --------------------------------------------------------------------------------

class Rank0 {
 public:
  Rank0(const std::vector<std::uint64_t>& order, const std::vector<double>& cost,
        const std::vector<std::uint32_t>& group, const DispatchHooks& hooks,
        const DispatchOptions& opt, int nranks, const Tags& tags)
      : order_(order),
        cost_(cost),
        group_(group),
        hooks_(hooks),
        opt_(opt),
        nranks_(nranks),
        tag_(tags) {
    for (std::uint64_t id : order_) cost_left_ += cost_.at(id);
    local_ = opt_.rank0_computes || nranks_ == 1;
    workers_ = (nranks_ - 1) + (local_ ? 1 : 0);
    if (opt_.slots) {
      if (opt_.slots->node_of.size() != static_cast<std::size_t>(nranks_))
        throw Error("internal: dispatch got the nodes of " +
                    std::to_string(opt_.slots->node_of.size()) + " ranks for " +
                    std::to_string(nranks_));
      left_ = order_;
      used_.assign(opt_.slots->node_ranks.size(), 0);
      inflight_.assign(static_cast<std::size_t>(nranks_), 0);
    }
  }

  DispatchStats run() {
    const auto t0 = Clock::now();
    std::thread local;
    if (local_)
      local = std::thread([this] { local_worker(); });
    else
      local_finished_ = true;
    try {
      loop();
    } catch (...) {
      request_stop();  // the local worker must not outlive the loop
      {
        std::lock_guard<std::mutex> lock(m_);
        taken_.notify_all();
      }
      if (local.joinable()) local.join();
      throw;
    }
    if (local.joinable()) local.join();
    out_.drain();
    stats_.stopped = stats_.recorded < order_.size();
    stats_.seconds = since(t0);
    return stats_;
  }

 private:
  // Takes chunks as a remote rank does, so its tasks share partitions too (one preparation each);
  // what is left of a chunk at a stop is simply not run, as on a remote rank.
  void local_worker() {
    if (opt_.slots) return local_placed();
    std::deque<std::uint64_t> mine;
    for (;;) {
      std::uint64_t id;
      {
        // At most kLocalAhead results wait for the loop: a stop request (or a crash) finds the
        // worker no further ahead of what is recorded than that, however tiny the tasks.
        std::unique_lock<std::mutex> lock(m_);
        taken_.wait(lock, [this] { return local_done_.size() < kLocalAhead || stop_requested(); });
        if (stop_requested()) break;
        if (mine.empty()) {
          const std::vector<std::uint64_t> ids = next_chunk(
              order_, cost_, next_, cost_left_, workers_, opt_.factor, opt_.max_chunk, group_);
          if (ids.empty()) break;
          mine.assign(ids.begin(), ids.end());
        }
        id = mine.front();
        mine.pop_front();
      }
      std::string r = hooks_.run(id);
      std::lock_guard<std::mutex> lock(m_);
      local_done_.push_back(std::move(r));
      cv_.notify_one();  // the loop records it now rather than at its next idle poll
    }
    std::lock_guard<std::mutex> lock(m_);
    local_finished_ = true;
    cv_.notify_one();
  }

  // The local worker under a SlotTable: one task at a time, each when rank 0's node has its slots.
  void local_placed() {
    const int node = opt_.slots->node_of.at(0);
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      taken_.wait(lock, [this] { return local_done_.size() < kLocalAhead || stop_requested(); });
      if (stop_requested()) break;
      const std::ptrdiff_t p = pick_locked(node);
      if (p == kNothingFits) break;
      if (p == kWaitForSlots) {
        freed_.wait_for(lock, std::chrono::milliseconds(20));  // also sees a stop in time
        continue;
      }
      const std::uint64_t id = start_locked(0, p);
      lock.unlock();
      std::string r = hooks_.run(id);
      lock.lock();
      release_locked(0);
      local_done_.push_back(std::move(r));
      cv_.notify_one();
    }
    local_finished_ = true;
    cv_.notify_one();
  }

  // The first waiting task that fits `node` now (placement.hpp's pick_task). Holds m_.
  std::ptrdiff_t pick_locked(int node) const {
    std::vector<int> need;
    need.reserve(left_.size());
    for (std::uint64_t id : left_) need.push_back(opt_.slots->slots_of(id, node));
    const int ranks = opt_.slots->node_ranks.at(static_cast<std::size_t>(node));
    return pick_task(need, ranks - used_[static_cast<std::size_t>(node)]);
  }
  std::uint64_t start_locked(int rank, std::ptrdiff_t p) {
    const std::uint64_t id = left_.at(static_cast<std::size_t>(p));
    left_.erase(left_.begin() + p);
    const int node = opt_.slots->node_of[static_cast<std::size_t>(rank)];
    const int m = opt_.slots->slots_of(id, node);
    used_[static_cast<std::size_t>(node)] += m;
    inflight_[static_cast<std::size_t>(rank)] = m;
    return id;
  }
  void release_locked(int rank) {
    int& m = inflight_[static_cast<std::size_t>(rank)];
    used_[static_cast<std::size_t>(opt_.slots->node_of[static_cast<std::size_t>(rank)])] -= m;
    m = 0;
    freed_.notify_all();
  }

  // A remote rank's request under a SlotTable: one task that fits its node now, none (it is
  // released) when nothing waiting ever fits there, else later (it holds back). False: later.
  bool answer_placed(int rank) {
    std::vector<std::uint64_t> ids;
    {
      std::lock_guard<std::mutex> lock(m_);
      if (inflight_[static_cast<std::size_t>(rank)] > 0) return false;  // asked ahead
      if (!stop_requested()) {
        const std::ptrdiff_t p = pick_locked(opt_.slots->node_of[static_cast<std::size_t>(rank)]);
        if (p == kWaitForSlots) return false;
        if (p >= 0) ids.push_back(start_locked(rank, p));
      }
    }
    Outgoing& o = out_.add();
    o.ids = std::move(ids);
    MPI_Isend(o.ids.data(), static_cast<int>(o.ids.size()), MPI_UINT64_T, rank, tag_.chunk,
              MPI_COMM_WORLD, &o.req);
    return true;
  }
  void answer_waiting() {
    std::erase_if(waiting_, [this](int r) { return answer_placed(r); });
  }

  std::vector<std::uint64_t> take_chunk() {
    std::lock_guard<std::mutex> lock(m_);
    if (stop_requested()) return {};
    return next_chunk(order_, cost_, next_, cost_left_, workers_, opt_.factor, opt_.max_chunk,
                      group_);
  }

  void record(std::string&& bytes) {
    hooks_.record(std::move(bytes));
    ++stats_.recorded;
    uncommitted_ = true;
  }

  void commit() {
    hooks_.commit();
    ++stats_.commits;
    uncommitted_ = false;
    last_commit_ = Clock::now();
  }

  // Every update waiting at rank 0 now; false when there was none.
  bool serve_remote() {
    bool any = false;
    for (;;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, tag_.update, MPI_COMM_WORLD, &flag, &st);
      if (!flag) return any;
      any = true;
      int count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      std::string buf(static_cast<std::size_t>(count), '\0');
      MPI_Recv(buf.data(), count, MPI_BYTE, st.MPI_SOURCE, tag_.update, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      ++stats_.messages;
      ByteReader r(buf, "update from rank " + std::to_string(st.MPI_SOURCE));
      const std::uint8_t flags = r.u8();
      const std::uint64_t n = r.count(8);
      for (std::uint64_t i = 0; i < n; ++i) record(r.str());
      if (flags & kSignalled) request_stop();
      if (opt_.slots && n > 0) {
        std::lock_guard<std::mutex> lock(m_);
        release_locked(st.MPI_SOURCE);  // one task at a time: this was its result
      }
      if (opt_.slots && (flags & kWantMore)) {
        if (!answer_placed(st.MPI_SOURCE)) waiting_.push_back(st.MPI_SOURCE);
      } else if (flags & kWantMore) {
        Outgoing& o = out_.add();
        o.ids = take_chunk();
        if (hooks_.sent && !o.ids.empty()) hooks_.sent(st.MPI_SOURCE, o.ids);
        MPI_Isend(o.ids.data(), static_cast<int>(o.ids.size()), MPI_UINT64_T, st.MPI_SOURCE,
                  tag_.chunk, MPI_COMM_WORLD, &o.req);
      }
      if (flags & kBye) {
        // A second goodbye would leave this loop waiting for one that never comes.
        if (bye_[st.MPI_SOURCE])
          throw Error("internal: rank " + std::to_string(st.MPI_SOURCE) +
                      " said goodbye twice in one dispatch");
        ++byes_;
        bye_[st.MPI_SOURCE] = true;
        send_empty(out_, st.MPI_SOURCE, tag_.ack);
      }
    }
  }

  void loop() {
    bye_.assign(static_cast<std::size_t>(nranks_), false);
    last_commit_ = Clock::now();
    Backoff idle;
    bool quit_sent = false;
    for (;;) {
      bool busy = nranks_ > 1 && serve_remote();
      std::vector<std::string> mine;
      bool local_done;
      {
        std::lock_guard<std::mutex> lock(m_);
        mine.swap(local_done_);
        local_done = local_finished_;
      }
      if (!mine.empty()) taken_.notify_one();
      for (auto& r : mine) record(std::move(r));
      busy = busy || !mine.empty();
      if (opt_.slots && !waiting_.empty()) answer_waiting();
      if (stop_requested() && !quit_sent) {
        for (int r = 1; r < nranks_; ++r)
          if (!bye_[r]) send_empty(out_, r, tag_.quit);
        quit_sent = true;
      }
      const bool finished = local_done && byes_ == nranks_ - 1;
      if (uncommitted_ &&
          (finished || stop_requested() || since(last_commit_) >= opt_.commit_seconds))
        commit();
      if (finished) return;
      out_.reap();
      if (busy) {
        idle.reset();
        continue;
      }
      // The local worker wakes this wait with each result; remote updates are polled.
      std::unique_lock<std::mutex> lock(m_);
      if (!local_finished_)
        cv_.wait_for(lock, idle.next());
      else {
        lock.unlock();
        idle.sleep();
      }
    }
  }

  const std::vector<std::uint64_t>& order_;
  const std::vector<double>& cost_;
  const std::vector<std::uint32_t>& group_;
  const DispatchHooks& hooks_;
  DispatchOptions opt_;
  int nranks_;
  Tags tag_;
  bool local_ = true;
  int workers_ = 1;

  std::mutex m_;  // guards next_, cost_left_, local_done_, local_finished_
  std::condition_variable cv_;
  std::condition_variable taken_;  // the loop took the local results: the worker may go on
  static constexpr std::size_t kLocalAhead = 16;
  std::size_t next_ = 0;
  double cost_left_ = 0.0;
  std::vector<std::string> local_done_;
  bool local_finished_ = false;
  // Under a SlotTable (also guarded by m_): tasks not started, in order; slots taken per node;
  // slots of each rank's running task (0: idle).
  std::vector<std::uint64_t> left_;
  std::vector<int> used_, inflight_;
  std::condition_variable freed_;  // slots were freed
  std::vector<int> waiting_;       // ranks whose request waits for slots (loop thread only)

  Outbox out_;
  std::vector<bool> bye_;
  int byes_ = 0;
  bool uncommitted_ = false;
  Clock::time_point last_commit_;
  DispatchStats stats_;
};

}  // namespace

std::size_t chunk_size(const std::vector<std::uint64_t>& order, const std::vector<double>& cost,
                       std::size_t next, double cost_left, int workers, double factor,
                       std::size_t max_chunk, const std::vector<std::uint32_t>& group) {
  if (next >= order.size()) return 0;
  const double budget = std::max(cost_left, 0.0) / (factor * std::max(workers, 1));
  std::size_t n = 1;
  double sum = cost[order[next]];
  while (n < max_chunk && next + n < order.size()) {
    const double c = cost[order[next + n]];
    if (sum + c > budget) break;
    sum += c;
    ++n;
  }
  const std::size_t end = next + n;
  if (group.empty() || end == order.size() || group[end] != group[end - 1]) return n;
  // The chunk ends inside group g: take the rest of it, or leave all of it to the next taker.
  const std::uint32_t g = group[end - 1];
  auto in_g = [&](std::size_t i) { return i < order.size() && group[i] == g; };
  std::size_t stretch = end;
  double extra = 0.0;
  while (in_g(stretch) && stretch - next < max_chunk && extra <= budget)
    extra += cost[order[stretch++]];
  if (!in_g(stretch) && extra <= budget) return stretch - next;
  std::size_t start = end - 1;
  while (start > next && group[start - 1] == g) --start;
  return start > next ? start - next : n;
}

std::vector<std::uint64_t> next_chunk(const std::vector<std::uint64_t>& order,
                                      const std::vector<double>& cost, std::size_t& next,
                                      double& cost_left, int workers, double factor,
                                      std::size_t max_chunk,
                                      const std::vector<std::uint32_t>& group) {
  const std::size_t n = chunk_size(order, cost, next, cost_left, workers, factor, max_chunk, group);
  std::vector<std::uint64_t> ids(order.begin() + next, order.begin() + next + n);
  next += n;
  for (std::uint64_t id : ids) cost_left -= cost[id];
  return ids;
}

DispatchStats dispatch(const std::vector<std::uint64_t>& order, const std::vector<double>& cost,
                       const DispatchHooks& hooks, const DispatchOptions& opt,
                       const std::vector<std::uint32_t>& group) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const Tags tags = tags_of_call(g_calls++);
  if (rank != 0) {
    remote_worker(hooks, opt, tags);
    return {};
  }
  DispatchOptions o = opt;
  // A worker thread beside the dispatcher needs MPI to allow threads; only the dispatcher thread
  // makes MPI calls, so FUNNELED is enough.
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  if (nranks > 1 && level < MPI_THREAD_FUNNELED) o.rank0_computes = false;
  if (!group.empty() && group.size() != order.size())
    throw Error("internal: dispatch got " + std::to_string(group.size()) + " groups for " +
                std::to_string(order.size()) + " tasks");
  return Rank0(order, cost, group, hooks, o, nranks, tags).run();
}

namespace {

void wait_quietly(MPI_Request& req) {
  Backoff idle;
  for (int done = 0;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    idle.sleep();
  }
}

}  // namespace

int broadcast_quietly(int v) {
  MPI_Request req;
  MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
  wait_quietly(req);
  return v;
}

std::string broadcast_bytes_quietly(std::string bytes) {
  std::uint64_t size = bytes.size();
  MPI_Request req;
  MPI_Ibcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &req);
  wait_quietly(req);
  bytes.resize(static_cast<std::size_t>(size));
  if (size == 0) return bytes;
  MPI_Ibcast(bytes.data(), static_cast<int>(size), MPI_BYTE, 0, MPI_COMM_WORLD, &req);
  wait_quietly(req);
  return bytes;
}

void barrier_quietly() {
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  wait_quietly(req);
}

}  // namespace drbench
