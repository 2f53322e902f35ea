#include "framework/eval/knn.hpp"

#include <nanoflann.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "framework/core/error.hpp"

namespace drbench {
namespace {

// Candidates per test point beyond kmax: ranking by the BLAS expansion |a|^2 - 2a.b can reorder
// near ties by rounding, so a few extra candidates are re-ranked with directly summed distances.
constexpr arma::uword kSlack = 8;

struct Cand {
  double d;
  arma::uword i;
  bool operator<(const Cand& o) const { return d < o.d || (d == o.d && i < o.i); }
};

// The one definition of the distance both paths rank by, summed in coordinate order, so the k-d
// tree and the blocked path see bit-identical values and break ties identically.
inline double sq_dist(const double* p, const double* q, arma::uword dim) {
  double acc = 0;
  for (arma::uword r = 0; r < dim; ++r) acc += (p[r] - q[r]) * (p[r] - q[r]);
  return acc;
}

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

// nanoflann's view of the training columns and of the distance above.
struct Columns {
  const arma::mat& X;
  std::size_t kdtree_get_point_count() const { return X.n_cols; }
  double kdtree_get_pt(std::size_t i, std::size_t r) const { return X.at(r, i); }
  template <class Box>
  bool kdtree_get_bbox(Box&) const {
    return false;
  }
};

struct ExactL2 {
  using ElementType = double;
  using DistanceType = double;
  const Columns& cols;
  explicit ExactL2(const Columns& c) : cols(c) {}
  double evalMetric(const double* q, std::uint32_t i, std::size_t dim) const {
    return sq_dist(cols.X.colptr(i), q, dim);
  }
  template <class U, class V>
  double accum_dist(U a, V b, std::size_t) const {
    return (a - b) * (a - b);
  }
};

// The k smallest (distance, index) pairs, lower index first among equal distances: the same
// order as the blocked path. nanoflann offers a point only when it is strictly closer than
// worstDist() and prunes cells by rounded lower bounds, so worstDist() sits a relative 1e-10
// above the k-th distance: every tie (and nothing the exact comparison would keep) gets through.
class TopK {
 public:
  TopK(arma::uword k, arma::uword skip) : k_(k), skip_(skip) { best_.reserve(k + 1); }
  double worstDist() const { return best_.size() < k_ ? kInf : bound_; }
  bool full() const { return best_.size() == k_; }
  bool addPoint(double d, std::uint32_t i) {
    if (i == skip_) return true;
    const Cand c{d, i};
    if (best_.size() == k_) {
      if (!(c < best_.back())) return true;
      best_.pop_back();
    }
    best_.insert(std::upper_bound(best_.begin(), best_.end(), c), c);
    if (best_.size() == k_) bound_ = best_.back().d * (1.0 + 1e-10) + 1e-300;
    return true;
  }
  const std::vector<Cand>& best() const { return best_; }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  arma::uword k_, skip_;
  double bound_ = kInf;
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

}  // namespace

arma::umat knn_indices(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                       bool exclude_self) {
  if (train.n_rows <= kKdTreeMaxDim) return knn_indices_kdtree(train, test, kmax, exclude_self);
  return knn_indices_blocked(train, test, kmax, exclude_self);
}

arma::umat knn_indices_kdtree(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                              bool exclude_self) {
  check_knn_args(train, test, kmax, exclude_self);
  if (train.n_cols > std::numeric_limits<std::uint32_t>::max())
    return knn_indices_blocked(train, test, kmax, exclude_self);
  const Columns cols{train};
  using Tree = nanoflann::KDTreeSingleIndexAdaptor<ExactL2, Columns, -1, std::uint32_t>;
  Tree tree(static_cast<int>(train.n_rows), cols, nanoflann::KDTreeSingleIndexAdaptorParams(12));
  arma::umat nn(kmax, test.n_cols);
  const nanoflann::SearchParams params(32, 0.0f, false);
  for (arma::uword j = 0; j < test.n_cols; ++j) {
    TopK top(kmax, exclude_self ? j : train.n_cols);
    tree.findNeighbors(top, test.colptr(j), params);
    for (arma::uword k = 0; k < kmax; ++k) nn(k, j) = top.best()[k].i;
  }
  return nn;
}

arma::umat knn_indices_blocked(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                               bool exclude_self) {
  check_knn_args(train, test, kmax, exclude_self);
  const arma::uword n = train.n_cols, m = test.n_cols;
  const arma::uword avail = exclude_self ? n - 1 : n;
  const arma::uword cand = std::min(avail, kmax + kSlack);
  const arma::uword dim = train.n_rows;
  arma::umat nn(kmax, m);
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
    G = train.t() * test.cols(s, e - 1);  // n x b, one BLAS-3 call
    for (arma::uword j = s; j < e; ++j) {
      select_smallest(a2.memptr(), G.colptr(j - s), n, cand, exclude_self ? j : n, best);
      const double* q = test.colptr(j);
      for (auto& c : best) c.d = sq_dist(train.colptr(c.i), q, dim);
      std::sort(best.begin(), best.end());
      for (arma::uword k = 0; k < kmax; ++k) nn(k, j) = best[k].i;
    }
  }
  return nn;
}

arma::uvec knn_vote(const arma::umat& nn, const arma::uvec& ytrain, arma::uword k) {
  if (k == 0 || k > nn.n_rows)
    throw Error("knn_vote: k=" + std::to_string(k) + " but only " + std::to_string(nn.n_rows) +
                " neighbours were computed");
  const arma::uword C = ytrain.is_empty() ? 0 : ytrain.max() + 1;
  std::vector<arma::uword> count(C, 0);
  arma::uvec pred(nn.n_cols);
  for (arma::uword j = 0; j < nn.n_cols; ++j) {
    arma::uword top = 0;
    for (arma::uword r = 0; r < k; ++r) top = std::max(top, ++count[ytrain(nn(r, j))]);
    // Tied classes: the first of them met in nearest-first order wins.
    arma::uword r = 0;
    while (count[ytrain(nn(r, j))] != top) ++r;
    pred(j) = ytrain(nn(r, j));
    for (arma::uword t = 0; t < k; ++t) count[ytrain(nn(t, j))] = 0;
  }
  return pred;
}

namespace {

std::vector<double> errors_from(const arma::umat& nn, const arma::uvec& ytrain,
                                const arma::uvec& ytest, const std::vector<int>& ks) {
  std::vector<double> err;
  for (int k : ks) {
    const arma::uvec pred = knn_vote(nn, ytrain, static_cast<arma::uword>(k));
    err.push_back(double(arma::accu(pred != ytest)) / double(ytest.n_elem));
  }
  return err;
}

arma::uword max_k(const std::vector<int>& ks) {
  if (ks.empty()) throw Error("knn: no k values given (fix: evaluation.knn: [1])");
  int k = 0;
  for (int v : ks) {
    if (v < 1) throw Error("knn: k=" + std::to_string(v) + " must be at least 1");
    k = std::max(k, v);
  }
  return static_cast<arma::uword>(k);
}

}  // namespace

std::vector<double> knn_errors(const arma::mat& train, const arma::uvec& ytrain,
                               const arma::mat& test, const arma::uvec& ytest,
                               const std::vector<int>& ks) {
  if (ytrain.n_elem != train.n_cols || ytest.n_elem != test.n_cols)
    throw Error("knn: label count does not match the number of points");
  if (test.n_cols == 0)
    throw Error(
        "knn: no test points (fix: use a holdout split, or knn_loo_errors for "
        "transductive evaluation)");
  return errors_from(knn_indices(train, test, max_k(ks)), ytrain, ytest, ks);
}

std::vector<double> knn_loo_errors(const arma::mat& X, const arma::uvec& y,
                                   const std::vector<int>& ks) {
  if (y.n_elem != X.n_cols) throw Error("knn: label count does not match the number of points");
  return errors_from(knn_indices(X, X, max_k(ks), true), y, y, ks);
}

}  // namespace drbench
