#include "framework/sched/plan.hpp"

#include <algorithm>
#include <deque>
#include <queue>

#include "framework/sched/dispatch.hpp"

namespace drbench {

namespace {

enum class Ev { Arrive, Reply, Done, CommitTick };

struct Event {
  double t;
  std::uint64_t seq;
  Ev type;
  int rank;
  std::size_t results = 0;  // Arrive: results carried
  bool want_more = false, bye = false;
  std::uint64_t version = 0;  // Done on rank 0: superseded when its worker was delayed
  bool operator>(const Event& o) const { return t > o.t || (t == o.t && seq > o.seq); }
};

struct Worker {
  std::deque<std::uint64_t> queue;
  std::vector<std::uint64_t> inflight;  // the chunk of the outstanding reply
  bool outstanding = false, no_more = false, running = false, gone = false;
  std::size_t last_chunk = 1;
  std::size_t pending = 0;  // finished results not yet sent
  double oldest = 0;
  std::uint64_t current = 0;
  double finish = 0;
  std::uint64_t version = 0;
};

class Sim {
 public:
  Sim(const std::vector<std::uint64_t>& order, const std::vector<double>& seconds,
      const PlanParams& p, const std::vector<std::uint32_t>& group)
      : order_(order), sec_(seconds), group_(group), p_(p), w_(static_cast<std::size_t>(p.ranks)) {
    for (std::uint64_t id : order_) left_ += sec_[id];
    local_ = p_.rank0_computes || p_.ranks == 1;
    local_finished_ = !local_;
    workers_ = (p_.ranks - 1) + (local_ ? 1 : 0);
    r_.busy.assign(w_.size(), 0.0);
    r_.tasks.assign(w_.size(), 0);
    r_.work_seconds = left_;
  }

  PlanResult run() {
    for (int r = 1; r < p_.ranks; ++r) send(r, 0.0, true, false);
    if (local_) local_next(0.0);
    while (!q_.empty()) {
      Event e = q_.top();
      q_.pop();
      now_ = e.t;
      switch (e.type) {
        case Ev::Arrive:
          arrive(e);
          break;
        case Ev::Reply:
          reply(e.rank);
          break;
        case Ev::Done:
          done(e);
          break;
        case Ev::CommitTick:
          tick_pending_ = false;
          last_commit_ = now_;
          if (uncommitted_ && !finished()) serve(now_, p_.commit_seconds, true);
          break;
      }
      if (finished() && q_.empty()) break;
    }
    // The last results are committed once everything has come in.
    const double end = std::max(server_free_, last_);
    r_.wall_seconds =
        p_.start_seconds + p_.check_seconds + end + (uncommitted_ ? p_.commit_seconds : 0.0);
    if (uncommitted_) ++r_.commits;
    r_.efficiency = r_.wall_seconds > 0 ? r_.work_seconds / (p_.ranks * r_.wall_seconds) : 1.0;
    return r_;
  }

 private:
  bool finished() const { return byes_ == p_.ranks - 1 && local_finished_; }

  // A group commit at most every commit_interval, and only while results wait for one.
  void results_in(std::size_t n) {
    uncommitted_ += n;
    if (n == 0 || tick_pending_) return;
    tick_pending_ = true;
    push({std::max(now_, last_commit_ + p_.commit_interval), 0, Ev::CommitTick, 0});
  }

  void push(Event e) {
    e.seq = seq_++;
    q_.push(e);
  }

  // Rank 0's server: FIFO, one job at a time. Its time is taken from rank 0's own worker.
  double serve(double arrival, double cost, bool commit) {
    const double start = std::max(arrival, server_free_);
    server_free_ = start + cost;
    r_.dispatcher_busy += cost;
    if (commit) {
      ++r_.commits;
      uncommitted_ = 0;
    }
    // Serving messages takes rank 0's CPU from its worker; a commit mostly waits on the disk.
    Worker& l = w_[0];
    if (!commit && local_ && l.running) {
      l.finish += cost;
      push({l.finish, 0, Ev::Done, 0, 0, false, false, ++l.version});
    }
    return server_free_;
  }

  std::vector<std::uint64_t> take_chunk() {
    return next_chunk(order_, sec_, next_, left_, workers_, p_.factor, p_.max_chunk, group_);
  }

  void send(int r, double t, bool want_more, bool bye) {
    Worker& w = w_[r];
    Event e{t + p_.latency_seconds, 0, Ev::Arrive, r, w.pending, want_more, bye};
    w.pending = 0;
    if (want_more) w.outstanding = true;
    push(e);
  }

  void arrive(const Event& e) {
    ++r_.messages;
    const double t = serve(now_, p_.message_seconds + p_.result_seconds * e.results, false);
    results_in(e.results);
    last_ = std::max(last_, t);
    if (e.want_more) {
      w_[e.rank].inflight = take_chunk();
      push({t + p_.latency_seconds, 0, Ev::Reply, e.rank});
    }
    if (e.bye) ++byes_;
  }

  void reply(int r) {
    Worker& w = w_[r];
    w.outstanding = false;
    if (w.inflight.empty()) w.no_more = true;
    w.queue.insert(w.queue.end(), w.inflight.begin(), w.inflight.end());
    if (!w.inflight.empty()) w.last_chunk = w.inflight.size();
    w.inflight.clear();
    if (!w.running) remote_next(r);
  }

  void start(int r, std::uint64_t id) {
    Worker& w = w_[r];
    w.running = true;
    w.current = id;
    w.finish = now_ + sec_[id];
    push({w.finish, 0, Ev::Done, r, 0, false, false, ++w.version});
  }

  void remote_next(int r) {
    Worker& w = w_[r];
    if (w.queue.empty()) {
      if (w.no_more) {
        if (!w.gone) send(r, now_, false, true);
        w.gone = true;
      } else if (!w.outstanding) {
        send(r, now_, true, false);
      }
      return;
    }
    const std::uint64_t id = w.queue.front();
    w.queue.pop_front();
    if (!w.no_more && !w.outstanding && w.queue.size() <= w.last_chunk / 2)
      send(r, now_, true, false);
    start(r, id);
  }

  void local_next(double) {
    Worker& l = w_[0];
    if (l.queue.empty()) {
      const std::vector<std::uint64_t> chunk = take_chunk();
      l.queue.assign(chunk.begin(), chunk.end());
    }
    if (l.queue.empty()) {
      local_finished_ = true;
      return;
    }
    const std::uint64_t id = l.queue.front();
    l.queue.pop_front();
    start(0, id);
  }

  void done(const Event& e) {
    Worker& w = w_[e.rank];
    if (e.version != w.version || !w.running) return;  // superseded by a delay
    w.running = false;
    r_.busy[e.rank] += sec_[w.current];
    ++r_.tasks[e.rank];
    last_ = std::max(last_, now_);
    if (e.rank == 0) {
      results_in(1);
      local_next(now_);
      return;
    }
    if (w.pending == 0) w.oldest = now_;
    ++w.pending;
    if (now_ - w.oldest >= p_.flush_seconds) send(e.rank, now_, false, false);
    remote_next(e.rank);
  }

  const std::vector<std::uint64_t>& order_;
  const std::vector<double>& sec_;
  const std::vector<std::uint32_t>& group_;
  PlanParams p_;
  std::vector<Worker> w_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> q_;
  std::uint64_t seq_ = 0;
  double now_ = 0, left_ = 0, server_free_ = 0, last_ = 0, last_commit_ = 0;
  bool tick_pending_ = false;
  std::size_t next_ = 0, uncommitted_ = 0;
  int workers_ = 1, byes_ = 0;
  bool local_ = true, local_finished_ = false;
  PlanResult r_;
};

}  // namespace

PlanResult simulate_schedule(const std::vector<std::uint64_t>& order,
                             const std::vector<double>& seconds, const PlanParams& p,
                             const std::vector<std::uint32_t>& group) {
  return Sim(order, seconds, p, group).run();
}

}  // namespace drbench
