#include "framework/eval/knn.hpp"

#include <algorithm>
#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {
namespace {

// Candidates per test point beyond kmax: the BLAS expansion |a|^2+|b|^2-2a.b can reorder near
// ties by rounding, so a few extra candidates are re-ranked with directly summed distances.
constexpr arma::uword kSlack = 8;

struct Cand {
  double d;
  arma::uword i;
  bool operator<(const Cand& o) const { return d < o.d || (d == o.d && i < o.i); }
};

// The m smallest entries of column `col` (ascending, lower index on ties) into best[0..m).
void select_smallest(const double* col, arma::uword n, arma::uword m, arma::uword skip,
                     std::vector<Cand>& best) {
  best.clear();
  if (m <= 64) {
    // Bounded insertion: for small m nearly every entry fails the first comparison, which beats
    // nth_element over an index array by a wide margin.
    double worst = arma::datum::inf;
    for (arma::uword i = 0; i < n; ++i) {
      const double d = col[i];
      if (best.size() == m && !(d < worst)) continue;
      if (i == skip) continue;
      auto pos = best.end();
      while (pos != best.begin() && d < (pos - 1)->d)
        --pos;  // equal d: after, lower index stays first
      if (best.size() == m) best.pop_back();
      best.insert(pos, {d, i});
      if (best.size() == m) worst = best.back().d;
    }
  } else {
    for (arma::uword i = 0; i < n; ++i)
      if (i != skip) best.push_back({col[i], i});
    const auto mid = best.begin() + std::min<std::size_t>(m, best.size());
    std::nth_element(best.begin(), mid - (mid == best.end() ? 1 : 0), best.end());
    best.resize(std::min<std::size_t>(m, best.size()));
    std::sort(best.begin(), best.end());
  }
}

}  // namespace

arma::umat knn_indices(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                       bool exclude_self) {
  const arma::uword n = train.n_cols, m = test.n_cols;
  if (train.n_rows != test.n_rows)
    throw Error("knn: training points have " + std::to_string(train.n_rows) +
                " dimensions, test points " + std::to_string(test.n_rows));
  if (exclude_self && n != m)
    throw Error("knn: leave-one-out needs the test set to be the training set");
  const arma::uword avail = exclude_self ? (n > 0 ? n - 1 : 0) : n;
  if (kmax == 0 || kmax > avail)
    throw Error("knn: k=" + std::to_string(kmax) + " needs 1.." + std::to_string(avail) +
                " neighbours but there are " + std::to_string(n) + " training points" +
                (exclude_self ? " (leave-one-out excludes the point itself)" : "") +
                " (fix: lower the evaluation's knn values)");
  const arma::uword cand = std::min(avail, kmax + kSlack);
  arma::umat nn(kmax, m);
  // Blocks of test columns keep the distance block (n x b) around 16 MB whatever the sizes.
  const arma::uword block =
      std::clamp<arma::uword>((arma::uword(1) << 21) / std::max<arma::uword>(n, 1), 1, 1024);
  std::vector<Cand> best;
  best.reserve(cand + 1);
  for (arma::uword s = 0; s < m; s += block) {
    const arma::uword e = std::min(m, s + block);
    const arma::mat D =
        sq_distances(train, test.cols(s, e - 1));  // n x b, one column per test point
    for (arma::uword j = s; j < e; ++j) {
      select_smallest(D.colptr(j - s), n, cand, exclude_self ? j : n, best);
      const double* q = test.colptr(j);
      for (auto& c : best) {
        const double* p = train.colptr(c.i);
        double acc = 0;
        for (arma::uword r = 0; r < train.n_rows; ++r) acc += (p[r] - q[r]) * (p[r] - q[r]);
        c.d = acc;
      }
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
