#include "framework/results/info.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "framework/core/error.hpp"
#include "framework/neighbours/graph_version.hpp"
#include "framework/results/reader.hpp"
#include "framework/results/store.hpp"
#include "framework/support/h5.hpp"
#include "framework/support/memory_size.hpp"

namespace drbench {

namespace {

std::string joined(const std::vector<std::string>& v, const std::string& none = "-") {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? none : out;
}

// The override lines the config text records (framework/config/experiment.cpp writes them).
std::vector<std::string> overrides_in(const std::string& config_text) {
  const std::string mark = "# command-line override: ";
  std::vector<std::string> out;
  std::istringstream in(config_text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(mark, 0) == 0) out.push_back(line.substr(mark.size()));
  return out;
}

std::size_t kept(const std::string& path, const char* group) {
  const h5::File f = h5::open_file(path, false);
  if (!h5::exists(f.h, group)) return 0;
  const h5::Handle g = h5::open_group(f, f.h, group);
  return h5::children(f, g).size();
}

}  // namespace

std::string describe_results(const std::string& path) {
  // With the arrays: every dataset is read, so each Fletcher-32 checksum is verified (aggregate
  // reads only /tasks).
  const ResultsFile r = read_results(path, true);
  std::size_t failed = 0;
  struct Cell {
    std::size_t done = 0, failed = 0;
    std::set<std::string> settings;
    std::set<std::uint64_t> dims;
    std::uint64_t peak = 0;  // the largest peak resident memory of its tasks (0: not recorded)
    std::set<std::string> protocols;
  };
  std::map<std::string, std::vector<std::string>> by_protocol;  // protocol -> labels
  std::map<std::pair<std::string, std::string>, Cell> cells;
  for (const auto& t : r.tasks) {
    Cell& c = cells[{t.dataset, t.label}];
    ++c.done;
    if (!t.result.ok) ++c.failed, ++failed;
    c.settings.insert(t.setting);
    c.dims.insert(t.dim);
    c.peak = std::max(c.peak, t.result.peak_rss_bytes);
    c.protocols.insert(t.protocol);
    auto& labels = by_protocol[t.protocol];
    if (std::find(labels.begin(), labels.end(), t.label) == labels.end()) labels.push_back(t.label);
  }
  std::string protocols;
  for (const auto& [p, labels] : by_protocol)
    protocols += (protocols.empty() ? "" : "; ") + p +
                 (by_protocol.size() > 1 ? " (" + joined(labels) + ")" : " (every method)");
  std::vector<std::string> ks;
  for (int k : r.k) ks.push_back(std::to_string(k));
  const std::size_t done = r.tasks.size();
  std::ostringstream o;
  o << r.path << "\n";
  o << "  experiment  " << r.name << (r.profile.empty() ? "" : " (profile " + r.profile + ")")
    << ", config hash " << r.config_hash << "\n";
  o << "  overrides   " << joined(overrides_in(r.config), "none") << "\n";
  o << "  made by     drbench " << r.version << " on " << r.host << ", " << r.ranks
    << " rank(s); BLAS: " << r.blas << "\n";
  o << "  started     " << r.started << "\n";
  o << "  finished    "
    << (r.finished.empty() ? "no: the run is incomplete (stopped, killed or still running)"
                           : r.finished)
    << "\n";
  o << "  tasks       " << done << " of " << r.n_tasks << " have a result (" << failed
    << " failed), " << (r.n_tasks > done ? r.n_tasks - done : 0) << " without one"
    << (r.halving_keep > 0 ? " (successive halving: not every setting runs on every repeat)" : "")
    << "\n";
  o << "  selection   " << r.selection
    << (r.selection == "validation"
            ? " (each partition's setting chosen on inner splits of its training points)"
            : " (each cell's setting chosen on the test error" +
                  std::string(r.selection_recorded ? ")"
                                                   : "; the file predates the rule's record)"))
    << "\n";
  o << "  datasets    " << joined(r.datasets) << "\n";
  o << "  methods     " << joined(r.labels) << "\n";
  o << "  protocol    " << (protocols.empty() ? "-" : protocols) << "\n";
  o << "  scored by   kNN error (" << r.knn_metric << ", k = " << joined(ks) << ")"
    << (r.quality_names.empty() ? "" : "; " + joined(r.quality_names)) << "\n";
  o << "  tables      " << joined(r.tables, "none stored (a run stores them when it finishes)")
    << "\n";
  o << "  embeddings  kept for " << kept(path, "embeddings") << " task(s)\n";
  o << "  traces      kept for " << kept(path, "traces") << " task(s)\n";
  o << "  neighbours  graph version " << r.graph_version
    << (r.graph_version == kGraphVersion ? " (this build's: exact graphs from the one search, the approximate one built in batches)"
        : r.graph_version == 1
            ? " (the file predates the attribute: the graph methods' neighbours came from "
              "the retired brute-force search, so their cells may differ from a rerun by "
              "this build, which computes version " +
                  std::to_string(kGraphVersion) + ", and a resume refuses to add to it)"
            : " (not this build's " + std::to_string(kGraphVersion) +
                  ": a resume refuses to add to it)")
    << "\n";
  o << "  integrity   every dataset read back, its checksum verified (tasks, embeddings, traces)\n";
  if (!cells.empty()) {
    o << "\n  dataset / method: protocol, tasks with a result, failed, settings, dims, peak "
         "memory\n";
    for (const auto& [key, c] : cells)
      o << "    " << key.first << " / " << key.second << ": "
        << joined(std::vector<std::string>(c.protocols.begin(), c.protocols.end())) << ", "
        << c.done << ", " << c.failed << " failed, " << c.settings.size() << " setting(s), "
        << c.dims.size() << " dim(s)"
        << (c.peak > 0 ? ", peak " + format_bytes(double(c.peak)) + " resident" : "") << "\n";
  }
  return o.str();
}

std::string progress_record(const std::string& path) {
  const ResultsFile r = read_results(path);
  const std::string journal = path + ".journal";
  long long held = -1;
  if (std::filesystem::exists(journal)) {
    try {
      held = static_cast<long long>(read_journal(journal, false).records);
    } catch (const Error&) {
      // Not a journal a resume could read: no run of this file is writing it.
    }
  }
  const long long done = static_cast<long long>(r.tasks.size());
  const long long total = static_cast<long long>(r.n_tasks);
  const long long left = r.halving_repeats > 0 ? -1 : std::max(total - std::max(done, held), 0LL);
  std::ostringstream o;
  o << path << "\t" << done << "\t" << total << "\t" << (r.finished.empty() ? 0 : 1) << "\t"
    << (held >= 0 ? journal : "") << "\t" << held << "\t" << left;
  return o.str();
}

}  // namespace drbench
