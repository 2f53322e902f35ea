#include "methods/neighbour/dee/dee_bh_objective.hpp"

#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/class_neighbour_graph.hpp"
#include "framework/linalg/class_split_repulsion.hpp"
#include "methods/neighbour/linear_embedding.hpp"

namespace drbench {

arma::sp_mat dee_sparse_weights(const arma::mat& X, const arma::uvec& labels, arma::uword n_classes,
                                arma::uword k, const keywords::KernelWidth& width,
                                const GraphOptions& opt, double* kernel_width) {
  const PairDistanceTotals tot = pair_distance_totals(X, labels);
  if (!(tot.same_pairs > 0) || !(tot.all_pairs > tot.same_pairs))
    throw MethodError(
        "dee needs at least two classes and a class with two or more training points");
  const double t = width.heat_t(width.relative ? tot.same / tot.same_pairs : 0.0);
  const double sigma = std::sqrt(t / 2.0);
  if (!(sigma > 0) || !std::isfinite(sigma))
    throw MethodError("dee: same-class points coincide; set 'width: absolute'");
  if (kernel_width) *kernel_width = sigma;
  arma::sp_mat W = class_neighbour_graph(X, labels, n_classes, k, ClassPairs::Same, opt);
  // The stored values are squared distances (a duplicate's 0 stored as the smallest double).
  W.transform([t](double d2) { return std::exp(-d2 / t); });
  return W;
}

DeeBhObjective::DeeBhObjective(const arma::mat& X, const arma::uvec& labels, arma::uword n_classes,
                               const arma::sp_mat& Wp, double lambda, arma::uword dim, double theta,
                               unsigned threads)
    : X_(X),
      labels_(labels),
      classes_(n_classes),
      lambda_(lambda),
      theta_(theta),
      dim_(dim),
      threads_(threads) {
  if (Wp.n_rows != X.n_cols || Wp.n_cols != X.n_cols || labels.n_elem != X.n_cols)
    throw Error("internal: linear-time DEE weights do not match the data");
  if (dim < 1 || dim > 3)
    throw MethodError("dee: Barnes-Hut works in 1 to 3 dimensions, asked for " +
                      std::to_string(dim) + " (fix: 'gradient: exact' or dims <= 3)");
  // sum_nm w+_nm x_nm x_nm^T = 2 X L+ X^T; both from the sparse w+ without an N x N matrix.
  const arma::rowvec deg = arma::rowvec(arma::sum(Wp, 0));
  const arma::mat XD = X.each_row() % deg;
  Sd_ = XD * X.t();
  S_ = Sd_ - arma::mat(X * Wp) * X.t();
  S_ = 0.5 * (S_ + S_.t());
}

double DeeBhObjective::evaluate(const arma::vec& a, arma::vec* grad) {
  const arma::mat A(const_cast<double*>(a.memptr()), dim_, X_.n_rows, false, true);
  const arma::mat Y = A * X_;
  arma::vec e;
  arma::mat F;
  elastic_repulsion_between_classes(Y, X_, labels_, classes_, theta_, threads_, e, F);
  const arma::mat AS = A * S_;
  // Attraction: sum over ordered pairs w+ |A x_nm|^2 = 2 tr(A S A^T); repulsion summed per point
  // in index order (the same bits for any thread count).
  double rep = 0.0;
  for (arma::uword i = 0; i < e.n_elem; ++i) rep += e(i);
  const double E = 2.0 * arma::accu(AS % A) + lambda_ * rep;
  if (grad) *grad = arma::vectorise(4.0 * AS - (4.0 * lambda_) * (F * X_.t()));
  return E;
}

}  // namespace drbench
