#pragma once
// From task rows to the published kind of table: mean +/- std of the kNN error over repeated
// partitions, the best setting per (dataset, method label, split value, dim) cell, and paired
// t-tests against a reference method.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "framework/results/reader.hpp"
#include "framework/results/stats.hpp"

namespace drbench {

// One hyperparameter setting within a cell, over its successful repeats.
struct SettingStats {
  std::string setting;                      // canonical "a=1,b=rbf"
  std::vector<std::uint64_t> split_seeds;   // one per successful repeat (pairs repeats in t-tests)
  std::vector<std::vector<double>> errors;  // [k index][repeat], fractions
  std::vector<double> mean, std;            // per k, fractions; std is the sample std (n-1)
  std::vector<int> repeats;                 // the partition index of each successful repeat
  std::vector<TraceEnd> ends;               // where each repeat's optimiser ended
  std::vector<double> fit_seconds;          // one per successful repeat
  std::size_t n() const { return split_seeds.size(); }
};

struct Cell {
  std::string dataset, label;
  std::string protocol;  // "holdout" or "transductive": every task of a cell shares it
  double split_value = 0.0;
  std::uint64_t dim = 0;
  std::vector<SettingStats> settings;  // settings with at least one successful task, by name
  // Every setting the cell's grid ran (failed and inner validation tasks too), for the list under
  // the .md table that shows only the parameters the grid varied (shown_setting).
  std::vector<std::string> grid;
  // Index of the chosen setting; -1 when every task failed. Only settings with a result on every
  // configured repeat compete; when none has, those with the most repeats do (and the cell shows
  // its count).
  int best = -1;
  std::size_t failed = 0;          // failed tasks in this cell, all settings together
  std::vector<TTestResult> ttest;  // per k: best setting vs the reference's best (n < 2: none)
  std::vector<double> p_adjusted;  // per k: ttest's p after the table's correction (NaN: none)
  std::vector<bool> worse;         // per k: significantly worse than the reference (adjusted p)
  std::vector<bool> column_best;   // per k: the best mean of its column (printed bold)
  std::vector<std::string> tested_against;  // per k: the reference's label ("" untested)
  // The reference cell the test used: the same dim, else the reference's only dim for this
  // dataset and split value (e.g. 0, the input-space table).
  std::uint64_t reference_dim = 0;
  bool tested(std::size_t ki) const { return ki < ttest.size() && ttest[ki].n >= 2; }
  const SettingStats* chosen() const { return best < 0 ? nullptr : &settings[best]; }
};

// `setting` (a chosen setting's text: "a=1,b=2", "<label>: a=1", "per partition: a=1 in 3; a=2
// in 2") with only the parameters whose value differs between the settings of c.grid (the grid
// axes; the rest every task shared). "(one setting)" when the grid varied nothing.
std::string shown_setting(const Cell& c, const std::string& setting);

// A pooling rule: every dataset (or method label) whose name matches `pattern` ('*' matches any
// run of characters, e.g. "oil_*") is tabulated under `name`. Pooled datasets make one cell of
// several data sets' results (subsamples of one data set: a cell's repeats are then its draws x
// partitions); pooled labels make one cell whose settings are "<label>: <setting>", so the best
// setting is the best label too (the best of several kernels). docs/results-format.md, "Pooled
// tables".
struct PoolRule {
  std::string pattern, name;
};
// "oil_*=oil,swiss_*=swiss" -> rules; Error naming `option` on a malformed one.
std::vector<PoolRule> parse_pool_rules(const std::string& text, const std::string& option);
bool pool_matches(const std::string& pattern, const std::string& name);

// The reference that tests each cell against the best cell of its column (the papers' bold),
// as --ttest best names it.
inline const std::string kBestOfColumn = "best of column";

struct AggregateOptions {
  // Label the tests compare against. nullopt: the file's ttest_reference, and when the file
  // names none, kBestOfColumn; "": no tests.
  std::optional<std::string> reference;
  double alpha = 0.05;
  std::string test = "ttest";  // "ttest" (paired t-test) or "wilcoxon" (signed-rank)
  // "none" or "holm" (over the comparisons of each table). nullopt: "none" when the reference is
  // the file's ttest_against (the seed papers' per-cell tests, so their committed tables
  // reproduce), else "holm".
  std::optional<std::string> correction;
  // The measure tabulated: "" for the kNN error, else a quality measure stored in the file
  // (rnx_auc, trustworthiness, ...): its values replace the errors everywhere below, per K where
  // it has one (k then lists the Ks), selection and t-tests following its direction.
  std::string metric;
  // Applied to each task row before cells are formed (the first matching rule wins).
  std::vector<PoolRule> pool_datasets, pool_labels;
};

struct Aggregate {
  std::vector<int> k;  // kNN k, or the metric's K ({0} for a measure without K)
  std::string metric;  // "" = kNN error (fractions, printed in percent)
  bool higher_better = false;
  std::string knn_metric = "euclidean";
  std::string split_kind;
  std::string reference;                            // "" when no tests were made, or kBestOfColumn
  std::string test = "ttest", correction = "holm";  // as AggregateOptions resolved them
  int halving_repeats = 0, halving_keep = 0;        // as in the results file
  // The selection rule of the run (ResultsFile::selection): "min_mean_error" (the oracle: each
  // cell's setting with the lowest mean test error) or "validation" (each partition's setting
  // chosen by its inner validation error; a cell's SettingStats then gathers the chosen setting's
  // result of every partition, its `setting` naming the choices and how often each was made).
  std::string selection = "min_mean_error";
  int validation_folds = 0;
  double validation_fraction = 0.0;
  int repeats = 0;  // configured partitions per split value
  // Set when the run that wrote the file has not finished (stopped, killed or still going): one
  // sentence saying how much is there, printed above the tables; empty for a finished run.
  std::string incomplete;
  std::vector<std::string> sources;  // the files pooled into it, when several (combine.hpp)
  double alpha = 0.05;
  std::vector<std::string> datasets, labels;  // config order
  std::vector<double> split_values;           // ascending
  std::vector<std::uint64_t> dims;            // ascending
  std::vector<Cell> cells;
  // Pooled dataset name -> the data sets pooled under it, in config order.
  std::map<std::string, std::vector<std::string>> pooled;
  // Results a complete setting of a cell of `dataset` has: repeats x its pooled data sets.
  int expected(const std::string& dataset) const;
  const Cell* find(const std::string& dataset, const std::string& label, double split_value,
                   std::uint64_t dim) const;
  // The distinct protocols of the cells, in order of first appearance; more than one: the tables
  // carry a protocol column, one: their captions name it.
  std::vector<std::string> protocols() const;
};

// Groups the ok rows by (dataset, label, split value, dim, setting) (a cell's rows share a
// protocol: labels of different protocols pooled into one are refused); selection is min_mean_error
// on the first k (the best mean in the metric's direction with --metric). Throws Error when the
// reference label is not in the file.
Aggregate aggregate(const ResultsFile& f, const AggregateOptions& opt = {});

// (Re)runs the paired tests (a.test) of every cell against a.reference's best setting ("" for
// none; kBestOfColumn: the best cell of the cell's column at each k), corrects their p-values per
// table (a.correction over the tested cells of one dataset, dim and k) and marks each column's
// best cell.
void run_ttests(Aggregate& a);

// The correction a table gets when none is asked for: "none" for the reference a config names
// (reproducing the papers' uncorrected tests), "holm" otherwise. Throws Error on an unknown
// test or correction, naming the option.
void resolve_test_options(Aggregate& a, const AggregateOptions& opt, bool reference_from_file);

// A fit of a cell's chosen setting that stopped by a test other than its iteration budget at
// under a quarter of the median iterations of the setting's fits. A tolerance test met on a stalled
// step (Netlab's scg after a run of rejected steps) looks like convergence, and the fit's error
// still enters the mean; the markdown tables list such fits under the table.
struct EarlyStop {
  int repeat = 0;
  std::uint64_t iterations = 0, median_iterations = 0;
  std::string stop_reason;
  double error = 0.0;  // at the first k, fraction
};
std::vector<EarlyStop> early_stops(const Cell& c);

// One table per dataset x k (x dim when the experiment has several): rows are method labels,
// columns split values; cells "mean ± std" in percent.
struct Table {
  std::string name;  // "usps_k1", "usps_k1_d9"
  std::string dataset;
  int k = 1;
  std::uint64_t dim = 0;
  bool several_dims = false;
  std::string caption;
  std::vector<std::string> columns;  // "per_class=5", ...
  std::vector<std::string> rows;     // labels
  // [row][column], pointing into the Aggregate the table was made from; nullptr when absent.
  std::vector<std::vector<const Cell*>> cells;
  std::vector<std::size_t> failed;  // per row, failed tasks in the table
  // Per row, its cells' protocol ("holdout+transductive" where cells of one label differ).
  std::vector<std::string> protocol;
  bool mixed_protocols() const;
};

std::vector<Table> make_tables(const Aggregate& a);

// "12.34 ± 1.56" (+ " (3/4)" when fewer repeats than configured, + " †" when worse); a quality
// metric's cell as "0.8123 ± 0.0040".
std::string cell_text(const Cell* c, std::size_t k_index, const Aggregate& a);
std::string to_markdown(const Table& t, const Aggregate& a);
// The rest of a markdown table's header after its first column's name: " c |" per column, then
// the rule row, "---" under the first column and `rule` ("---", or "---:" to right-align) under
// each of the others.
std::string markdown_columns(const std::vector<std::string>& columns, const std::string& rule);
// Long format, one line per cell: numbers a script can read without parsing "±".
std::string to_csv(const Table& t, const Aggregate& a);
std::string to_latex(const Table& t, const Aggregate& a);

// Restricts an aggregate to one dataset, dim and/or k (unset: all), keeping each cell's chosen
// setting (selection always uses the first configured k). Throws Error naming the file's values
// when a filter matches nothing.
struct AggregateFilter {
  std::optional<std::string> dataset;
  std::optional<std::uint64_t> dim;
  std::optional<int> k;
};
Aggregate filter_aggregate(const Aggregate& a, const AggregateFilter& f);

// One tidy table for pandas/R: a header, then one line per (cell, k) with the chosen setting, or
// per (cell, setting, k) with all_settings (column `chosen` = 1 on the reported one). Columns:
// dataset, method, split_kind, split_value, dim, k, mean_error_pct, std_error_pct, n, repeats,
// p_value, worse, setting, chosen, failed. With details, more: pairs, t and mean_diff (the
// paired test of a chosen setting against the reference: pairs used, t statistic (Wilcoxon: W),
// mean of this minus the reference over the pairs, in the table's unit), fit_seconds (mean fit
// wall time of the setting's successful tasks), then ci95_low, ci95_high (the paired t interval
// of mean_diff), p_adjusted (after the table's correction) and reference (the label tested
// against).
std::string to_long_csv(const Aggregate& a, bool all_settings, bool details = false);

// Stores every table as /tables/<name>.md, .csv and .tex in the results file, replacing earlier
// tables and keeping everything else: the file is copied, edited and renamed over the original,
// so it is never half-written. Refuses while <path>.journal exists (a run is still writing it).
void write_tables(const std::string& path, const Aggregate& a);

}  // namespace drbench
