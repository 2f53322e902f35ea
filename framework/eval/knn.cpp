#include "framework/eval/knn.hpp"

#include <algorithm>
#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

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

bool is_cosine(const std::string& metric) {
  if (metric == "cosine") return true;
  if (metric == "euclidean") return false;
  throw Error("knn: unknown metric '" + metric +
              "' (fix: evaluation.knn_metric: euclidean or cosine)");
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

std::vector<double> knn_errors(const arma::mat& train, const arma::uvec& ytrain,
                               const arma::mat& test, const arma::uvec& ytest,
                               const std::vector<int>& ks, const std::string& metric) {
  if (!is_cosine(metric)) return knn_errors(train, ytrain, test, ytest, ks);
  return knn_errors(unit_columns(train), ytrain, unit_columns(test), ytest, ks);
}

std::vector<double> knn_loo_errors(const arma::mat& X, const arma::uvec& y,
                                   const std::vector<int>& ks, const std::string& metric) {
  return knn_loo_errors(is_cosine(metric) ? unit_columns(X) : X, y, ks);
}

}  // namespace drbench
