#include "framework/sched/split_cache.hpp"

namespace drbench {

std::size_t PreparedSplit::bytes() const {
  // A stored entry: its value and row index; a column offset per point (none without sparse
  // points).
  return (Xfit.n_elem + Xtest.n_elem) * sizeof(double) +
         (Xsfit.n_cols == 0 ? 0 : 2 * Xsfit.n_nonzero + Xsfit.n_cols + 1) * sizeof(double) +
         (train.n_elem + test.n_elem + yfit.n_elem + yseen.n_elem + train_pos.n_elem +
          test_pos.n_elem + ytest.n_elem + seqfit.n_elem) *
             sizeof(arma::uword);
}

std::shared_ptr<const PreparedSplit> SplitCache::find(const std::string& key) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->first == key) {
      entries_.splice(entries_.begin(), entries_, it);
      ++hits_;
      return entries_.front().second;
    }
  ++misses_;
  return nullptr;
}

std::shared_ptr<const PreparedSplit> SplitCache::insert(const std::string& key,
                                                        PreparedSplit value) {
  auto p = std::make_shared<const PreparedSplit>(std::move(value));
  entries_.emplace_front(key, p);
  bytes_ += p->bytes();
  while (entries_.size() > 1 && bytes_ > budget_) {
    bytes_ -= entries_.back().second->bytes();
    entries_.pop_back();
  }
  return p;
}

}  // namespace drbench
