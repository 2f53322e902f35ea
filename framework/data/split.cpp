#include "framework/data/split.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"

namespace drbench {
namespace {

std::vector<std::vector<arma::uword>> class_members(const Dataset& ds) {
  std::vector<std::vector<arma::uword>> members(ds.n_classes);
  for (arma::uword j = 0; j < ds.n(); ++j) members.at(ds.y(j)).push_back(j);
  return members;
}

arma::uvec sorted(std::vector<arma::uword> v) {
  std::sort(v.begin(), v.end());
  return arma::uvec(v);
}

std::string num(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

Partition make_partition(const Dataset& ds, const SplitsSpec& spec, double value,
                         std::uint64_t seed) {
  const std::string where = "dataset '" + ds.name + "': splits: ";
  std::vector<arma::uword> train, test;
  switch (spec.kind) {
    case SplitsSpec::Kind::All:
      return {arma::regspace<arma::uvec>(0, ds.n() - 1), arma::uvec()};
    case SplitsSpec::Kind::Own: {
      if (ds.split.is_empty())
        throw DataError(where + "kind own, but the dataset defines no split (" + ds.source +
                        ") (fix: use per_class or ratio splits for it)");
      for (arma::uword j = 0; j < ds.n(); ++j) {
        if (ds.split(j) == 0) train.push_back(j);
        if (ds.split(j) == 1) test.push_back(j);
      }
      if (train.empty() || test.empty())
        throw DataError(where + "the dataset's own split has " + std::to_string(train.size()) +
                        " training and " + std::to_string(test.size()) +
                        " test points (fix: use per_class or ratio splits for it)");
      return {arma::uvec(train), arma::uvec(test)};
    }
    case SplitsSpec::Kind::PerClass:
    case SplitsSpec::Kind::Ratio:
      break;
  }
  const bool per_class = spec.kind == SplitsSpec::Kind::PerClass;
  if (per_class && (value < 1 || value != std::floor(value)))
    throw DataError(where + "per_class value " + num(value) +
                    " is not a positive whole number of training points per class");
  if (!per_class && !(value > 0 && value < 1))
    throw DataError(where + "ratio value " + num(value) + " must lie in (0, 1)");
  // One engine for the whole partition, classes visited in order: the result is a function of
  // (dataset, seed, value) alone.
  Rng rng(seed);
  const auto members = class_members(ds);
  for (arma::uword c = 0; c < members.size(); ++c) {
    const arma::uword nc = members[c].size();
    const arma::uword ntrain = per_class
                                   ? static_cast<arma::uword>(value)
                                   : static_cast<arma::uword>(std::llround(value * double(nc)));
    if (ntrain == 0)
      throw DataError(where + "train_ratio " + num(value) + " gives class " + std::to_string(c) +
                      " (" + std::to_string(nc) +
                      " points) no training points (fix: use a ratio of "
                      "at least " +
                      num(0.5 / double(nc) + 1e-6) + ", or train_per_class)");
    const arma::uword ntest = per_class && spec.test_per_class > 0 ? spec.test_per_class : 0;
    if (nc < ntrain + ntest || nc == 0)
      throw DataError(where + "class " + std::to_string(c) + " has " + std::to_string(nc) +
                      " points, but the request needs " + std::to_string(ntrain) + " training" +
                      (ntest > 0 ? " + " + std::to_string(ntest) + " test" : "") +
                      " points (fix: lower the split value" +
                      (ntest > 0 ? " or test_per_class" : "") + ", or use ratio splits)");
    const arma::uvec perm = rng.permutation(nc);
    for (arma::uword i = 0; i < nc; ++i) {
      if (i < ntrain)
        train.push_back(members[c][perm(i)]);
      else if (ntest == 0 || i < ntrain + ntest)
        test.push_back(members[c][perm(i)]);
    }
  }
  return {sorted(std::move(train)), sorted(std::move(test))};
}

Partition inner_partition(const Dataset& ds, const Partition& outer, int folds, double fraction,
                          int fold, std::uint64_t seed) {
  std::vector<std::vector<arma::uword>> members(ds.n_classes);
  for (arma::uword j : outer.train) members.at(ds.y(j)).push_back(j);
  Rng rng(seed);
  std::vector<arma::uword> train, held;
  arma::uword dealt =
      0;  // folds continue across classes, so small classes do not all land in fold 0
  for (const auto& m : members) {
    const arma::uword nc = m.size();
    if (nc == 0) continue;
    const arma::uvec perm = rng.permutation(nc);
    const arma::uword nheld =
        folds > 0 ? 0
                  : std::min<arma::uword>(
                        nc - 1, static_cast<arma::uword>(std::llround(fraction * double(nc))));
    for (arma::uword i = 0; i < nc; ++i) {
      const bool out =
          folds > 0 ? (dealt + i) % arma::uword(folds) == arma::uword(fold) : i < nheld;
      (out ? held : train).push_back(m[perm(i)]);
    }
    dealt += nc;
  }
  if (train.empty() || held.empty())
    throw DataError("dataset '" + ds.name + "': evaluation.selection: inner split " +
                    std::to_string(fold) + " of a training partition of " +
                    std::to_string(outer.train.n_elem) + " points holds " +
                    std::to_string(train.size()) + " training and " + std::to_string(held.size()) +
                    " validation points (fix: more training points per partition, fewer folds or "
                    "a larger fraction, or selection: min_mean_error)");
  return {sorted(std::move(train)), sorted(std::move(held))};
}

}  // namespace drbench
