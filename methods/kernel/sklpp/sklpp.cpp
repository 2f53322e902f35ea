#include "methods/kernel/sklpp/sklpp.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

arma::sp_mat class_graph(const arma::mat& X, const arma::uvec& y, std::size_t n_classes,
                         arma::uword k) {
  std::vector<arma::uword> rows, cols;
  std::vector<double> vals;
  for (std::size_t c = 0; c < n_classes; ++c) {
    const arma::uvec idx = arma::find(y == c);
    if (idx.n_elem < 2) continue;
    const arma::mat D = arma::sqrt(sq_distances(X.cols(idx)));
    const arma::uword m = idx.n_elem;
    arma::umat keep(m, m, arma::fill::zeros);
    if (k == 0 || k >= m - 1) {
      keep.ones();
    } else {
      for (arma::uword j = 0; j < m; ++j) {
        arma::vec dj = D.col(j);
        dj(j) = arma::datum::inf;
        const arma::uvec order = arma::stable_sort_index(dj);
        for (arma::uword t = 0; t < k; ++t) keep(order(t), j) = keep(j, order(t)) = 1;
      }
    }
    for (arma::uword j = 0; j < m; ++j)
      for (arma::uword i = 0; i < m; ++i)
        if (i != j && keep(i, j)) {
          rows.push_back(idx(i));
          cols.push_back(idx(j));
          // Coincident points still belong together: a tiny positive distance keeps the edge.
          vals.push_back(std::max(D(i, j), 1e-300));
        }
  }
  arma::umat loc(2, rows.size());
  for (std::size_t e = 0; e < rows.size(); ++e) {
    loc(0, e) = rows[e];
    loc(1, e) = cols[e];
  }
  return arma::sp_mat(loc, arma::vec(vals), X.n_cols, X.n_cols);
}

arma::sp_mat SupervisedKernelLPP::distance_graph(const FitInput& in) const {
  if (!in.labels) throw MethodError("sklpp is supervised: the task has no training labels");
  arma::sp_mat G = class_graph(in.X, *in.labels, in.n_classes, neighbours());
  if (G.n_nonzero == 0)
    throw MethodError(
        "sklpp: no two training points share a class, so the supervised graph is "
        "empty; use more training points per class");
  return G;
}

namespace {

MethodInfo sklpp_info() {
  MethodInfo m = describe_method(
      "sklpp", "kernel", "supervised kernel LPP: kernel LPP on a same-class heat-kernel graph",
      "Zheng, Zhou, Zou & Zhao 2007, Neurocomputing 70(7-9), eq. 7-14");
  const IntKey neighbours =
      keywords::neighbours(0, 0, 1000, "same-class points joined; 0 joins every same-class pair");
  describe_kernel_lpp(m, neighbours);
  m.supervised = true;
  m.make = [neighbours](const ParamSet& p) {
    return std::make_unique<SupervisedKernelLPP>(kernel_keys()(p), arma::uword(neighbours(p)),
                                                 lpp_keys()(p));
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(sklpp_info, kernel_lpp_budget())
}  // namespace drbench
