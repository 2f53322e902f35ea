#include "framework/config/validate.hpp"

#include <algorithm>
#include <cmath>

#include "framework/core/error.hpp"

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
        for (std::uint64_t dim : m.dims) {
          if (dim <= limit) continue;
          std::string problem = m.method + " allows at most " + limit_reason(limit, s) +
                                std::to_string(limit) + " dimensions on " + ex.datasets[di].name +
                                " (n=" + std::to_string(s.n) +
                                " training points, d=" + std::to_string(s.d) +
                                ", C=" + std::to_string(s.n_classes) + ")";
          if (!m.grid.empty()) problem += " for setting {" + setting.canonical() + "}";
          problem += ", but dims asks for " + std::to_string(dim);
          throw ConfigError(
              ex.file, m.dims_line, "methods[" + std::to_string(mi) + "].dims", problem,
              "use dims <= " + std::to_string(limit) + " for '" + m.label + "', or give " +
                  ex.datasets[di].name + " its own config with smaller dims");
        }
      }
    }
  }
}

}  // namespace drbench
