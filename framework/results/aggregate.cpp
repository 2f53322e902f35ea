#include "framework/results/aggregate.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <type_traits>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/results/files.hpp"
#include "framework/results/selection.hpp"
#include "framework/results/store.hpp"
#include "framework/support/h5.hpp"

namespace drbench {

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string number(double v) {
  return fmt("%g", v);
}

// kNN errors are fractions printed in percent with 2 decimals; quality measures as they are.
double scale(const Aggregate& a) {
  return a.metric.empty() ? 100.0 : 1.0;
}
const char* value_format(const Aggregate& a) {
  return a.metric.empty() ? "%.2f" : "%.4f";
}
// "rnx@10" or "rnx_auc"; "1-NN" for the kNN error.
std::string k_name(const Aggregate& a, int k) {
  if (a.metric.empty()) return std::to_string(k) + "-NN";
  return k > 0 ? a.metric + "@" + std::to_string(k) : a.metric;
}

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

// The reference cell a cell is compared with: the same dim, or else the reference's only cell
// for this dataset and split value (a reference without dims lives in the input-space table).
const Cell* reference_cell(const Aggregate& a, const Cell& c) {
  if (const Cell* same = a.find(c.dataset, a.reference, c.split_value, c.dim)) return same;
  const Cell* only = nullptr;
  for (const auto& r : a.cells)
    if (r.dataset == c.dataset && r.label == a.reference && r.split_value == c.split_value) {
      if (only) return nullptr;  // several dims, none of them this one: no obvious partner
      only = &r;
    }
  return only;
}

// A cell's rows share a protocol: a setting chosen across protocols would hide which one won.
void require_one_protocol(const ResultsFile& f, const TaskRow& row, const Cell& c,
                          const std::string& protocol) {
  if (c.protocol != protocol)
    throw Error(f.path + ": --pool-labels puts " + row.label + " (" + protocol +
                " protocol) into " + c.label + " beside " + c.protocol +
                " rows; one cell chooses among settings of one protocol (fix: pool the labels "
                "of each protocol under their own name)");
}

// The pooled name of `name` under the first rule it matches, or nullptr.
const PoolRule* pool_of(const std::vector<PoolRule>& rules, const std::string& name) {
  for (const auto& r : rules)
    if (pool_matches(r.pattern, name)) return &r;
  return nullptr;
}

// selection: validation: which setting of each partition was chosen (choose_validated on the
// inner rows, as the run chose), and per cell the text its chosen settings are reported under.

// Pooled labels (--pool-labels) make one choice per partition among every label's settings, on
// the inner errors as each label's own choice was made, so the row's label is never picked on
// the test points; their settings read "<label>: <setting>".
struct ValidatedChoices {
  std::set<std::string> groups;               // partitions of cells with inner rows
  std::map<std::string, std::string> chosen;  // partition -> chosen setting
  // Table cell (pooled data sets under their pooled name: their partitions make one cell) ->
  // "per partition: a=1 in 3; a=2 in 2".
  std::map<std::string, std::string> text;
  std::vector<PoolRule> pool_datasets, pool_labels;
  std::string label(const TaskRow& r) const {
    const PoolRule* p = pool_of(pool_labels, r.label);
    return p ? p->name : r.label;
  }
  std::string setting(const TaskRow& r) const {
    return (pool_of(pool_labels, r.label) ? r.label + ": " : std::string()) + r.setting;
  }
  std::string group(const TaskRow& r) const {
    return r.dataset + "|" + label(r) + "|" + number(r.split_value) + "|" + std::to_string(r.dim) +
           "|" + std::to_string(r.repeat);
  }
  std::string table_cell(const TaskRow& r) const {
    const PoolRule* p = pool_of(pool_datasets, r.dataset);
    return (p ? p->name : r.dataset) + "|" + label(r) + "|" + number(r.split_value) + "|" +
           std::to_string(r.dim);
  }
  // The reported setting text of a test-point row that was chosen, else nullptr.
  const std::string* reported(const TaskRow& r) const {
    const auto c = chosen.find(group(r));
    if (c == chosen.end() || c->second != setting(r)) return nullptr;
    return &text.at(table_cell(r));
  }
};

ValidatedChoices validated_choices(const ResultsFile& f, const AggregateOptions& opt) {
  ValidatedChoices v;
  v.pool_datasets = opt.pool_datasets;
  v.pool_labels = opt.pool_labels;
  std::vector<InnerScore> scores;
  for (const auto& row : f.tasks)
    if (row.fold >= 0) {
      v.groups.insert(v.group(row));
      const auto& e = row.result.knn_error;
      scores.push_back(
          {v.group(row), v.setting(row), row.result.ok && !e.empty(), e.empty() ? 0.0 : e[0]});
    }
  v.chosen = choose_validated(scores);
  std::map<std::string, std::map<std::string, int>> counts;  // cell -> setting -> partitions
  for (const auto& row : f.tasks)
    if (row.fold < 0 && v.chosen.count(v.group(row)) && v.chosen.at(v.group(row)) == v.setting(row))
      ++counts[v.table_cell(row)][v.setting(row)];
  for (const auto& [cell, settings] : counts) {
    std::string t;
    for (const auto& [setting, n] : settings)
      t += (t.empty() ? "" : "; ") + setting + " in " + std::to_string(n);
    v.text[cell] = "per partition: " + t;
  }
  return v;
}

}  // namespace

bool pool_matches(const std::string& pattern, const std::string& name) {
  // Glob with '*' only: greedy with backtracking to the last star.
  std::size_t p = 0, n = 0, star = std::string::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<PoolRule> parse_pool_rules(const std::string& text, const std::string& option) {
  std::vector<PoolRule> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw Error(option + " '" + text + "': '" + item + "' is not PATTERN=NAME (fix: e.g. " +
                  option +
                  " 'oil_*=oil', several "
                  "separated by commas)");
    out.push_back({item.substr(0, eq), item.substr(eq + 1)});
    pos = comma + 1;
  }
  return out;
}

int Aggregate::expected(const std::string& dataset) const {
  const auto it = pooled.find(dataset);
  return it == pooled.end() ? repeats : repeats * static_cast<int>(it->second.size());
}

void resolve_test_options(Aggregate& a, const AggregateOptions& opt, bool reference_from_file) {
  if (opt.test != "ttest" && opt.test != "wilcoxon")
    throw Error("--test " + opt.test + ": no such test (fix: --test ttest or --test wilcoxon)");
  a.test = opt.test;
  a.correction = opt.correction.value_or(reference_from_file ? "none" : "holm");
  if (a.correction != "none" && a.correction != "holm")
    throw Error("--correction " + a.correction +
                ": no such correction (fix: --correction holm or --correction none)");
}

namespace {

// Each cell's partner: the reference label's cell, or with kBestOfColumn the column's best at
// ki (the first in label order among the bold ones); nullptr when there is none or it is c.
const Cell* partner(const Aggregate& a, const Cell& c, std::size_t ki,
                    const std::vector<const Cell*>& column) {
  if (a.reference != kBestOfColumn) return c.label == a.reference ? nullptr : reference_cell(a, c);
  const Cell* best = nullptr;
  for (const Cell* o : column)
    if (o->column_best[ki]) {
      best = o;
      break;
    }
  return best == &c ? nullptr : best;
}

// The column's best mean at ki gets its cells marked bold, with every cell that prints the same
// mean: a table must not bold one of two equal numbers.
void mark_column_best(const Aggregate& a, const std::vector<Cell*>& column, std::size_t ki) {
  const Cell* best = nullptr;
  for (const Cell* o : column)
    if (o->best >= 0 &&
        (!best || (a.higher_better ? o->chosen()->mean[ki] > best->chosen()->mean[ki]
                                   : o->chosen()->mean[ki] < best->chosen()->mean[ki])))
      best = o;
  if (!best) return;
  const auto printed = [&](const Cell* c) {
    return fmt(value_format(a), scale(a) * c->chosen()->mean[ki]);
  };
  for (Cell* o : column) o->column_best[ki] = o->best >= 0 && printed(o) == printed(best);
}

TTestResult paired_test(const Aggregate& a, const SettingStats& mine, const SettingStats& theirs,
                        std::size_t ki) {
  // Pair repeats that saw the same partition.
  std::map<std::uint64_t, std::size_t> at;
  for (std::size_t i = 0; i < theirs.n(); ++i) at[theirs.split_seeds[i]] = i;
  std::vector<double> x, y;
  for (std::size_t i = 0; i < mine.n(); ++i) {
    auto it = at.find(mine.split_seeds[i]);
    if (it == at.end()) continue;
    x.push_back(mine.errors[ki][i]);
    y.push_back(theirs.errors[ki][it->second]);
  }
  return a.test == "wilcoxon" ? wilcoxon_signed_rank(x, y) : paired_ttest(x, y);
}

}  // namespace

void run_ttests(Aggregate& a) {
  const double nan = std::nan("");
  // Columns (dataset, split value, dim) in label order, and tables (dataset, dim).
  std::map<std::tuple<std::string, double, std::uint64_t>, std::vector<Cell*>> columns;
  std::map<std::pair<std::string, std::uint64_t>, std::vector<Cell*>> tables;
  for (const auto& label : a.labels)
    for (auto& c : a.cells)
      if (c.label == label) {
        columns[{c.dataset, c.split_value, c.dim}].push_back(&c);
        tables[{c.dataset, c.dim}].push_back(&c);
      }
  for (auto& c : a.cells) {
    c.ttest.assign(a.k.size(), TTestResult{0, nan, nan, nan});
    c.p_adjusted.assign(a.k.size(), nan);
    c.worse.assign(a.k.size(), false);
    c.column_best.assign(a.k.size(), false);
    c.tested_against.assign(a.k.size(), "");
  }
  for (auto& [key, column] : columns)
    for (std::size_t ki = 0; ki < a.k.size(); ++ki) mark_column_best(a, column, ki);
  if (a.reference.empty()) return;
  for (auto& [key, column] : columns) {
    const std::vector<const Cell*> view(column.begin(), column.end());
    for (Cell* c : column)
      for (std::size_t ki = 0; ki < a.k.size() && c->best >= 0; ++ki) {
        const Cell* ref = partner(a, *c, ki, view);
        if (!ref || ref->best < 0) continue;
        c->reference_dim = ref->dim;
        c->tested_against[ki] = ref->label;
        c->ttest[ki] = paired_test(a, *c->chosen(), *ref->chosen(), ki);
      }
  }
  // The correction runs over one table's comparisons: a dataset and dim at one k.
  for (auto& [key, cells] : tables)
    for (std::size_t ki = 0; ki < a.k.size(); ++ki) {
      std::vector<double> p;
      for (const Cell* c : cells) p.push_back(c->tested(ki) ? c->ttest[ki].p : nan);
      if (a.correction == "holm") p = holm_adjust(p);
      for (std::size_t i = 0; i < cells.size(); ++i) {
        Cell& c = *cells[i];
        c.p_adjusted[ki] = p[i];
        const double d = c.ttest[ki].mean_diff;
        c.worse[ki] = c.tested(ki) && p[i] < a.alpha && (a.higher_better ? d < 0 : d > 0);
      }
    }
}

std::vector<std::string> Aggregate::protocols() const {
  std::vector<std::string> out;
  for (const auto& c : cells) add_unique(out, c.protocol);
  return out;
}

bool Table::mixed_protocols() const {
  for (const auto& p : protocol)
    if (p != protocol.front()) return true;
  return !protocol.empty() && protocol.front().find('+') != std::string::npos;
}

const Cell* Aggregate::find(const std::string& dataset, const std::string& label,
                            double split_value, std::uint64_t dim) const {
  for (const auto& c : cells)
    if (c.dataset == dataset && c.label == label && c.split_value == split_value && c.dim == dim)
      return &c;
  return nullptr;
}

namespace {

// The columns the table reads: the kNN errors, or the metric's quality columns (one per K).
// For a quality metric, a's k, metric and direction become the metric's.
std::vector<std::size_t> measure_columns(const ResultsFile& f, const AggregateOptions& opt,
                                         Aggregate& a) {
  std::vector<std::size_t> columns;
  const bool quality = !opt.metric.empty() && opt.metric != "knn_error";
  if (!quality) {
    for (std::size_t j = 0; j < f.k.size(); ++j) columns.push_back(j);
    return columns;
  }
  for (std::size_t j = 0; j < f.quality_measure.size(); ++j)
    if (f.quality_measure[j] == opt.metric) columns.push_back(j);
  if (columns.empty()) {
    std::string stored;
    for (const auto& m : f.quality_measure)
      if (stored.find(m) == std::string::npos) stored += (stored.empty() ? "" : ", ") + m;
    throw Error(f.path + ": --metric " + opt.metric + " is not stored in this file (stored: " +
                (stored.empty() ? "only knn_error" : "knn_error, " + stored) +
                ") (fix: one of those, or add it to evaluation.quality and rerun)");
  }
  a.k.clear();
  for (std::size_t j : columns) a.k.push_back(f.quality_k[j]);
  a.metric = opt.metric;
  a.higher_better = f.quality_higher_better(columns[0]);
  return columns;
}

// What the captions say about the run: the test, the selection rule, the partitions.
void copy_run_attributes(const ResultsFile& f, const AggregateOptions& opt, Aggregate& a) {
  a.knn_metric = f.knn_metric;
  a.alpha = opt.alpha;
  a.reference = opt.reference ? *opt.reference : f.ttest_reference;
  if (!opt.reference && a.reference.empty()) a.reference = kBestOfColumn;
  resolve_test_options(a, opt, !opt.reference && !f.ttest_reference.empty());
  a.halving_repeats = f.halving_repeats;
  a.halving_keep = f.halving_keep;
  a.selection = f.selection;
  a.validation_folds = f.validation_folds;
  a.validation_fraction = f.validation_fraction;
  a.repeats = f.repeats;
  if (a.repeats <= 0)  // a ResultsFile built by hand: the repeats its rows show
    for (const auto& row : f.tasks) a.repeats = std::max(a.repeats, row.repeat + 1);
}

// Pooling renames datasets and labels before anything is grouped; a pooled name sits where its
// first member was in the config order.
std::vector<std::string> pooled_list(const std::vector<std::string>& names,
                                     const std::vector<PoolRule>& rules, const std::string& what,
                                     const std::string& path) {
  std::vector<std::string> out;
  for (const auto& n : names)
    if (!pool_of(rules, n)) add_unique(out, n);
  for (const auto& r : rules)
    if (std::find(out.begin(), out.end(), r.name) != out.end())
      throw Error(path + ": cannot pool " + what + "s matching '" + r.pattern + "' as '" + r.name +
                  "': the file has a " + what + " of that name which the pattern " +
                  "does not match (fix: pool under another name)");
  out.clear();
  for (const auto& n : names) {
    const PoolRule* r = pool_of(rules, n);
    add_unique(out, r ? r->name : n);
  }
  return out;
}

// A file is stamped finished only when its run did every task it planned; a table from an
// unstamped one may lack methods and partitions, and must say so rather than look final.
std::string incomplete_note(const ResultsFile& f) {
  if (!f.finished.empty() || f.n_tasks == 0) return "";
  const std::string done =
      f.halving_repeats > 0
          ? std::to_string(f.tasks.size()) +
                " task results (successive halving runs only part of the " +
                std::to_string(f.n_tasks) + " expanded tasks)"
          : std::to_string(f.tasks.size()) + " of " + std::to_string(f.n_tasks) + " tasks";
  return "incomplete run: " + f.path + " holds " + done +
         " and its run has not finished (stopped, killed or still running), so cells may "
         "rest on fewer partitions and methods may be missing; rerun the same `drbench "
         "run` command to complete it";
}

using CellKey = std::tuple<std::string, std::string, double, std::uint64_t>;

// Every setting run in each cell, inner and failed tasks too: the grid a caption reports.
std::map<CellKey, std::set<std::string>> setting_grids(const ResultsFile& f,
                                                       const AggregateOptions& opt) {
  std::map<CellKey, std::set<std::string>> grids;
  for (const auto& row : f.tasks) {
    const PoolRule* dpool = pool_of(opt.pool_datasets, row.dataset);
    const PoolRule* lpool = pool_of(opt.pool_labels, row.label);
    const std::string& label = lpool ? lpool->name : row.label;
    grids[{dpool ? dpool->name : row.dataset, label, row.split_value, row.dim}].insert(
        (lpool ? row.label + ": " : std::string()) + row.setting);
  }
  return grids;
}

// Groups the reported rows into cells (dataset, label, split value, dim) and each cell's
// settings, collecting the values of the given columns per partition.
void collect_cells(const ResultsFile& f, const AggregateOptions& opt,
                   const std::vector<std::size_t>& columns, Aggregate& a) {
  const bool quality = !a.metric.empty();
  std::set<double> splits;
  std::set<std::uint64_t> dims;
  std::map<CellKey, std::size_t> index;
  std::map<std::pair<std::size_t, std::string>, std::size_t> setting_index;
  const ValidatedChoices validated = validated_choices(f, opt);
  const std::map<CellKey, std::set<std::string>> grids = setting_grids(f, opt);
  for (const auto& row : f.tasks) {
    if (row.fold >= 0) continue;  // inner validation: chose the setting, never reported
    const PoolRule* dpool = pool_of(opt.pool_datasets, row.dataset);
    const PoolRule* lpool = pool_of(opt.pool_labels, row.label);
    const std::string& dataset = dpool ? dpool->name : row.dataset;
    const std::string& label = lpool ? lpool->name : row.label;
    const std::string* summary = validated.reported(row);
    if (validated.groups.count(validated.group(row)) && !summary) continue;  // not chosen
    const std::string setting =
        summary ? *summary : (lpool ? row.label + ": " : std::string()) + row.setting;
    // Draws of different data sets may share a partition seed; t-tests pair a draw with itself.
    const std::uint64_t pair_key = dpool ? hash_seed(row.split_seed, row.dataset) : row.split_seed;
    if (dpool) add_unique(a.pooled[dpool->name], row.dataset);
    add_unique(a.datasets, dataset);  // rows of files written without the order attributes
    add_unique(a.labels, label);
    if (a.split_kind.empty()) a.split_kind = row.split_kind;
    splits.insert(row.split_value);
    dims.insert(row.dim);
    CellKey key{dataset, label, row.split_value, row.dim};
    auto [it, fresh] = index.emplace(key, a.cells.size());
    const std::string protocol = row.protocol.empty() ? "holdout" : row.protocol;
    if (fresh) {
      Cell c;
      c.protocol = protocol;
      c.dataset = dataset;
      c.label = label;
      c.split_value = row.split_value;
      c.dim = row.dim;
      const std::set<std::string>& g = grids.at(key);
      c.grid.assign(g.begin(), g.end());
      a.cells.push_back(c);
    }
    Cell& c = a.cells[it->second];
    require_one_protocol(f, row, c, protocol);
    if (!row.result.ok) {
      ++c.failed;
      continue;
    }
    const std::vector<double>& values = quality ? row.result.quality : row.result.knn_error;
    const std::size_t expected = quality ? f.quality_names.size() : f.k.size();
    if (values.size() != expected)
      throw Error(f.path + ": task " + std::to_string(row.result.task_id) + " has " +
                  std::to_string(values.size()) + (quality ? " quality values" : " kNN errors") +
                  ", expected " + std::to_string(expected));
    auto [sit, sfresh] =
        setting_index.emplace(std::make_pair(it->second, setting), c.settings.size());
    if (sfresh) {
      SettingStats s;
      s.setting = setting;
      s.errors.resize(a.k.size());
      c.settings.push_back(s);
    }
    SettingStats& s = c.settings[sit->second];
    s.split_seeds.push_back(pair_key);
    s.repeats.push_back(row.repeat);
    s.ends.push_back(row.result.fit_end);
    s.fit_seconds.push_back(row.result.fit_seconds);
    for (std::size_t ki = 0; ki < a.k.size(); ++ki) s.errors[ki].push_back(values[columns[ki]]);
  }
  a.split_values.assign(splits.begin(), splits.end());
  a.dims.assign(dims.begin(), dims.end());
}

void require_reference_label(const ResultsFile& f, const Aggregate& a) {
  if (a.reference.empty() || a.reference == kBestOfColumn ||
      std::find(a.labels.begin(), a.labels.end(), a.reference) != a.labels.end())
    return;
  std::string labels;
  for (const auto& l : a.labels) labels += (labels.empty() ? "" : ", ") + l;
  throw Error(f.path + ": t-test reference '" + a.reference +
              "' is not a method label in this file (labels: " + labels +
              ") (fix: --ttest <one of those labels>, or --ttest \"\" for no tests)");
}

// Each setting's mean and standard deviation per k, and the cell's min_mean_error setting.
void summarise_cell(Cell& c, bool higher_better) {
  std::sort(c.settings.begin(), c.settings.end(),
            [](const SettingStats& x, const SettingStats& y) { return x.setting < y.setting; });
  for (auto& s : c.settings) {
    for (const auto& e : s.errors) {
      s.mean.push_back(mean(e));
      s.std.push_back(sample_std(e));
    }
  }
  // min_mean_error on the first k among the settings with the most repeats (all of them when
  // any setting is complete), so a setting that failed on some partitions cannot win with the
  // lucky rest; ties go to the first setting by name. After successive halving this is the
  // settings that went on past the first stage.
  std::size_t most = 0;
  for (const auto& st : c.settings) most = std::max(most, st.n());
  for (std::size_t i = 0; i < c.settings.size(); ++i)
    if (c.settings[i].n() == most &&
        (c.best < 0 || (higher_better ? c.settings[i].mean[0] > c.settings[c.best].mean[0]
                                      : c.settings[i].mean[0] < c.settings[c.best].mean[0])))
      c.best = static_cast<int>(i);
}

}  // namespace

Aggregate aggregate(const ResultsFile& f, const AggregateOptions& opt) {
  if (f.k.empty())
    throw Error(f.path +
                ": /tasks/knn_error has no columns (the run evaluated no k), nothing to "
                "aggregate");
  Aggregate a;
  a.k = f.k;
  const std::vector<std::size_t> columns = measure_columns(f, opt, a);
  copy_run_attributes(f, opt, a);
  a.datasets = pooled_list(f.datasets, opt.pool_datasets, "dataset", f.path);
  a.labels = pooled_list(f.labels, opt.pool_labels, "method label", f.path);
  for (const auto& d : f.datasets)
    if (const PoolRule* r = pool_of(opt.pool_datasets, d)) add_unique(a.pooled[r->name], d);
  a.incomplete = incomplete_note(f);
  collect_cells(f, opt, columns, a);
  require_reference_label(f, a);
  for (auto& c : a.cells) summarise_cell(c, a.higher_better);
  run_ttests(a);
  return a;
}

namespace {

// Where a reference compared from another table sits: the input-space table (dim 0, a method
// without dims), or the latent dim it was run at.
std::string where_reference(const std::set<std::uint64_t>& dims) {
  if (dims.empty()) return "";
  if (dims.size() == 1 && *dims.begin() == 0) return " (in the input-space table)";
  std::string s;
  for (auto d : dims)
    s += (s.empty() ? "" : ", ") + (d == 0 ? std::string("input space") : std::to_string(d));
  return std::string(" (from its ") + (dims.size() == 1 ? "dim " : "dims ") + s + " table)";
}

const char* kHoldoutText = "fitted on the training points, test points mapped";
const char* kTransductiveText = "training and test points embedded together, test labels hidden";

// The distinct protocols of a row's cells, joined by '+'.
std::string row_protocol(const std::vector<const Cell*>& row) {
  std::vector<std::string> ps;
  for (const Cell* c : row)
    if (c) add_unique(ps, c->protocol);
  std::sort(ps.begin(), ps.end());
  std::string s;
  for (const auto& p : ps) s += (s.empty() ? "" : "+") + p;
  return s;
}

// One protocol: the caption names it. Several: each row's is in a protocol column, and tests
// between cells of different protocols are said to be such.
std::string protocol_caption(const Table& t, std::size_t ki, const Aggregate& a) {
  if (t.protocol.empty()) return "";
  if (!t.mixed_protocols())
    return "; " + t.protocol.front() + " protocol (" +
           (t.protocol.front() == "transductive" ? kTransductiveText : kHoldoutText) + ")";
  std::string s = std::string("; protocols differ by row (holdout: ") + kHoldoutText +
                  "; transductive: " + kTransductiveText + ")";
  bool across = false;
  for (const auto& row : t.cells)
    for (const Cell* c : row)
      if (c && c->tested(ki)) {
        // The column's best sits at this cell's dim; a named reference may sit at another.
        const Cell* ref = a.reference == kBestOfColumn
                              ? a.find(c->dataset, c->tested_against[ki], c->split_value, c->dim)
                              : reference_cell(a, *c);
        if (ref) across = across || ref->protocol != c->protocol;
      }
  if (across)
    s += "; the t-tests compare rows of different protocols too, paired on the same partitions "
         "and test points";
  return s;
}

// The caption's selection rule: the oracle says it chose on the test error.
std::string selection_text(const Aggregate& a, int expected) {
  const std::string halving =
      a.halving_repeats == 0
          ? ""
          : " by successive halving (every setting on " + std::to_string(a.halving_repeats) +
                " partitions, the best " + std::to_string(a.halving_keep) + " on all)";
  if (a.selection == "validation") {
    const std::string inner = a.validation_folds > 0
                                  ? std::to_string(a.validation_folds) + " inner folds"
                                  : "an inner split holding out " +
                                        number(100.0 * a.validation_fraction) + " % of each class";
    return "setting chosen per partition by the 1st k's kNN error on " + inner +
           " of its training points (selection: validation" +
           (halving.empty() ? "" : "," + halving) +
           "), refitted on all of them and scored on the test points once";
  }
  return "best setting per cell" + (a.metric.empty() ? "" : " by " + k_name(a, a.k[0])) +
         (expected > 1 ? " among those with results on all " + std::to_string(expected) : "") +
         halving + ", chosen on the test error, as the paper did (selection: min_mean_error)";
}

// The caption's account of the marks: bold, and where tests ran, which test against which
// reference with which correction; rows no test could reach are named.
std::string test_caption(const Table& t, const Aggregate& a, std::size_t ki) {
  std::string s;
  bool any_bold = false;
  for (const auto& row : t.cells)
    for (const Cell* c : row)
      any_bold = any_bold || (c && ki < c->column_best.size() && c->column_best[ki]);
  if (any_bold) s += "; bold: the best mean of its column";
  if (a.reference.empty()) return s;
  const bool best = a.reference == kBestOfColumn;
  const std::string test = a.test == "wilcoxon" ? "Wilcoxon signed-rank test" : "paired t-test";
  const std::string against = best ? "the best of its column" : a.reference;
  // Promise a mark only where a test ran, and say where none could.
  std::size_t tests = 0;
  std::set<std::uint64_t> other_dims;  // the reference's dims where it is not this one
  std::vector<std::string> untested;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    if (!best && t.rows[i] == a.reference) continue;
    bool row_tested = false, row_best = false;
    for (const Cell* c : t.cells[i]) {
      if (c && ki < c->column_best.size() && c->column_best[ki]) row_best = true;
      if (c && c->tested(ki)) {
        row_tested = true;
        ++tests;
        if (c->reference_dim != c->dim) other_dims.insert(c->reference_dim);
      }
    }
    if (!row_tested && !(best && row_best)) untested.push_back(t.rows[i]);
  }
  if (tests > 0)
    s += "; † significantly worse than " + against + (best ? "" : where_reference(other_dims)) +
         " (" + test + ", " +
         (a.correction == "holm" ? "Holm-corrected over the table's " + std::to_string(tests) +
                                       " comparison" + (tests == 1 ? "" : "s")
                                 : std::string("uncorrected")) +
         ", p < " + number(a.alpha) + ")";
  // A signed-rank test on n pairs cannot give p below 2 / 2^n: say so rather than let an
  // absent mark read as no difference.
  std::size_t most = 0;
  for (const auto& row : t.cells)
    for (const Cell* c : row)
      if (c && c->tested(ki)) most = std::max(most, c->ttest[ki].n);
  if (tests > 0 && a.test == "wilcoxon" && most < 64 && std::ldexp(2.0, -int(most)) >= a.alpha)
    s += "; with at most " + std::to_string(most) + " pairs no signed-rank p-value falls below " +
         number(std::ldexp(2.0, -int(most)));
  if (!untested.empty()) {
    std::string names;
    for (const auto& u : untested) names += (names.empty() ? "" : ", ") + u;
    s += "; no " + std::string(a.test == "wilcoxon" ? "Wilcoxon test" : "t-test") + " against " +
         against + " for " + names + " (fewer than 2 partitions paired with it)";
  }
  return s;
}

}  // namespace

std::vector<Table> make_tables(const Aggregate& a) {
  std::vector<Table> out;
  bool several = a.dims.size() > 1;
  for (const auto& ds : a.datasets)
    for (std::size_t ki = 0; ki < a.k.size(); ++ki)
      for (auto dim : a.dims) {
        Table t;
        t.dataset = ds;
        t.k = a.k[ki];
        t.dim = dim;
        t.several_dims = several;
        t.name = ds +
                 (a.metric.empty() ? "_k" + std::to_string(t.k)
                                   : "_" + a.metric + (t.k > 0 ? "_K" + std::to_string(t.k) : "")) +
                 (several ? "_d" + std::to_string(dim) : "");
        for (double sv : a.split_values)
          t.columns.push_back(a.split_kind == "own" || a.split_kind == "all"
                                  ? a.split_kind + " split"
                                  : a.split_kind + "=" + number(sv));
        for (const auto& label : a.labels) {
          std::vector<const Cell*> row;
          std::size_t failed = 0;
          bool any = false;
          for (double sv : a.split_values) {
            const Cell* c = a.find(ds, label, sv, several ? dim : a.dims[0]);
            row.push_back(c);
            if (c) {
              any = true;
              failed += c->failed;
            }
          }
          if (!any) continue;  // this method has no tasks at this dim / on this dataset
          t.rows.push_back(label);
          t.cells.push_back(row);
          t.failed.push_back(failed);
          t.protocol.push_back(row_protocol(row));
        }
        if (t.rows.empty()) continue;
        const int expected = a.expected(ds);
        const std::string R = std::to_string(expected);
        const auto pool = a.pooled.find(ds);
        const std::string over =
            pool == a.pooled.end()
                ? R + " partition" + (expected == 1 ? "" : "s")
                : R + " results (" + std::to_string(a.repeats) + " partition" +
                      (a.repeats == 1 ? "" : "s") + " of each of " +
                      std::to_string(pool->second.size()) + " pooled data sets, " +
                      pool->second.front() +
                      (pool->second.size() > 1 ? " to " + pool->second.back() : "") + ")";
        t.caption =
            ds + ": " +
            (a.metric.empty() ? std::to_string(t.k) + "-NN" +
                                    (a.knn_metric == "euclidean" ? "" : " (" + a.knn_metric + ")") +
                                    " test error (%)"
                              : (t.k > 0 ? a.metric + " at K = " + std::to_string(t.k) : a.metric) +
                                    " (" + (a.higher_better ? "higher" : "lower") + " is better)") +
            ", mean ± std over " + over + ", " + selection_text(a, expected) +
            (!several   ? ""
             : dim == 0 ? ", input space (methods without a latent dimension)"
                        : ", latent dim " + std::to_string(dim));
        bool short_cell = false;
        for (const auto& row : t.cells)
          for (const Cell* c : row)
            short_cell =
                short_cell || (c && c->chosen() && c->chosen()->n() < std::size_t(expected));
        if (short_cell)
          t.caption += "; (n/" + R + "): no setting of the cell has all " + R +
                       ", shown is the one with the most (n)";
        t.caption += test_caption(t, a, ki);
        t.caption += protocol_caption(t, ki, a);
        out.push_back(std::move(t));
      }
  return out;
}

namespace {

std::size_t k_index(const Table& t, const Aggregate& a) {
  return static_cast<std::size_t>(std::find(a.k.begin(), a.k.end(), t.k) - a.k.begin());
}

std::string mean_std(const Cell* c, std::size_t ki, const char* pm, const Aggregate& a) {
  const SettingStats* s = c ? c->chosen() : nullptr;
  if (!s) return "-";
  std::string out = fmt(value_format(a), scale(a) * s->mean[ki]);
  if (!std::isnan(s->std[ki])) out += std::string(pm) + fmt(value_format(a), scale(a) * s->std[ki]);
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

std::string latex_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
      case '%':
      case '$':
      case '#':
      case '_':
      case '{':
      case '}':
        out += '\\';
        out += ch;
        break;
      case '~':
        out += "\\textasciitilde{}";
        break;
      case '^':
        out += "\\textasciicircum{}";
        break;
      case '\\':
        out += "\\textbackslash{}";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

}  // namespace

// " (3/4)" when the chosen setting has fewer repeats than configured.
static std::string count_note(const Cell* c, int repeats) {
  const SettingStats* s = c ? c->chosen() : nullptr;
  if (!s || repeats <= 0 || s->n() >= std::size_t(repeats)) return "";
  return " (" + std::to_string(s->n()) + "/" + std::to_string(repeats) + ")";
}

std::string cell_text(const Cell* c, std::size_t ki, const Aggregate& a) {
  std::string s = mean_std(c, ki, " ± ", a) + count_note(c, c ? a.expected(c->dataset) : 0);
  if (c && ki < c->worse.size() && c->worse[ki]) s += " †";
  return s;
}

static bool column_best(const Cell* c, std::size_t ki) {
  return c && ki < c->column_best.size() && c->column_best[ki];
}

std::vector<EarlyStop> early_stops(const Cell& c) {
  std::vector<EarlyStop> out;
  const SettingStats* s = c.chosen();
  if (!s || s->ends.size() != s->n()) return out;
  std::vector<std::uint64_t> its;
  for (const TraceEnd& e : s->ends)
    if (e.iterations > 0) its.push_back(e.iterations);
  if (its.size() < 3) return out;  // too few fits to say what is usual
  std::nth_element(its.begin(), its.begin() + its.size() / 2, its.end());
  const std::uint64_t median = its[its.size() / 2];
  for (std::size_t i = 0; i < s->n(); ++i) {
    const TraceEnd& e = s->ends[i];
    if (e.iterations == 0 || 4 * e.iterations >= median || e.stop_reason.empty() ||
        e.stop_reason == "max_iterations")
      continue;
    out.push_back({s->repeats[i], e.iterations, median, e.stop_reason, s->errors[0][i]});
  }
  return out;
}

namespace {

const std::string kPerPartition = "per partition: ";

// "<label>: " of a pooled row or "per partition: " of a validated cell (whose parts may carry
// labels of their own), split off the setting.
std::string setting_prefix(std::string& rest) {
  std::string prefix;
  for (std::size_t pos; (pos = rest.find(": ")) != std::string::npos &&
                        rest.substr(0, pos).find('=') == std::string::npos;) {
    prefix += rest.substr(0, pos + 2);
    rest.erase(0, pos + 2);
    if (prefix == kPerPartition) break;
  }
  return prefix;
}

std::map<std::string, std::string> setting_values(const std::string& setting) {
  std::map<std::string, std::string> out;
  std::stringstream in(setting);
  for (std::string kv; std::getline(in, kv, ',');) {
    const auto eq = kv.find('=');
    if (eq != std::string::npos) out[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return out;
}

}  // namespace

std::string shown_setting(const Cell& c, const std::string& setting) {
  std::vector<std::map<std::string, std::string>> grid;
  for (std::string g : c.grid) {
    setting_prefix(g);
    grid.push_back(setting_values(g));
  }
  // Only the keys of `one` whose value (or absence) is not the same in every grid setting.
  auto varied = [&](const std::string& one) {
    std::string out;
    std::stringstream in(one);
    for (std::string kv; std::getline(in, kv, ',');) {
      const std::string key = kv.substr(0, kv.find('='));
      std::set<std::string> values;
      for (const auto& g : grid) {
        const auto v = g.find(key);
        values.insert(v == g.end() ? std::string(1, '\0') : v->second);
      }
      if (values.size() > 1) out += (out.empty() ? "" : ",") + kv;
    }
    return out.empty() ? std::string(grid.size() > 1 ? "(defaults)" : "(one setting)") : out;
  };
  // A pooled label alone names a setting of a label without a grid of its own.
  auto labelled = [&](std::string body) {
    const std::string label = setting_prefix(body);
    const std::string shown = varied(body);
    return label.empty() || shown[0] != '(' ? label + shown : label.substr(0, label.size() - 2);
  };
  if (setting.rfind(kPerPartition, 0) != 0) return labelled(setting);
  const std::string rest = setting.substr(kPerPartition.size());
  std::string out;  // "a=1,b=2 in 3; a=1,b=3 in 2": each chosen setting with its partitions
  for (std::size_t from = 0; from <= rest.size();) {
    std::size_t to = rest.find("; ", from);
    if (to == std::string::npos) to = rest.size();
    const std::string part = rest.substr(from, to - from);
    const std::size_t in = part.rfind(" in ");
    out += (out.empty() ? "" : "; ") + labelled(part.substr(0, in)) +
           (in == std::string::npos ? "" : part.substr(in));
    from = to + 2;
  }
  return kPerPartition + out;
}

std::string markdown_columns(const std::vector<std::string>& columns, const std::string& rule) {
  std::string s;
  for (const auto& c : columns) s += " " + c + " |";
  s += "\n|---|";
  for (std::size_t j = 0; j < columns.size(); ++j) s += rule + "|";
  return s + "\n";
}

std::string to_markdown(const Table& t, const Aggregate& a) {
  std::size_t ki = k_index(t, a);
  const bool mixed = t.mixed_protocols();
  std::string s = "**" + t.caption + "**\n\n| method |" + (mixed ? " protocol |" : "");
  for (const auto& col : t.columns) s += " " + col + " |";
  s += " failed |\n|---|" + std::string(mixed ? "---|" : "");
  for (std::size_t j = 0; j < t.columns.size(); ++j) s += "---:|";
  s += "---:|\n";
  bool choices = false;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    s += "| " + t.rows[i] + " |" + (mixed ? " " + t.protocol[i] + " |" : "");
    for (const Cell* c : t.cells[i]) {
      const std::string text = cell_text(c, ki, a);
      s += " " +
           (column_best(c, ki) ? "**" + mean_std(c, ki, " ± ", a) + "**" +
                                     text.substr(mean_std(c, ki, " ± ", a).size())
                               : text) +
           " |";
      if (c && (c->settings.size() > 1 ||
                (c->chosen() && c->chosen()->setting.rfind("per partition: ", 0) == 0)))
        choices = true;
    }
    s += " " + std::to_string(t.failed[i]) + " |\n";
  }
  if (choices) {  // which setting won each cell, for methods that had a grid
    s += a.selection == "validation"
             ? "\nSettings chosen (on the inner validation error, partitions per setting):\n\n| "
               "method |"
             : "\nBest setting (" +
                   (a.metric.empty()
                        ? "lowest mean " + std::to_string(a.k.empty() ? 1 : a.k[0]) + "-NN error"
                        : std::string(a.higher_better ? "highest" : "lowest") + " mean " +
                              k_name(a, a.k.empty() ? 0 : a.k[0])) +
                   "):\n\n| method |";
    s += markdown_columns(t.columns, "---");
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
      s += "| " + t.rows[i] + " |";
      for (const Cell* c : t.cells[i]) {
        const SettingStats* ch = c ? c->chosen() : nullptr;
        s += " " + (ch ? shown_setting(*c, ch->setting) : "-") + " |";
      }
      s += "\n";
    }
  }
  std::string early;
  for (std::size_t i = 0; i < t.rows.size() && a.metric.empty(); ++i)
    for (std::size_t j = 0; j < t.columns.size(); ++j)
      if (const Cell* c = t.cells[i][j])
        for (const EarlyStop& e : early_stops(*c))
          early += "- " + t.rows[i] + ", " + t.columns[j] + ": partition " +
                   std::to_string(e.repeat) + " at iteration " + std::to_string(e.iterations) +
                   " (" + e.stop_reason + "; the setting's median " +
                   std::to_string(e.median_iterations) + "), error " +
                   fmt("%.2f", 100.0 * e.error) + " %\n";
  if (!early.empty())
    s += "\nFits of a chosen setting that stopped early (by a test other than the iteration cap, "
         "at under a quarter of the median iterations of the setting's fits; their errors are "
         "in the means):\n\n" +
         early;
  return s;
}

std::string to_csv(const Table& t, const Aggregate& a) {
  std::size_t ki = k_index(t, a);
  // One header serves every table of a stream (render_tables): the column follows the aggregate.
  const bool mixed = a.protocols().size() > 1;
  std::string s = "dataset,method,split_kind,split_value,dim,k," +
                  std::string(a.metric.empty() ? "mean_error_pct,std_error_pct" : "mean,std") +
                  ",n,setting,p_value,worse,failed,best,reference,test,correction,p_adjusted,"
                  "mean_diff,ci95_low,ci95_high" +
                  (mixed ? ",protocol\n" : "\n");
  for (std::size_t i = 0; i < t.rows.size(); ++i)
    for (std::size_t j = 0; j < t.columns.size(); ++j) {
      const Cell* c = t.cells[i][j];
      if (!c) continue;
      const SettingStats* ch = c->chosen();
      s += csv_field(t.dataset) + "," + csv_field(t.rows[i]) + "," + a.split_kind + "," +
           number(a.split_values[j]) + "," + std::to_string(c->dim) + "," + std::to_string(t.k) +
           ",";
      if (ch) {
        const char* f = a.metric.empty() ? "%.4f" : "%.6g";
        s += fmt(f, scale(a) * ch->mean[ki]) + "," +
             (std::isnan(ch->std[ki]) ? "" : fmt(f, scale(a) * ch->std[ki])) + "," +
             std::to_string(ch->n()) + "," + csv_field(ch->setting) + ",";
      } else {
        s += ",,0,,";
      }
      const TTestResult& tt = c->ttest[ki];
      const bool tested = c->tested(ki) && !std::isnan(tt.p);
      auto diff = [&](double v) {
        return tested && !std::isnan(v) ? fmt(a.metric.empty() ? "%.4f" : "%.6g", scale(a) * v)
                                        : std::string();
      };
      s += (tested ? fmt("%.6g", tt.p) : "") + "," + (c->worse[ki] ? "1" : "0") + "," +
           std::to_string(c->failed) + "," + (column_best(c, ki) ? "1" : "0") + "," +
           csv_field(tested ? c->tested_against[ki] : "") + "," +
           (a.reference.empty() ? "" : a.test) + "," + (a.reference.empty() ? "" : a.correction) +
           "," + (tested ? fmt("%.6g", c->p_adjusted[ki]) : "") + "," + diff(tt.mean_diff) + "," +
           diff(tt.ci_low) + "," + diff(tt.ci_high) + (mixed ? "," + c->protocol : "") + "\n";
    }
  return s;
}

std::string to_latex(const Table& t, const Aggregate& a) {
  std::size_t ki = k_index(t, a);
  const bool mixed = t.mixed_protocols();
  std::string s = "% " + t.caption + "\n\\begin{tabular}{l" + (mixed ? "l" : "") +
                  std::string(t.columns.size(), 'r') + "r}\n\\toprule\nMethod" +
                  (mixed ? " & Protocol" : "");
  for (const auto& col : t.columns) s += " & " + latex_escape(col);
  s += " & failed \\\\\n\\midrule\n";
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    s += latex_escape(t.rows[i]) + (mixed ? " & " + latex_escape(t.protocol[i]) : "");
    for (const Cell* c : t.cells[i]) {
      std::string v = mean_std(c, ki, " \\pm ", a);
      if (v == "-") {
        s += " & --";
        continue;
      }
      if (column_best(c, ki)) v = "\\mathbf{" + v + "}";
      s += " & $" + v + (c->worse[ki] ? "^\\dagger" : "") + "$" +
           count_note(c, c ? a.expected(c->dataset) : 0);
    }
    s += " & " + std::to_string(t.failed[i]) + " \\\\\n";
  }
  s += "\\bottomrule\n\\end{tabular}\n";
  return s;
}

Aggregate filter_aggregate(const Aggregate& a, const AggregateFilter& f) {
  auto list = [](const auto& v) {
    std::string s;
    for (const auto& x : v) {
      std::ostringstream o;
      o << x;
      s += (s.empty() ? "" : ", ") + o.str();
    }
    return s;
  };
  if (f.dataset && std::find(a.datasets.begin(), a.datasets.end(), *f.dataset) == a.datasets.end())
    throw Error("--dataset " + *f.dataset + ": no such dataset in the results (fix: one of " +
                list(a.datasets) + ")");
  if (f.dim && std::find(a.dims.begin(), a.dims.end(), *f.dim) == a.dims.end())
    throw Error("--dim " + std::to_string(*f.dim) + ": no task has this dim (fix: one of " +
                list(a.dims) + "; 0 = methods without a latent dimension)");
  if (f.k && std::find(a.k.begin(), a.k.end(), *f.k) == a.k.end())
    throw Error("--k " + std::to_string(*f.k) + ": the run did not evaluate this k (fix: one of " +
                list(a.k) + ")");
  Aggregate out = a;
  std::vector<std::size_t> keep_k;
  out.k.clear();
  for (std::size_t ki = 0; ki < a.k.size(); ++ki)
    if (!f.k || a.k[ki] == *f.k) {
      keep_k.push_back(ki);
      out.k.push_back(a.k[ki]);
    }
  auto pick = [&](const auto& v) {
    std::remove_cv_t<std::remove_reference_t<decltype(v)>> r;
    for (std::size_t ki : keep_k)
      if (ki < v.size()) r.push_back(v[ki]);
    return r;
  };
  out.cells.clear();
  for (const Cell& c : a.cells) {
    if ((f.dataset && c.dataset != *f.dataset) || (f.dim && c.dim != *f.dim)) continue;
    Cell n = c;
    n.ttest = pick(c.ttest);
    n.worse = pick(c.worse);
    n.p_adjusted = pick(c.p_adjusted);
    n.column_best = pick(c.column_best);
    n.tested_against = pick(c.tested_against);
    for (auto& st : n.settings) {
      st.errors = pick(st.errors);
      st.mean = pick(st.mean);
      st.std = pick(st.std);
    }
    out.cells.push_back(std::move(n));
  }
  if (f.dataset) out.datasets = {*f.dataset};
  if (f.dim) out.dims = {*f.dim};
  return out;
}

std::string to_long_csv(const Aggregate& a, bool all_settings, bool details) {
  const bool mixed = a.protocols().size() > 1;
  std::string s =
      "dataset,method,split_kind,split_value,dim,k," +
      std::string(a.metric.empty() ? "mean_error_pct,std_error_pct" : "mean,std") +
      ",n,repeats,p_value,worse,setting,chosen,failed" +
      (details ? ",pairs,t,mean_diff,fit_seconds,ci95_low,ci95_high,p_adjusted,reference" : "") +
      (mixed ? ",protocol\n" : "\n");
  // Scripts that format the numbers themselves get them whole: rounding twice can move a digit.
  const char* value = details ? "%.17g" : a.metric.empty() ? "%.4f" : "%.6g";
  const char* stat = details ? "%.17g" : "%.6g";
  auto opt_number = [](const char* f, double v) {
    return std::isnan(v) ? std::string() : fmt(f, v);
  };
  for (const auto& ds : a.datasets)
    for (const auto& label : a.labels)
      for (double sv : a.split_values)
        for (auto dim : a.dims) {
          const Cell* c = a.find(ds, label, sv, dim);
          if (!c) continue;
          for (std::size_t ki = 0; ki < a.k.size(); ++ki)
            for (std::size_t si = 0; si < c->settings.size() || (si == 0 && c->best < 0); ++si) {
              const bool chosen = int(si) == c->best;
              if (!all_settings && !chosen && c->best >= 0) continue;
              const SettingStats* st = si < c->settings.size() ? &c->settings[si] : nullptr;
              s += csv_field(ds) + "," + csv_field(label) + "," + a.split_kind + "," + number(sv) +
                   "," + std::to_string(dim) + "," + std::to_string(a.k[ki]) + ",";
              if (st)
                s += fmt(value, scale(a) * st->mean[ki]) + "," +
                     (std::isnan(st->std[ki]) ? "" : fmt(value, scale(a) * st->std[ki])) + "," +
                     std::to_string(st->n());
              else
                s += ",,0";
              s += "," + std::to_string(a.expected(ds)) + ",";
              const bool tested = chosen && c->tested(ki) && !std::isnan(c->ttest[ki].p);
              s += (tested ? fmt(stat, c->ttest[ki].p) : "") + "," +
                   (chosen && c->worse[ki] ? "1" : "0") + "," + csv_field(st ? st->setting : "") +
                   "," + (chosen ? "1" : "0") + "," + std::to_string(c->failed);
              if (details) {
                const bool paired = chosen && ki < c->ttest.size() && c->ttest[ki].n > 0;
                const TTestResult none{0, std::nan(""), std::nan(""), std::nan("")};
                const TTestResult& tt = paired ? c->ttest[ki] : none;
                s += "," + std::to_string(tt.n) + "," + opt_number(stat, tt.t) + "," +
                     opt_number(value, scale(a) * tt.mean_diff) + "," +
                     (st ? opt_number(stat, mean(st->fit_seconds)) : std::string()) + "," +
                     opt_number(value, scale(a) * tt.ci_low) + "," +
                     opt_number(value, scale(a) * tt.ci_high) + "," +
                     (paired ? opt_number(stat, c->p_adjusted[ki]) : std::string()) + "," +
                     csv_field(paired ? c->tested_against[ki] : "");
              }
              s += (mixed ? "," + c->protocol : "") + "\n";
            }
        }
  return s;
}

namespace {
// A run holds an exclusive flock on <path>.lock while it writes (store.cpp, lock_output).
bool run_writing(const std::string& path) {
  const int fd = ::open((path + ".lock").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return held;
}
}  // namespace

void write_tables(const std::string& path, const Aggregate& a) {
  // A journal stays (as a bare header) after a run that left the file incomplete, such as a
  // finished --only slice: only a journal with results the file lacks, or a run holding the
  // lock, means the file is not final.
  if (run_writing(path))
    throw Error(path + ": a run is still writing this file (" + path +
                ".lock is held); let it finish before storing tables (printing them with "
                "--no-store works meanwhile)");
  if (std::filesystem::exists(path + ".journal")) {
    const JournalContents j = read_journal(path + ".journal");
    if (j.valid > j.base)
      throw Error(path + ": the run writing this file was interrupted before saving " +
                  std::to_string(j.results.size()) + " task(s) into it (they are in " + path +
                  ".journal); rerun the same command to recover them, then aggregate");
  }
  if (!a.incomplete.empty())
    throw Error(path + ": " + a.incomplete +
                "; tables are stored only in a finished file (print them with --no-store)");
  auto tables = make_tables(a);
  replace_atomically(path, [&](const std::string& tmp) {
    std::filesystem::copy_file(path, tmp, std::filesystem::copy_options::overwrite_existing);
    h5::Quiet quiet;
    h5::File f = h5::open_file(tmp, true);
    if (h5::exists(f.h, "tables") && H5Ldelete(f.h, "tables", H5P_DEFAULT) < 0)
      throw Error(path + ": cannot replace the old /tables group");
    h5::Handle g = h5::create_group(f, f.h, "tables");
    for (const auto& t : tables) {
      h5::write_string(f, g, t.name + ".md", to_markdown(t, a));
      h5::write_string(f, g, t.name + ".csv", to_csv(t, a));
      h5::write_string(f, g, t.name + ".tex", to_latex(t, a));
    }
    h5::attr_string(f, g, "reference", a.reference);
    h5::attr_string(f, g, "test", a.test);
    h5::attr_string(f, g, "correction", a.correction);
    if (f.h.close() < 0) throw Error(path + ": cannot finish writing the tables (disk full?)");
  });
}

}  // namespace drbench
