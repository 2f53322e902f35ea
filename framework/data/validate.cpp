#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/data/dataset.hpp"

namespace drbench {

void validate_dataset(const Dataset& ds) {
  const std::string where =
      "dataset '" + ds.name + "'" + (ds.source.empty() ? "" : " (" + ds.source + ")");
  if (ds.n() < 2)
    throw DataError(where + ": has " + std::to_string(ds.n()) +
                    " point(s); at least 2 are needed (fix: check the file, or raise max_points)");
  if (ds.d() == 0) throw DataError(where + ": has no features (fix: check the file's X)");
  if (ds.sparse() && !ds.Xs.is_finite()) {
    for (auto it = ds.Xs.begin(); it != ds.Xs.end(); ++it)
      if (!std::isfinite(*it))
        throw DataError(where + ": X has " + (std::isnan(*it) ? "NaN" : "Inf") + " at point " +
                        std::to_string(it.col()) + ", feature " + std::to_string(it.row()) +
                        " (0-based; row " + std::to_string(it.col()) + " of the file's X)" +
                        " (fix: impute or drop such points before loading)");
  }
  if (!ds.X.is_finite()) {
    // Report the first bad entry in the file's own terms: row = point, column = feature.
    for (arma::uword j = 0; j < ds.n(); ++j)
      for (arma::uword i = 0; i < ds.d(); ++i)
        if (!std::isfinite(ds.X(i, j)))
          throw DataError(where + ": X has " + (std::isnan(ds.X(i, j)) ? "NaN" : "Inf") +
                          " at point " + std::to_string(j) + ", feature " + std::to_string(i) +
                          " (0-based; row " + std::to_string(j) + " of the file's X)" +
                          " (fix: impute or drop such points before loading)");
  }
  if (ds.y.n_elem != ds.n() && ds.y.n_elem == ds.d())
    throw DataError(where + ": X looks transposed: it has " + std::to_string(ds.n()) + " rows of " +
                    std::to_string(ds.d()) + " values, and y has " + std::to_string(ds.y.n_elem) +
                    " labels, one per column (fix: store X as " +
                    "n rows (points) x d columns (features), e.g. X.T in numpy)");
  if (ds.y.n_elem != ds.n())
    throw DataError(where + ": " + std::to_string(ds.y.n_elem) + " labels for " +
                    std::to_string(ds.n()) + " points (fix: y needs one label per row of X)");
  if (ds.n_classes == 0) throw DataError(where + ": no classes (fix: provide labels 0..C-1)");
  // One time-ordered sequence (a single object's poses, GPDM-style figures) is a legitimate
  // input whose point is the latent trajectory; the config check warns that its kNN errors are
  // 0 by construction. Anything else with one class is a mistake.
  if (ds.n_classes == 1 && ds.sequence.is_empty())
    throw DataError(where +
                    ": every point has the same label, so every kNN error would be 0 "
                    "(fix: provide labels of at least 2 classes, 0..C-1, or mark the data as "
                    "a time-ordered sequence with sequences: classes)");
  // More classes than points means empty classes; refused before counting them (a label of
  // 10^16 would otherwise ask for that many counters; found by fuzz/fuzz_csv).
  if (ds.n_classes > ds.n())
    throw DataError(where + ": labels go up to " + std::to_string(ds.n_classes - 1) +
                    ", but there are only " + std::to_string(ds.n()) +
                    " points, so some of the classes 0.." + std::to_string(ds.n_classes - 1) +
                    " have no point (fix: number the classes 0..C-1 without gaps)");
  arma::uvec count(ds.n_classes, arma::fill::zeros);
  for (arma::uword j = 0; j < ds.n(); ++j) {
    if (ds.y(j) >= ds.n_classes)
      throw DataError(where + ": label " + std::to_string(ds.y(j)) + " of point " +
                      std::to_string(j) + " is outside 0.." + std::to_string(ds.n_classes - 1) +
                      " (fix: labels must be 0..C-1)");
    ++count(ds.y(j));
  }
  for (arma::uword c = 0; c < ds.n_classes; ++c)
    if (count(c) == 0)
      throw DataError(where + ": class " + std::to_string(c) + " of 0.." +
                      std::to_string(ds.n_classes - 1) +
                      " has no points (fix: relabel the classes as consecutive 0..C-1)");
  if (!ds.split.is_empty() && ds.split.n_elem != ds.n())
    throw DataError(where + ": split has " + std::to_string(ds.split.n_elem) + " entries for " +
                    std::to_string(ds.n()) + " points (fix: one split entry per row of X)");
}

}  // namespace drbench
