#include "framework/results/combine.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "framework/core/error.hpp"

namespace drbench {

namespace {

template <class T>
std::string text(const T& v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

template <class T>
std::string text(const std::vector<T>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + text(x);
  return "[" + s + "]";
}

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

// Files whose cells mean different things cannot share a table: a caption states one k list,
// one partition count and one selection rule for every cell in it.
template <class T>
void require_same(const std::string& what, const T& first, const T& other,
                  const std::string& first_path, const std::string& other_path,
                  const std::string& fix) {
  if (first == other) return;
  throw Error("cannot put " + first_path + " and " + other_path + " in one table: " + what +
              " differs (" + text(first) + " against " + text(other) + ") (fix: " + fix + ")");
}

}  // namespace

std::vector<ResultsFile> join_slices(std::vector<ResultsFile> files) {
  std::vector<ResultsFile> out;
  std::vector<std::size_t> slices;                                    // per joined file
  std::map<std::pair<std::string, std::string>, std::size_t> group;   // (hash, profile) -> out
  std::map<std::pair<std::size_t, std::string>, std::string> holder;  // (group, key) -> path
  for (auto& f : files) {
    const auto [at, fresh] = group.emplace(std::make_pair(f.config_hash, f.profile), out.size());
    const std::size_t g = at->second;
    for (const auto& row : f.tasks) {
      const auto [h, first] = holder.emplace(std::make_pair(g, row.result.key), f.path);
      if (!first)
        throw Error("cannot join " + h->second + " and " + f.path + ": both hold task " +
                    row.result.key + " of experiment " + f.name + " (fix: give each slice its " +
                    "own tasks, e.g. --repeats 0-4 and --repeats 5-9, or aggregate them one at " +
                    "a time)");
    }
    if (fresh) {
      out.push_back(std::move(f));
      slices.push_back(1);
      continue;
    }
    ResultsFile& j = out[g];
    if (j.graph_version != f.graph_version)
      throw Error(
          "cannot join " + j.path + " and " + f.path + ": slices of experiment " + f.name +
          " computed with neighbour graph versions " + std::to_string(j.graph_version) + " and " +
          std::to_string(f.graph_version) +
          " (root attribute graph_version; version 1: the retired brute-force search) " +
          "(fix: rerun the older slice with this drbench, or aggregate them one at a time)");
    j.tasks.insert(j.tasks.end(), f.tasks.begin(), f.tasks.end());
    j.path += ", " + f.path;
    // A slice is never stamped finished (its run did only part of the tasks); the stamp of the
    // last one to end marks the whole when every task is there.
    j.finished = std::max({j.finished, j.started, f.finished, f.started});
    ++slices[g];
  }
  for (std::size_t g = 0; g < out.size(); ++g) {
    ResultsFile& j = out[g];
    if (slices[g] == 1) continue;
    std::sort(j.tasks.begin(), j.tasks.end(), [](const TaskRow& a, const TaskRow& b) {
      return a.result.task_id < b.result.task_id;
    });
    if (j.halving_repeats > 0 || j.tasks.size() < j.n_tasks) j.finished.clear();
  }
  return out;
}

Aggregate combine_aggregates(const std::vector<Aggregate>& parts,
                             const std::vector<std::string>& paths, const std::string& reference) {
  if (parts.empty() || parts.size() != paths.size())
    throw Error("internal: combine_aggregates needs one path per aggregate");
  Aggregate out = parts[0];
  out.cells.clear();
  out.incomplete.clear();
  const std::string separately = "aggregate these files one at a time";
  using Key = std::tuple<std::string, std::string, double, std::uint64_t>;
  std::map<Key, std::size_t> from;  // each pooled cell's file
  std::set<double> splits;
  std::set<std::uint64_t> dims;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Aggregate& p = parts[i];
    require_same("the evaluated k", out.k, p.k, paths[0], paths[i], separately);
    require_same("the kNN metric", out.knn_metric, p.knn_metric, paths[0], paths[i], separately);
    require_same("the tabulated measure", out.metric, p.metric, paths[0], paths[i], separately);
    require_same("the partitions per split value (repeats)", out.repeats, p.repeats, paths[0],
                 paths[i], separately);
    require_same("the selection rule", out.selection, p.selection, paths[0], paths[i], separately);
    require_same("the successive-halving repeats", out.halving_repeats, p.halving_repeats, paths[0],
                 paths[i], separately);
    require_same("the successive-halving keep", out.halving_keep, p.halving_keep, paths[0],
                 paths[i], separately);
    if (out.split_kind.empty()) out.split_kind = p.split_kind;
    if (!p.split_kind.empty())
      require_same("the split kind", out.split_kind, p.split_kind, paths[0], paths[i], separately);
    for (const auto& d : p.datasets) add_unique(out.datasets, d);
    for (const auto& l : p.labels) add_unique(out.labels, l);
    for (const auto& [name, members] : p.pooled)
      for (const auto& m : members) add_unique(out.pooled[name], m);
    if (!p.incomplete.empty())
      out.incomplete += (out.incomplete.empty() ? "" : "; ") + p.incomplete;
    for (const Cell& c : p.cells) {
      const auto [at, fresh] = from.emplace(Key{c.dataset, c.label, c.split_value, c.dim}, i);
      if (!fresh)
        throw Error("cannot put " + paths[at->second] + " and " + paths[i] +
                    " in one table: both hold " + c.dataset + " / " + c.label + " at " +
                    out.split_kind + "=" + text(c.split_value) + ", dim " + std::to_string(c.dim) +
                    " (fix: give each file other cells, e.g. one split value per profile; two runs "
                    "of the same cell are two results, not one)");
      splits.insert(c.split_value);
      dims.insert(c.dim);
      out.cells.push_back(c);
    }
  }
  out.split_values.assign(splits.begin(), splits.end());
  out.dims.assign(dims.begin(), dims.end());
  out.reference = reference;
  out.sources = paths;
  if (!reference.empty() && reference != kBestOfColumn &&
      std::find(out.labels.begin(), out.labels.end(), reference) == out.labels.end())
    throw Error("t-test reference '" + reference + "' is not a method label in any of the files " +
                "(labels: " + text(out.labels) + ") (fix: --ttest <one of those labels>, or " +
                "--ttest \"\" for no tests)");
  run_ttests(out);
  return out;
}

}  // namespace drbench
