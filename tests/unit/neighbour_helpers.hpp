#pragma once
// What the neighbour-embedding tests share: exact neighbour graphs (the reference the methods'
// approximate graphs are held to) and a brute-force leave-one-out 1-NN error, written here
// independently of framework/eval.
#include <armadillo>

#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench::testing {

inline GraphOptions exact_graph() {
  GraphOptions o;
  o.kind = GraphKind::exact;
  return o;
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
