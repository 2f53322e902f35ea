#pragma once
// Hands tasks to every rank, rank 0 included, and brings their results back to rank 0. Nothing in
// here knows what a task is: tasks are ids with cost estimates, results are byte strings.
//
// Rank 0 runs a dispatcher (the calling thread, the only one that calls MPI) beside a worker
// thread that takes its chunks straight from the shared queue. Remote ranks get chunks sized by
// guided self-scheduling on the cost estimates (big chunks of cheap tasks, single expensive ones),
// ask for the next chunk while half of the current one is still to run, and send results back in
// batches with those requests, so neither a message round trip nor a sleep sits between two tasks.
// Rank 0 makes results durable in groups (one commit per interval, not per task).
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "framework/support/stop_signal.hpp"

namespace drbench {

struct DispatchHooks {
  // Any rank: runs one task and returns its result as bytes. Must not throw.
  std::function<std::string(std::uint64_t id)> run;
  // Rank 0, dispatcher thread: one finished task's bytes (not durable yet).
  std::function<void(std::string&& bytes)> record;
  // Rank 0, dispatcher thread: makes everything recorded so far durable and reports it.
  std::function<void()> commit;
  // Rank 0, dispatcher thread: a chunk of tasks just sent to another rank (optional). The run
  // keeps what each rank holds, so tasks lost with a rank that dies can be named.
  std::function<void(int rank, const std::vector<std::uint64_t>& ids)> sent;
};

// Tasks placed by memory (framework/sched/placement.hpp). With a table, rank 0 hands out one task
// at a time, each to an idle rank whose node has the task's slots free (a task of m slots counts
// its own rank and m - 1 others of the node, which take nothing while it runs), and a rank whose
// request no waiting task fits now is answered once one does (it holds back). A request that
// arrives while the rank still runs its task waits for that task's result, so only idle ranks are
// counted free.
struct SlotTable {
  std::vector<int> node_of;     // per rank: its node
  std::vector<int> node_ranks;  // per node: its ranks
  // Per task: its slots on each node (0: it does not fit there). A task not listed takes one.
  std::map<std::uint64_t, std::vector<int>> slots;
  int slots_of(std::uint64_t id, int node) const {
    auto it = slots.find(id);
    return it == slots.end() ? 1 : it->second.at(static_cast<std::size_t>(node));
  }
};

struct DispatchOptions {
  double commit_seconds = 0.25;       // rank 0 commits at least this often while results arrive
  double flush_seconds = 1.0;         // a remote rank holds a finished result at most this long ...
  std::size_t flush_bytes = 1 << 22;  // ... or until its results make this many bytes
  std::size_t max_chunk = 256;        // tasks in one message (keeps it an eager-sized message)
  // Guided self-scheduling factor: a chunk carries about 1/(factor x workers) of the cost left.
  double factor = 2.0;
  bool rank0_computes = true;        // false: rank 0 only dispatches (benchmarks of its throughput)
  const SlotTable* slots = nullptr;  // rank 0: place by memory (see SlotTable)
};

struct DispatchStats {
  bool stopped = false;      // a stop signal ended the run before every task ran
  std::size_t recorded = 0;  // results rank 0 received (all ranks)
  std::size_t messages = 0;  // messages rank 0 received
  std::size_t commits = 0;
  double seconds = 0.0;  // wall time of dispatch() on rank 0
};

// Collective over MPI_COMM_WORLD: every rank makes the same sequence of calls (successive halving
// makes two), and each call's messages carry tags of their own, so a rank already in the next call
// is not served by rank 0's previous one. order (rank 0): the task ids to run, in the order they
// should start (longest first); cost (rank 0): an estimate for every id in order, indexed by id.
// Returns when every task in order has been recorded and committed, or when a stop was requested
// (stop_requested(), set by SIGTERM/SIGINT/SIGUSR1 on any rank) and the tasks already running have
// finished. Stats are meaningful on rank 0 only.
// group (rank 0, optional): one entry per position of order, equal for neighbouring tasks that
// share a prepared partition (framework/sched/order.hpp); chunks then end between groups where
// they can, so one rank prepares a partition once.
DispatchStats dispatch(const std::vector<std::uint64_t>& order, const std::vector<double>& cost,
                       const DispatchHooks& hooks, const DispatchOptions& opt = {},
                       const std::vector<std::uint32_t>& group = {});

// Collective over MPI_COMM_WORLD: rank 0's `v` on every rank. The others wait by polling at
// growing intervals, as idle ranks do in dispatch(): Open MPI's blocking MPI_Bcast spins a core,
// and while rank 0 checks the config and data a spinning rank took the core share rank 0 needed
// (on a node shared with another job, minutes before the first task).
int broadcast_quietly(int v);
// Rank 0's bytes on every rank, waiting the same way.
std::string broadcast_bytes_quietly(std::string bytes);
// Collective: returns once every rank has called it, waiting the same way. Before MPI_Finalize,
// whose own barrier spins, so ranks that finish early do not slow the ones still writing.
void barrier_quietly();

// How many tasks from position `next` of `order` go into one chunk: the longest prefix whose
// estimated cost stays within cost_left / (factor x workers), at least one task and at most
// max_chunk. cost_left is the estimated cost of order[next..]. With `group` (see dispatch), a
// chunk that would end inside a group ends at that group's end instead when the rest of the group
// fits within max_chunk and another budget, else at the group's start when an earlier group is in
// the chunk; only a group too big for either is cut.
std::size_t chunk_size(const std::vector<std::uint64_t>& order, const std::vector<double>& cost,
                       std::size_t next, double cost_left, int workers, double factor,
                       std::size_t max_chunk, const std::vector<std::uint32_t>& group = {});
// The chunk_size tasks from position `next` of `order`, with `next` moved past them and their
// cost taken off cost_left: what a taker (a rank, the local worker, the planner's simulation)
// gets. Empty when nothing is left.
std::vector<std::uint64_t> next_chunk(const std::vector<std::uint64_t>& order,
                                      const std::vector<double>& cost, std::size_t& next,
                                      double& cost_left, int workers, double factor,
                                      std::size_t max_chunk,
                                      const std::vector<std::uint32_t>& group = {});

}  // namespace drbench
