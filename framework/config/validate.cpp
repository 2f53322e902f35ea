#include "framework/config/validate.hpp"

#include "framework/core/keywords.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string_view>
#include <unordered_set>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/data/preprocess.hpp"
#include "framework/data/split.hpp"
#include "framework/eval/coranking.hpp"

namespace drbench {

DataShape train_shape(const SplitsSpec& splits, double value, const DataShape& full) {
  DataShape s = full;
  switch (splits.kind) {
    case SplitsSpec::Kind::PerClass: {
      const auto per_class = static_cast<arma::uword>(value);
      const arma::uword classes = full.n_classes > 0 ? full.n_classes : 1;
      s.n = std::min(full.n, per_class * classes);
      break;
    }
    case SplitsSpec::Kind::Ratio:
      s.n =
          std::max<arma::uword>(1, static_cast<arma::uword>(std::llround(value * double(full.n))));
      break;
    case SplitsSpec::Kind::Own:
    case SplitsSpec::Kind::All:
      break;
  }
  return s;
}

DataShape scale_to_split(const SplitsSpec& splits, double value, const DataShape& smallest) {
  DataShape s = smallest;
  if (splits.values.empty() || splits.kind == SplitsSpec::Kind::Own ||
      splits.kind == SplitsSpec::Kind::All)
    return s;
  const double lo = *std::min_element(splits.values.begin(), splits.values.end());
  if (lo > 0) s.n = static_cast<arma::uword>(std::llround(double(smallest.n) * value / lo));
  return s;
}

// Which quantity of the data the limit equals, so the message says why and not just how much.
static std::string limit_reason(arma::uword limit, const DataShape& s) {
  if (s.n_classes > 0 && limit == s.n_classes - 1) return "C-1 = ";
  const bool by_n = s.n > 0 && limit == s.n - 1, by_d = limit == s.d;
  if (by_n && by_d) return "min(n-1, d) = ";
  if (by_n) return "n-1 = ";
  if (by_d) return "d = ";
  return "";
}

std::vector<std::string> setting_advice(const Experiment& ex,
                                        const std::vector<DataShape>& shapes) {
  std::vector<std::string> out;
  for (const MethodSpec& m : ex.methods) {
    const MethodInfo& info = Registry::instance().get(m.method);
    if (!info.advise) continue;
    const bool holdout = !m.transductive();
    const auto settings = expand_grid(m);
    for (std::size_t di = 0; di < shapes.size() && di < ex.datasets.size(); ++di) {
      DataShape s = shapes[di];
      s.n_test = holdout ? std::max<arma::uword>(1, s.n) : 0;
      for (const ParamSet& setting : settings)
        if (std::string remark = info.advise(s, setting); !remark.empty()) {
          out.push_back(m.label + " on " + ex.datasets[di].name + ": " + remark);
          break;
        }
    }
  }
  return out;
}

std::string selection_advice(const Experiment& ex) {
  if (ex.evaluation.validated()) return "";
  std::string grids;
  for (const MethodSpec& m : ex.methods)
    if (const std::size_t n = expand_grid(m).size(); n > 1)
      grids += (grids.empty() ? "" : ", ") + m.label + " (" + std::to_string(n) + " settings)";
  if (grids.empty()) return "";
  return "evaluation.selection is min_mean_error: the setting of " + grids +
         " is chosen on the test error it reports, so those errors are optimistic (fix: "
         "evaluation: {selection: validation}, which chooses each partition's setting on inner "
         "splits of its training points; keep min_mean_error only to reproduce a paper that chose "
         "so)";
}

void validate_against_data(const Experiment& ex, const std::vector<DataShape>& shapes) {
  if (shapes.size() != ex.datasets.size())
    throw Error("internal: validate_against_data got " + std::to_string(shapes.size()) +
                " shapes for " + std::to_string(ex.datasets.size()) + " datasets");
  for (std::size_t mi = 0; mi < ex.methods.size(); ++mi) {
    const MethodSpec& m = ex.methods[mi];
    const MethodInfo& info = Registry::instance().get(m.method);
    const auto settings = expand_grid(m);
    for (std::size_t di = 0; di < ex.datasets.size(); ++di) {
      const DataShape& s = shapes[di];
      for (const auto& setting : settings) {
        const arma::uword limit = info.dim_limit(s, setting);
        if (limit == arma::uword(-1)) continue;
        const bool own = &task_dims(ex, di, mi) == &m.dims;
        for (std::uint64_t dim : task_dims(ex, di, mi)) {
          if (dim <= limit) continue;
          std::string problem = m.method + " allows at most " + limit_reason(limit, s) +
                                std::to_string(limit) + " dimensions on " + ex.datasets[di].name +
                                " (n=" + std::to_string(s.n) +
                                " training points, d=" + std::to_string(s.d) +
                                ", C=" + std::to_string(s.n_classes) + ")";
          if (!m.grid.empty()) problem += " for setting {" + setting.canonical() + "}";
          problem += ", but dims asks for " + std::to_string(dim);
          if (!own)
            throw ConfigError(ex.file, ex.datasets[di].dims_line,
                              "datasets[" + std::to_string(di) + "].dims", problem,
                              "use dims <= " + std::to_string(limit) + " for " +
                                  ex.datasets[di].name + ", or drop '" + m.label + "'");
          throw ConfigError(ex.file, m.dims_line, "methods[" + std::to_string(mi) + "].dims",
                            problem,
                            "use dims <= " + std::to_string(limit) + " for '" + m.label +
                                "', or give " + ex.datasets[di].name + " its own dims (datasets[" +
                                std::to_string(di) + "].dims)");
        }
      }
    }
  }
}

namespace {

// The config key of a split kind: splits.train_per_class, splits.train_ratio, splits.own,
// splits.all.
std::string split_key(const SplitsSpec& s) {
  const bool train = s.kind == SplitsSpec::Kind::PerClass || s.kind == SplitsSpec::Kind::Ratio;
  return std::string(train ? "splits.train_" : "splits.") + split_kind_name(s.kind);
}

std::string value_text(const SplitsSpec& s, double v) {
  return s.kind == SplitsSpec::Kind::PerClass || s.kind == SplitsSpec::Kind::Ratio
             ? " " + to_string(ParamValue(v))
             : "";
}

// The graph-size parameters of the methods: the current name and the one older methods use.
bool is_neighbours_param(const ParamSpec& p) {
  return p.type == ParamType::Int && (p.name == "neighbours" || p.name == "k");
}

}  // namespace

void check_data_path(const Experiment& ex) {
  if (ex.data_path.empty()) return;
  std::error_code ec;
  if (!std::filesystem::is_directory(ex.data_path, ec)) {
    // Configs written when data_path was relative to the current directory: say how to mend.
    const std::string given =
        std::filesystem::path(ex.data_path)
            .lexically_relative(std::filesystem::path(ex.file).parent_path().lexically_normal())
            .string();
    const bool old_meaning =
        !given.empty() && given != ex.data_path && std::filesystem::is_directory(given, ec);
    throw ConfigError(
        ex.file, ex.data_path_line, "data_path",
        "directory '" + ex.data_path + "' does not exist (data_path is relative to the config's " +
            "directory)" +
            (old_meaning ? "; '" + given +
                               "' exists relative to the current directory, which earlier "
                               "drbench versions used"
                         : std::string()),
        old_meaning ? "data_path: " + std::filesystem::absolute(given).string() +
                          " (or a path relative to the config's directory)"
                    : "give the directory that holds the datasets, or remove data_path to "
                      "search $DRBENCH_DATA and ../shared/datasets");
  }
}

// The warnings the dense and sparse checks below share: all n points the same, or `duplicates`
// of them repeating another point (when over a tenth).
static void warn_identical_points(const std::string& on, arma::uword n, bool all_zero) {
  std::fprintf(stderr,
               "[drbench] warning: %s has no information: its %llu points are identical (every "
               "feature is constant%s), so every distance is 0 and each kNN error only shows "
               "how ties are broken (fix: check the file and its columns)\n",
               on.c_str(), static_cast<unsigned long long>(n), all_zero ? ", all zero" : "");
}

static void warn_duplicate_points(const std::string& on, std::size_t duplicates, arma::uword n) {
  if (10 * duplicates > n)
    std::fprintf(stderr,
                 "[drbench] warning: %s: %zu of its %llu points repeat another point exactly; "
                 "kNN votes among equal distances are ties, broken by the order of the points "
                 "(fix: check the file, or remove the duplicates)\n",
                 on.c_str(), duplicates, static_cast<unsigned long long>(n));
}

// Data that carry little or no information: every point the same, constant features, many
// duplicate points. Their tables are tie-breaking artefacts (a kNN vote among equal distances),
// so validate and run say so; the run still goes ahead.
static void warn_uninformative(const std::string& on, const arma::mat& X) {
  if (X.n_cols < 2 || X.n_rows == 0) return;
  const arma::uvec constant = arma::find(arma::max(X, 1) == arma::min(X, 1));
  if (constant.n_elem == X.n_rows) {
    warn_identical_points(on, X.n_cols, arma::all(arma::vectorise(X) == 0));
    return;
  }
  if (constant.n_elem > 0)
    std::fprintf(stderr,
                 "[drbench] note: %s has %llu constant feature(s) of %llu; they carry no "
                 "information (standardize leaves them at 0)\n",
                 on.c_str(), static_cast<unsigned long long>(constant.n_elem),
                 static_cast<unsigned long long>(X.n_rows));
  // By a hash of each point's bytes (a collision only adds a false duplicate to a warning).
  std::unordered_set<std::size_t> seen;
  std::size_t duplicates = 0;
  for (arma::uword j = 0; j < X.n_cols; ++j)
    duplicates +=
        !seen.insert(std::hash<std::string_view>{}(std::string_view(
                         reinterpret_cast<const char*>(X.colptr(j)), X.n_rows * sizeof(double))))
             .second;
  warn_duplicate_points(on, duplicates, X.n_cols);
}

namespace {

// A per-class or ratio split must leave every class test points.
void check_test_classes(const Experiment& ex, const std::string& on, const Dataset& ds,
                        const Partition& p, double v) {
  const SplitsSpec& sp = ex.splits;
  if (sp.kind != SplitsSpec::Kind::PerClass && sp.kind != SplitsSpec::Kind::Ratio) return;
  arma::uvec test_count(ds.n_classes, arma::fill::zeros);
  for (arma::uword j : p.test) ++test_count(ds.y(j));
  for (arma::uword c = 0; c < ds.n_classes; ++c)
    if (test_count(c) == 0)
      throw ConfigError(ex.file, sp.line, split_key(sp),
                        on + ": split value" + value_text(sp, v) + " puts every point of class " +
                            std::to_string(c) + " into the training set, leaving it no test points",
                        "lower the split value so each class keeps test points");
}

// The kNN k and the quality measures' K against the points they vote and rank among.
void check_scored_points(const Experiment& ex, const std::string& on, const Dataset& ds,
                         const Partition& p, double v, bool transductive) {
  const SplitsSpec& sp = ex.splits;
  const EvaluationSpec& ev = ex.evaluation;
  const bool loo = sp.kind == SplitsSpec::Kind::All;
  // The points kNN votes among: the training points, or all others for leave-one-out.
  const arma::uword voters = loo ? ds.n() - 1 : p.train.n_elem;
  const int kmax = *std::max_element(ev.knn.begin(), ev.knn.end());
  if (arma::uword(kmax) > voters)
    throw ConfigError(ex.file, ev.knn_line, "evaluation.knn",
                      "k = " + std::to_string(kmax) + " exceeds the " + std::to_string(voters) +
                          (loo ? " other points of " : " training points of ") + on +
                          " at split value" + value_text(sp, v),
                      "use k <= " + std::to_string(voters) + ", or a larger training set");
  // The quality measures rank among the test points (holdout) or among all embedded points
  // (transductive, leave-one-out).
  const arma::uword scored =
      loo ? ds.n() : (transductive ? p.train.n_elem + p.test.n_elem : p.test.n_elem);
  const std::string among = loo || transductive ? " embedded points" : " test points";
  bool per_k = false;
  for (const auto& q : ev.quality) per_k = per_k || find_quality_measure(q)->per_k;
  const int qk = ev.quality_k.empty() ? 0 : ev.quality_k.back();
  if (per_k && 2 * arma::uword(qk) >= scored)
    throw ConfigError(ex.file, ev.quality_k_line, "evaluation.quality_k",
                      "K = " + std::to_string(qk) + " needs more than " + std::to_string(2 * qk) +
                          among + ", but " + on + " has " + std::to_string(scored) + among +
                          " at split value" + value_text(sp, v),
                      "use K < " + std::to_string((scored + 1) / 2));
  if (!ev.quality.empty() && scored < 4)
    throw ConfigError(ex.file, ev.line, "evaluation.quality",
                      "the quality measures need at least 4" + among + ", but " + on + " has " +
                          std::to_string(scored) + " at split value" + value_text(sp, v),
                      "use a larger test set, or drop evaluation.quality");
}

// The line of a method's grid axis for `param`, else the method's own line.
int grid_line(const MethodSpec& m, const std::string& param) {
  int line = m.line;
  for (const auto& axis : m.grid)
    if (axis.param == param) line = axis.line;
  return line;
}

// Every method's neighbour counts stay below, and a landmark count (landmark Isomap) may reach
// but not pass, the points it is fitted on.
void check_fit_sizes(const Experiment& ex, const std::string& on, const Partition& p, double v) {
  const SplitsSpec& sp = ex.splits;
  const arma::uvec joint = arma::join_cols(p.train, p.test);
  for (std::size_t mi = 0; mi < ex.methods.size(); ++mi) {
    const MethodSpec& m = ex.methods[mi];
    const MethodInfo& info = Registry::instance().get(m.method);
    const arma::uvec& fit = m.transductive() ? joint : p.train;
    for (const auto& ps : info.params) {
      if (!is_neighbours_param(ps)) continue;
      for (const auto& setting : expand_grid(m)) {
        const std::int64_t nb = setting.integer(ps.name);
        if (nb < std::int64_t(fit.n_elem)) continue;
        throw ConfigError(
            ex.file, grid_line(m, ps.name), "methods[" + std::to_string(mi) + "].grid." + ps.name,
            m.label + ": " + ps.name + " = " + std::to_string(nb) + " is not below the " +
                std::to_string(fit.n_elem) + " points it is fitted on (" + on + ", split value" +
                value_text(sp, v) + ")",
            "use " + ps.name + " < " + std::to_string(fit.n_elem));
      }
    }
  }
  for (std::size_t mi = 0; mi < ex.methods.size(); ++mi) {
    const MethodSpec& m = ex.methods[mi];
    const MethodInfo& info = Registry::instance().get(m.method);
    static const IntKey landmarks = keywords::landmarks(0, "");  // read by name and type only
    if (!info.param(landmarks.name())) continue;
    const arma::uvec& fit = m.transductive() ? joint : p.train;
    for (const auto& setting : expand_grid(m)) {
      const std::int64_t l = landmarks(setting);
      if (l <= std::int64_t(fit.n_elem)) continue;
      throw ConfigError(ex.file, grid_line(m, "landmarks"),
                        "methods[" + std::to_string(mi) + "].grid.landmarks",
                        m.label + ": landmarks = " + std::to_string(l) + " exceeds the " +
                            std::to_string(fit.n_elem) + " points it is fitted on (" + on +
                            ", split value" + value_text(sp, v) + ")",
                        "use landmarks <= " + std::to_string(fit.n_elem) + " (0 = full Isomap)");
    }
  }
}

}  // namespace

// The sparse counterpart: all points zero, features zero in every point, repeated points.
static void warn_uninformative_sparse(const std::string& on, const arma::sp_mat& X) {
  if (X.n_cols < 2 || X.n_rows == 0) return;
  if (X.n_nonzero == 0) {
    warn_identical_points(on, X.n_cols, true);
    return;
  }
  std::vector<char> used(X.n_rows, 0);
  for (arma::uword p = 0; p < X.n_nonzero; ++p) used[X.row_indices[p]] = 1;
  const auto zero = std::count(used.begin(), used.end(), 0);
  if (zero > 0)
    std::fprintf(stderr,
                 "[drbench] note: %s has %lld feature(s) of %llu that are zero in every point; "
                 "they carry no information\n",
                 on.c_str(), static_cast<long long>(zero),
                 static_cast<unsigned long long>(X.n_rows));
  std::unordered_set<std::size_t> seen;
  std::size_t duplicates = 0;
  for (arma::uword j = 0; j < X.n_cols; ++j) {
    const arma::uword b = X.col_ptrs[j], e = X.col_ptrs[j + 1];
    const std::size_t h1 = std::hash<std::string_view>{}(std::string_view(
        reinterpret_cast<const char*>(X.row_indices + b), (e - b) * sizeof(arma::uword)));
    const std::size_t h2 = std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char*>(X.values + b), (e - b) * sizeof(double)));
    duplicates += !seen.insert(h1 * 31 + h2).second;
  }
  warn_duplicate_points(on, duplicates, X.n_cols);
}

// The dimension a chain gives sparse points without running it where it would densify them
// (the memory check refuses that block up front when it does not fit): the last pca's
// components, or for a variance rule at most n - 1 (an upper bound).
static arma::uword sparse_chain_dim(const std::vector<PreprocStep>& chain, arma::uword d,
                                    arma::uword n) {
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    if (it->kind == PreprocStep::Kind::Pca)
      return it->components > 0 ? arma::uword(it->components)
                                : std::min<arma::uword>(d, n > 0 ? n - 1 : 0);
  return d;
}

DataShape check_dataset(const Experiment& ex, std::size_t di, const Dataset& ds) {
  const DatasetSpec& spec = ex.datasets.at(di);
  const SplitsSpec& sp = ex.splits;
  // The quality measures rank among the fewest points any method's protocol scores.
  const bool transductive = std::all_of(ex.methods.begin(), ex.methods.end(),
                                        [](const MethodSpec& m) { return m.transductive(); });
  const std::string on = "dataset '" + spec.name + "'";
  if (ds.n_classes == 1)
    std::fprintf(stderr,
                 "[drbench] warning: %s is one class (a single sequence): its kNN errors are 0 "
                 "by construction; run it for its embeddings, not its table\n",
                 on.c_str());
  if (ds.sparse())
    warn_uninformative_sparse(on, ds.Xs);
  else
    warn_uninformative(on, ds.X);
  DataShape smallest{};
  bool first = true;
  const std::vector<double> values = sp.values.empty() ? std::vector<double>{0.0} : sp.values;
  for (double v : values) {
    Partition p;
    try {
      p = make_partition(ds, sp, v, hash_seed(sp.seed, "check"));
    } catch (const DataError& e) {
      throw ConfigError(ex.file, sp.line, split_key(sp), e.what(),
                        "choose split values every class of " + spec.name + " can satisfy");
    }
    check_test_classes(ex, on, ds, p, v);
    check_scored_points(ex, on, ds, p, v, transductive);
    check_fit_sizes(ex, on, p, v);
    Pipeline pipe(spec.preprocess);
    const arma::uword d = !ds.sparse() ? pipe.fit_apply(ds.X.cols(p.train)).n_rows
                          : Pipeline::sparse_runs(spec.preprocess)
                              ? pipe.fit_apply(arma::sp_mat(ds.Xs.cols(p.train))).n_rows
                              : sparse_chain_dim(spec.preprocess, ds.d(), p.train.n_elem);
    // The fewest points a method is fitted on: the training points where any method holds out.
    const arma::uvec joint = arma::join_cols(p.train, p.test);
    const arma::uvec& fit = transductive ? joint : p.train;
    if (first || fit.n_elem < smallest.n) smallest = DataShape{fit.n_elem, d, ds.n_classes};
    first = false;
  }
  return smallest;
}

}  // namespace drbench
