#include "framework/neighbours/knn_search.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <string>

#include "framework/core/error.hpp"
#include "framework/neighbours/knn_exact.hpp"
#include "framework/neighbours/knn_prefilter.hpp"

namespace drbench {
namespace {

// Candidates per test point beyond kmax: ranking by the BLAS expansion |a|^2 - 2a.b can reorder
// near ties by rounding, so a few extra candidates are re-ranked with directly summed distances.
constexpr arma::uword kSlack = 8;

using knn_detail::Cand;
using knn_detail::sq_dist;

void check_knn_args(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                    bool exclude_self) {
  const arma::uword n = train.n_cols;
  if (train.n_rows != test.n_rows)
    throw Error("knn: training points have " + std::to_string(train.n_rows) +
                " dimensions, test points " + std::to_string(test.n_rows));
  if (exclude_self && n != test.n_cols)
    throw Error("knn: leave-one-out needs the test set to be the training set");
  const arma::uword avail = exclude_self ? (n > 0 ? n - 1 : 0) : n;
  if (kmax == 0 || kmax > avail)
    throw Error("knn: k=" + std::to_string(kmax) + " needs 1.." + std::to_string(avail) +
                " neighbours but there are " + std::to_string(n) + " training points" +
                (exclude_self ? " (leave-one-out excludes the point itself)" : "") +
                " (fix: lower the evaluation's knn values)");
}

// An exact k-d tree over a contiguous copy of the training points.
// - Leaves hold kLeaf points stored coordinate-major (kLeaf values of coordinate 0, then of
//   coordinate 1, ...), so one leaf's distances are computed side by side in vector registers,
//   each still summed in coordinate order exactly as sq_dist does.
// - Inner nodes have up to kFan children (two levels of median splits) and keep their children's
//   tight bounding boxes side by side, so the bounds to all children take one vector pass.
// - The distance from a query to a box, summed in the same order, is never above the computed
//   distance of any point inside it (floating-point subtraction, squaring and addition are
//   monotone), so pruning a child only when that bound exceeds the current k-th distance is
//   exact, ties included.
constexpr arma::uword kLeaf = 32;
constexpr arma::uword kFan = 4;
// knn_indices: queries the tree answers first to measure its cost on the data at hand, and the
// share of the training points it may scan per query before blocked BLAS distances are cheaper
// (bench_knn BM_KnnPath and BM_KnnUspsPath: the crossover lies at 0.44..0.51 from 9-D to 16-D).
// With the float pre-filter as the alternative the crossover is far lower: at 5,000 points the
// tree scanning 4-5 % per query (Gaussian and USPS scores in 4-D) ties with it, at 8 % (USPS in
// 6-D) it is slower (bench_knn BM_KnnPath and BM_KnnUspsPath, <1> against <3>).
constexpr arma::uword kProbeQueries = 32;
constexpr double kTreeMaxScan = 0.45;
constexpr double kTreeMaxScanPrefilter = 0.06;

#if defined(__x86_64__) && defined(__GNUC__)
#define DRBENCH_KNN_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define DRBENCH_KNN_CLONES
#endif

// Squared distances from q to the kLeaf points of one leaf, and the mask of those <= bound. Wider
// vector units give the same bits: only subtraction, multiplication and addition, never fused
// (this file is compiled with -ffp-contract=off, see CMakeLists.txt).
DRBENCH_KNN_CLONES
std::uint64_t leaf_dists(const double* __restrict P, const double* __restrict q, arma::uword dim,
                         double bound, double* __restrict out) {
  double acc[kLeaf] = {};
  for (arma::uword r = 0; r < dim; ++r) {
    const double qr = q[r];
    const double* row = P + r * kLeaf;
    for (arma::uword t = 0; t < kLeaf; ++t) acc[t] += (row[t] - qr) * (row[t] - qr);
  }
  std::uint64_t mask = 0;
  for (arma::uword t = 0; t < kLeaf; ++t) {
    out[t] = acc[t];
    mask |= std::uint64_t(acc[t] <= bound) << t;
  }
  return mask;
}

// Lower bounds from q to kFan boxes stored coordinate-major (lo and hi: kFan values per
// coordinate).
DRBENCH_KNN_CLONES
void box_dists(const double* __restrict lo, const double* __restrict hi, const double* __restrict q,
               arma::uword dim, double* __restrict out) {
  double acc[kFan] = {};
  for (arma::uword r = 0; r < dim; ++r) {
    const double qr = q[r];
    for (arma::uword c = 0; c < kFan; ++c) {
      const double nearest = std::min(std::max(qr, lo[r * kFan + c]), hi[r * kFan + c]);
      acc[c] += (qr - nearest) * (qr - nearest);
    }
  }
  for (arma::uword c = 0; c < kFan; ++c) out[c] = acc[c];
}

class KdTree {
 public:
  explicit KdTree(const arma::mat& X) : X_(X), dim_(X.n_rows) {
    const auto n = static_cast<std::uint32_t>(X.n_cols);
    idx_.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) idx_[i] = i;
    pts_.assign(((n + kLeaf - 1) / kLeaf) * dim_ * kLeaf, 0.0);
    std::vector<double> lo(dim_), hi(dim_);
    build(0, n, lo.data(), hi.data());
  }

  // Offers every point that can be among the k nearest of q to top.
  template <class Top>
  void search(const double* q, Top& top) const {
    search(0, q, top);
  }

 private:
  struct Node {
    std::uint32_t begin, end;       // slots of its points; leaves start at multiples of kLeaf
    std::uint32_t children = 0;     // 0 for a leaf
    std::int32_t child[kFan] = {};  // node ids
    std::size_t box = 0;            // offset of the children's boxes (lo, then hi) in boxes_
  };

  // Coordinate by coordinate, so the running minimum and maximum stay in registers rather than
  // waiting on a store to lo and hi per point (the build's main cost when the tree is only probed).
  void bounds(std::uint32_t begin, std::uint32_t end, double* lo, double* hi) const {
    const double* X = X_.memptr();
    const std::uint32_t* idx = idx_.data();
    for (arma::uword r = 0; r < dim_; ++r) {
      double l = X[idx[begin] * dim_ + r], h = l;
      for (std::uint32_t t = begin + 1; t < end; ++t) {
        const double x = X[idx[t] * dim_ + r];
        l = std::min(l, x);
        h = std::max(h, x);
      }
      lo[r] = l;
      hi[r] = h;
    }
  }

  // Splits [begin, end) at a multiple of kLeaf across the widest coordinate of its box, so
  // every leaf but the last is full; `levels` times, into at most 2^levels parts.
  void split(std::uint32_t begin, std::uint32_t end, int levels,
             std::vector<std::pair<std::uint32_t, std::uint32_t>>& parts) {
    if (levels == 0 || end - begin <= kLeaf) {
      parts.emplace_back(begin, end);
      return;
    }
    std::vector<double> lo(dim_), hi(dim_);
    bounds(begin, end, lo.data(), hi.data());
    arma::uword widest = 0;
    for (arma::uword r = 1; r < dim_; ++r)
      if (hi[r] - lo[r] > hi[widest] - lo[widest]) widest = r;
    const std::uint32_t leaves = (end - begin + kLeaf - 1) / kLeaf;
    const std::uint32_t mid = begin + (leaves / 2) * kLeaf;
    // The split coordinate copied beside each index: the selection then reads one contiguous
    // array instead of a column per comparison. Any median split serves, since the search is
    // exact whatever the tree's shape.
    keyed_.resize(end - begin);
    for (std::uint32_t t = begin; t < end; ++t)
      keyed_[t - begin] = {X_.at(widest, idx_[t]), idx_[t]};
    std::nth_element(keyed_.begin(), keyed_.begin() + (mid - begin), keyed_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::uint32_t t = begin; t < end; ++t) idx_[t] = keyed_[t - begin].second;
    split(begin, mid, levels - 1, parts);
    split(mid, end, levels - 1, parts);
  }

  // Builds the node for [begin, end) and writes its tight box to lo, hi.
  std::int32_t build(std::uint32_t begin, std::uint32_t end, double* lo, double* hi) {
    const auto id = static_cast<std::int32_t>(nodes_.size());
    nodes_.push_back({begin, end});
    if (end - begin <= kLeaf) {
      bounds(begin, end, lo, hi);
      double* P = pts_.data() + (begin / kLeaf) * dim_ * kLeaf;
      for (std::uint32_t t = begin; t < end; ++t)
        for (arma::uword r = 0; r < dim_; ++r) P[r * kLeaf + (t - begin)] = X_.at(r, idx_[t]);
      return id;
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> parts;
    split(begin, end, 2, parts);
    const std::size_t box = boxes_.size();
    // Unused lanes get an empty box at infinity; search never looks past `children`.
    boxes_.resize(box + 2 * kFan * dim_, std::numeric_limits<double>::infinity());
    std::vector<double> clo(dim_), chi(dim_);
    std::int32_t child[kFan] = {};
    for (std::size_t c = 0; c < parts.size(); ++c) {
      child[c] = build(parts[c].first, parts[c].second, clo.data(), chi.data());
      for (arma::uword r = 0; r < dim_; ++r) {
        boxes_[box + r * kFan + c] = clo[r];
        boxes_[box + (dim_ + r) * kFan + c] = chi[r];
      }
    }
    Node& node = nodes_[id];
    node.children = static_cast<std::uint32_t>(parts.size());
    std::copy(child, child + kFan, node.child);
    node.box = box;
    for (arma::uword r = 0; r < dim_; ++r) {
      lo[r] = boxes_[box + r * kFan];
      hi[r] = boxes_[box + (dim_ + r) * kFan];
      for (std::uint32_t c = 1; c < node.children; ++c) {
        lo[r] = std::min(lo[r], boxes_[box + r * kFan + c]);
        hi[r] = std::max(hi[r], boxes_[box + (dim_ + r) * kFan + c]);
      }
    }
    return id;
  }

  template <class Top>
  void search(std::int32_t id, const double* q, Top& top) const {
    const Node& node = nodes_[id];
    if (node.children == 0) {
      double d[kLeaf];
      const std::uint32_t count = node.end - node.begin;
      top.count(count);
      std::uint64_t mask =
          leaf_dists(pts_.data() + (node.begin / kLeaf) * dim_ * kLeaf, q, dim_, top.worst(), d);
      if (count < kLeaf) mask &= (std::uint64_t(1) << count) - 1;
      for (; mask != 0; mask &= mask - 1) {
        const int t = std::countr_zero(mask);
        if (d[t] <= top.worst()) top.offer(d[t], idx_[node.begin + t]);
      }
      return;
    }
    double lb[kFan];
    box_dists(boxes_.data() + node.box, boxes_.data() + node.box + dim_ * kFan, q, dim_, lb);
    // Nearest box first: its points tighten the bound the others are tested against.
    // Ranks by counting, without data-dependent branches (unused lanes are at infinity).
    std::uint32_t order[kFan];
    for (std::uint32_t c = 0; c < kFan; ++c) {
      std::uint32_t rank = 0;
      for (std::uint32_t o = 0; o < c; ++o) rank += static_cast<std::uint32_t>(lb[o] <= lb[c]);
      for (std::uint32_t o = c + 1; o < kFan; ++o)
        rank += static_cast<std::uint32_t>(lb[o] < lb[c]);
      order[rank] = c;
    }
    for (std::uint32_t s = 0; s < node.children; ++s) {
      const std::uint32_t c = order[s];
      if (lb[c] > top.worst()) break;  // later boxes are no nearer
      search(node.child[c], q, top);
    }
  }

  const arma::mat& X_;
  arma::uword dim_;
  std::vector<Node> nodes_;
  std::vector<double> boxes_, pts_;
  std::vector<std::uint32_t> idx_;
  std::vector<std::pair<double, std::uint32_t>> keyed_;  // split's scratch
};

// The k smallest (distance, index) pairs, lower index first among equal distances: the order of
// the blocked path. Fixed storage, reused across queries.
class TopK {
 public:
  explicit TopK(arma::uword k) : k_(k), best_(k) {}
  void reset(arma::uword skip) {
    skip_ = skip;
    size_ = 0;
    worst_ = kInf;
    scanned_ = 0;
  }
  // Nothing at a larger distance can enter; an equal one can, when its index is lower.
  double worst() const { return worst_; }
  // Training points whose distance was computed since reset (the cost the probe measures).
  std::size_t scanned() const { return scanned_; }
  void count(std::size_t points) { scanned_ += points; }
  void offer(double d, arma::uword i) {
    if (i == skip_) return;
    const Cand c{d, i};
    arma::uword pos;
    if (size_ < k_) {
      pos = size_++;
    } else {
      if (!(c < best_[k_ - 1])) return;
      pos = k_ - 1;
    }
    while (pos > 0 && c < best_[pos - 1]) {
      best_[pos] = best_[pos - 1];
      --pos;
    }
    best_[pos] = c;
    if (size_ == k_) worst_ = best_[k_ - 1].d;
  }
  const Cand& operator[](arma::uword r) const { return best_[r]; }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  arma::uword k_, skip_ = 0, size_ = 0;
  double worst_ = kInf;
  std::size_t scanned_ = 0;
  std::vector<Cand> best_;
};

// The m smallest of key(i) = a2[i] - 2 g[i] over i != skip (ascending, lower index first on
// ties) into best. The per-query constant |b|^2 does not change the order, so it is left out and
// the whole selection is one pass over the BLAS product.
void select_smallest(const double* a2, const double* g, arma::uword n, arma::uword m,
                     arma::uword skip, std::vector<Cand>& best) {
  best.resize(m);
  if (m <= 64) {
    // Bounded insertion: once the buffer is full nearly every entry fails the first comparison,
    // which beats nth_element over an index array by a wide margin for small m.
    arma::uword filled = 0;
    double worst = arma::datum::inf;
    auto offer = [&](arma::uword i, double key) {
      if (i == skip) return;
      arma::uword pos = filled < m ? filled++ : m - 1;
      while (pos > 0 && key < best[pos - 1].d) {  // equal keys stay behind: lower index first
        best[pos] = best[pos - 1];
        --pos;
      }
      best[pos] = {key, i};
      if (filled == m) worst = best[m - 1].d;
    };
    arma::uword i = 0;
    for (; i < n && filled < m; ++i) offer(i, a2[i] - 2.0 * g[i]);
    for (; i < n; ++i) {
      const double key = a2[i] - 2.0 * g[i];
      if (key < worst) offer(i, key);
    }
  } else {
    best.clear();
    for (arma::uword i = 0; i < n; ++i)
      if (i != skip) best.push_back({a2[i] - 2.0 * g[i], i});
    std::nth_element(best.begin(), best.begin() + (m - 1), best.end());
    best.resize(m);
  }
}

// Rows of nn for the test columns `cols` (all of them when empty) by blocked BLAS distances.
void blocked_into(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                  bool exclude_self, const arma::uvec& cols, arma::umat& nn) {
  const arma::uword n = train.n_cols, m = cols.is_empty() ? test.n_cols : cols.n_elem;
  const arma::uword avail = exclude_self ? n - 1 : n;
  const arma::uword cand = std::min(avail, kmax + kSlack);
  const arma::uword dim = train.n_rows;
  const arma::rowvec a2 = arma::sum(arma::square(train), 0);
  // Blocks of test columns small enough that the product block (n x b, ~2 MB) stays in cache
  // between the BLAS call that writes it and the selection pass that reads it.
  const arma::uword block =
      std::clamp<arma::uword>((arma::uword(1) << 18) / std::max<arma::uword>(n, 1), 16, 512);
  arma::mat G;
  std::vector<Cand> best;
  best.reserve(std::max(cand, n));
  for (arma::uword s = 0; s < m; s += block) {
    const arma::uword e = std::min(m, s + block);
    if (cols.is_empty())  // n x b, one BLAS-3 call
      G = train.t() * test.cols(s, e - 1);
    else
      G = train.t() * test.cols(cols.subvec(s, e - 1));
    for (arma::uword t = s; t < e; ++t) {
      const arma::uword j = cols.is_empty() ? t : cols(t);
      select_smallest(a2.memptr(), G.colptr(t - s), n, cand, exclude_self ? j : n, best);
      const double* q = test.colptr(j);
      for (auto& c : best) c.d = sq_dist(train.colptr(c.i), q, dim);
      std::sort(best.begin(), best.end());
      for (arma::uword k = 0; k < kmax; ++k) nn(k, j) = best[k].i;
    }
  }
}

// The tree's answer for test column j, into nn; returns the training points it scanned.
std::size_t tree_into(const KdTree& tree, const arma::mat& test, arma::uword j, arma::uword skip,
                      TopK& top, arma::umat& nn) {
  top.reset(skip);
  tree.search(test.colptr(j), top);
  for (arma::uword k = 0; k < nn.n_rows; ++k) nn(k, j) = top[k].i;
  return top.scanned();
}

}  // namespace

arma::umat knn_indices(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                       bool exclude_self, KnnPath* path) {
  KnnPath dummy = KnnPath::blocked;
  KnnPath& used = path ? *path : dummy;
  check_knn_args(train, test, kmax, exclude_self);
  const arma::uword n = train.n_cols, m = test.n_cols;
  // The portable kernel (no AVX2) is several times slower than the vector ones: not worth it.
  const bool prefilter = train.n_rows <= kPrefilterMaxDim &&
                         (prefilter_isa_available(PrefilterIsa::avx512) ||
                          prefilter_isa_available(PrefilterIsa::avx2)) &&
                         knn_prefilter_covers(train, test);
  arma::umat nn(kmax, m);
  if (train.n_rows > kKdTreeMaxDim || n > std::numeric_limits<std::uint32_t>::max()) {
    used = prefilter ? KnnPath::prefilter : KnnPath::blocked;
    if (prefilter)
      knn_prefilter_into(train, test, kmax, exclude_self, arma::uvec(), nn);
    else
      blocked_into(train, test, kmax, exclude_self, arma::uvec(), nn);
    return nn;
  }
  const KdTree tree(train);
  TopK top(kmax);
  // A probe of kProbeQueries spread-out queries measures how much of the training set the tree
  // scans per query on this data; past the crossover the rest goes to the brute-force path.
  const arma::uword probe = m < 4 * kProbeQueries ? m : kProbeQueries;
  std::vector<char> done(m, 0);
  std::size_t scanned = 0;
  for (arma::uword s = 0; s < probe; ++s) {
    const arma::uword j = s * m / probe;
    scanned += tree_into(tree, test, j, exclude_self ? j : n, top, nn);
    done[j] = 1;
  }
  const double limit = prefilter ? kTreeMaxScanPrefilter : kTreeMaxScan;
  if (probe < m && (double(scanned) > limit * double(probe) * double(n))) {
    arma::uvec rest(m - probe);
    for (arma::uword j = 0, r = 0; j < m; ++j)
      if (!done[j]) rest(r++) = j;
    used = prefilter ? KnnPath::prefilter : KnnPath::blocked;
    if (prefilter)
      knn_prefilter_into(train, test, kmax, exclude_self, rest, nn);
    else
      blocked_into(train, test, kmax, exclude_self, rest, nn);
    return nn;
  }
  used = KnnPath::kdtree;
  for (arma::uword j = 0; j < m; ++j)
    if (!done[j]) tree_into(tree, test, j, exclude_self ? j : n, top, nn);
  return nn;
}

arma::umat knn_indices_kdtree(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                              bool exclude_self) {
  check_knn_args(train, test, kmax, exclude_self);
  if (train.n_cols > std::numeric_limits<std::uint32_t>::max())
    return knn_indices_blocked(train, test, kmax, exclude_self);
  const KdTree tree(train);
  arma::umat nn(kmax, test.n_cols);
  TopK top(kmax);
  for (arma::uword j = 0; j < test.n_cols; ++j)
    tree_into(tree, test, j, exclude_self ? j : train.n_cols, top, nn);
  return nn;
}

arma::umat knn_indices_blocked(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                               bool exclude_self) {
  check_knn_args(train, test, kmax, exclude_self);
  arma::umat nn(kmax, test.n_cols);
  blocked_into(train, test, kmax, exclude_self, arma::uvec(), nn);
  return nn;
}

arma::umat knn_indices_prefilter(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                                 bool exclude_self) {
  check_knn_args(train, test, kmax, exclude_self);
  if (!knn_prefilter_covers(train, test))
    return knn_indices_blocked(train, test, kmax, exclude_self);
  arma::umat nn(kmax, test.n_cols);
  knn_prefilter_into(train, test, kmax, exclude_self, arma::uvec(), nn);
  return nn;
}

}  // namespace drbench
