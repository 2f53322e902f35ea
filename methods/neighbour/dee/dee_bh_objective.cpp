#include "methods/neighbour/dee/dee_bh_objective.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "framework/affinity/class_neighbour_graph.hpp"
#include "framework/core/error.hpp"
#include "framework/nbody/class_split_repulsion.hpp"
#include "methods/neighbour/linear_embedding.hpp"

namespace drbench {

namespace {

// t = 2 sigma^2 of the heat kernel from the same-class pair totals (the dense path's reference).
double heat_t_of(const arma::mat& X, const arma::uvec& labels, const keywords::KernelWidth& width,
                 double* kernel_width) {
  const double t = same_class_heat_t(width, pair_distance_totals(X, labels), "dee");
  if (kernel_width) *kernel_width = std::sqrt(t / 2.0);
  return t;
}

void check_dims(const arma::mat& X, const arma::uvec& labels, arma::uword dim) {
  if (labels.n_elem != X.n_cols) throw Error("internal: linear-time DEE labels do not match");
  if (dim < 1 || dim > 3)
    throw MethodError("dee: Barnes-Hut works in 1 to 3 dimensions, asked for " +
                      std::to_string(dim) + " (fix: 'gradient: exact' or dims <= 3)");
}

}  // namespace

arma::sp_mat dee_sparse_weights(const arma::mat& X, const arma::uvec& labels, arma::uword n_classes,
                                arma::uword k, const keywords::KernelWidth& width,
                                const GraphOptions& opt, double* kernel_width) {
  const double t = heat_t_of(X, labels, width, kernel_width);
  arma::sp_mat W = class_neighbour_graph(X, labels, n_classes, k, ClassPairs::Same, opt);
  // The stored values are squared distances (a duplicate's 0 stored as the smallest double).
  W.transform([t](double d2) { return std::exp(-d2 / t); });
  return W;
}

void dee_all_pairs_scatter(const arma::mat& X, const arma::uvec& labels, arma::uword n_classes,
                           const keywords::KernelWidth& width, arma::mat& S, arma::mat& Sd,
                           double* total_weight, double* kernel_width) {
  const double t = heat_t_of(X, labels, width, kernel_width);
  const arma::uword D = X.n_rows;
  // Column blocks of w+: 512 columns of a 6,000-point class are 24 MB.
  constexpr arma::uword kBlock = 512;
  arma::mat XWX(D, D, arma::fill::zeros);
  Sd.zeros(D, D);
  double total = 0.0;
  for (arma::uword c = 0; c < n_classes; ++c) {
    const arma::uvec idx = arma::find(labels == c);
    if (idx.n_elem < 2) continue;
    const arma::mat Xc = X.cols(idx);
    const arma::rowvec sq = arma::sum(arma::square(Xc), 0);
    for (arma::uword j0 = 0; j0 < Xc.n_cols; j0 += kBlock) {
      const arma::uword j1 = std::min<arma::uword>(Xc.n_cols, j0 + kBlock) - 1;
      const arma::mat Xb = Xc.cols(j0, j1);
      arma::mat W = -2.0 * (Xc.t() * Xb);  // the N_c x b block of w+, from squared distances
      W.each_col() += sq.t();
      W.each_row() += sq.cols(j0, j1);
      W.transform([t](double d2) { return std::exp(-std::max(d2, 0.0) / t); });
      for (arma::uword q = 0; q < Xb.n_cols; ++q) W(j0 + q, q) = 0.0;
      const arma::rowvec deg = arma::sum(W, 0);
      total += arma::accu(deg);
      XWX += (Xc * W) * Xb.t();
      Sd += (Xb.each_row() % deg) * Xb.t();
    }
  }
  S = Sd - XWX;
  S = 0.5 * (S + S.t());
  if (total_weight) *total_weight = total;
}

DeeBhObjective::DeeBhObjective(const arma::mat& X, const arma::uvec& labels, arma::uword n_classes,
                               arma::mat S, arma::mat Sd, double lambda, arma::uword dim,
                               double theta, unsigned threads)
    : X_(X),
      labels_(labels),
      classes_(n_classes),
      S_(std::move(S)),
      Sd_(std::move(Sd)),
      lambda_(lambda),
      theta_(theta),
      dim_(dim),
      threads_(threads) {
  check_dims(X, labels, dim);
  if (S_.n_rows != X.n_rows || Sd_.n_rows != X.n_rows)
    throw Error("internal: linear-time DEE scatter matrices do not match the data");
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
  if (Wp.n_rows != X.n_cols || Wp.n_cols != X.n_cols)
    throw Error("internal: linear-time DEE weights do not match the data");
  check_dims(X, labels, dim);
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
