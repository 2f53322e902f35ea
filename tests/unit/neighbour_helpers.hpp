#pragma once
// What the neighbour-embedding tests share: exact neighbour graphs (the reference the methods'
// approximate graphs are held to) and a brute-force leave-one-out 1-NN error, written here
// independently of framework/eval.
#include <algorithm>
#include <armadillo>
#include <utility>
#include <vector>

#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench::testing {

inline GraphOptions exact_graph() {
  GraphOptions o;
  o.kind = GraphKind::exact;
  return o;
}

// The k nearest columns of X of every column of Q (k x m), by a full sort of squared distances
// summed in coordinate order, ties to the lower index; skip_self: Q is X and a column is not its
// own neighbour. The reference framework/neighbours' one search is held to.
inline arma::umat brute_knn(const arma::mat& X, const arma::mat& Q, arma::uword k, bool skip_self) {
  arma::umat nn(k, Q.n_cols);
  std::vector<std::pair<double, arma::uword>> c;
  for (arma::uword q = 0; q < Q.n_cols; ++q) {
    c.clear();
    for (arma::uword i = 0; i < X.n_cols; ++i) {
      if (skip_self && i == q) continue;
      double d = 0;
      for (arma::uword r = 0; r < X.n_rows; ++r) d += (X(r, i) - Q(r, q)) * (X(r, i) - Q(r, q));
      c.emplace_back(d, i);
    }
    std::sort(c.begin(), c.end());
    for (arma::uword j = 0; j < k; ++j) nn(j, q) = c[j].second;
  }
  return nn;
}

// Leave-one-out 1-NN error of the columns of E for labels y (ties: the lowest index).
inline double loo_1nn_error(const arma::mat& E, const arma::uvec& y) {
  arma::uword wrong = 0;
  for (arma::uword i = 0; i < E.n_cols; ++i) {
    double best = arma::datum::inf;
    arma::uword nearest = i;
    for (arma::uword j = 0; j < E.n_cols; ++j) {
      if (j == i) continue;
      const double d = arma::accu(arma::square(E.col(i) - E.col(j)));
      if (d < best) {
        best = d;
        nearest = j;
      }
    }
    wrong += y(nearest) != y(i);
  }
  return double(wrong) / double(E.n_cols);
}

}  // namespace drbench::testing
