#include "framework/eval/knn.hpp"

#include <algorithm>
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
      for (auto& c : best) {
        const double* p = train.colptr(c.i);
        double acc = 0;
        for (arma::uword r = 0; r < dim; ++r) acc += (p[r] - q[r]) * (p[r] - q[r]);
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
