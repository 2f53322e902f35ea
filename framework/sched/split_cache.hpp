#pragma once
// The data one (dataset, split value, repeat) group hands to every task in it: the partition and
// the preprocessing fitted on its training part are the same for every method, setting and
// dimension, so a rank computes them once and keeps the most recently used groups up to a byte
// budget (a rank never holds more than the budget plus the group in use).
#include <armadillo>
#include <cstddef>
#include <list>
#include <memory>
#include <string>
#include <utility>

namespace drbench {

struct PreparedSplit {
  arma::uvec train, test;  // the partition: indices into the dataset
  arma::mat Xfit;          // preprocessed points the method is fitted on (train, or train + test)
  // The fit points kept sparse where the task keeps them so (keeps_sparse, run_task.hpp); Xfit is
  // then empty.
  arma::sp_mat Xsfit;
  arma::uvec yfit;
  arma::uvec yseen;  // the labels a supervised method is shown: test points' are kUnlabelled
  // Transductive: where the training and test points sit among the fitted columns.
  arma::uvec train_pos, test_pos;
  bool loo = false;  // transductive without test points: every point scored leave-one-out
  arma::mat Xtest;   // preprocessed test points; empty under the transductive protocol
  arma::uvec ytest;
  // Sequence ids of the fit points (empty when the data have no time order); partitions are
  // sorted indices, so time order inside a sequence survives the split.
  arma::uvec seqfit;
  std::size_t bytes() const;
};

class SplitCache {
 public:
  explicit SplitCache(std::size_t budget_bytes) : budget_(budget_bytes) {}

  // The entry under `key`, or nullptr; a hit makes it the most recently used.
  std::shared_ptr<const PreparedSplit> find(const std::string& key);
  // Stores `value` under `key` as the most recently used entry and drops the least recently used
  // ones until the total fits the budget (the new entry itself is always kept; tasks hold their
  // own reference, so dropping an entry in use is safe).
  std::shared_ptr<const PreparedSplit> insert(const std::string& key, PreparedSplit value);

  std::size_t size() const { return entries_.size(); }
  std::size_t bytes() const { return bytes_; }
  std::size_t hits() const { return hits_; }
  std::size_t misses() const { return misses_; }

 private:
  std::size_t budget_;
  std::size_t bytes_ = 0, hits_ = 0, misses_ = 0;
  std::list<std::pair<std::string, std::shared_ptr<const PreparedSplit>>> entries_;  // MRU first
};

}  // namespace drbench
