#include "methods/neighbour/dsne/dsne_bh_objective.hpp"

#include <cmath>
#include <string>

#include "framework/affinity/class_neighbour_graph.hpp"
#include "framework/core/error.hpp"
#include "framework/nbody/class_split_repulsion.hpp"
#include "framework/nbody/sparse_edge_sums.hpp"
#include "methods/neighbour/linear_embedding.hpp"

namespace drbench {

arma::sp_mat dsne_sparse_similarities(const arma::mat& X, const arma::uvec& labels,
                                      arma::uword n_classes, arma::uword k,
                                      const keywords::KernelWidth& width, const GraphOptions& opt,
                                      double* t_used) {
  const double t = same_class_heat_t(width, pair_distance_totals(X, labels), "dsne");
  if (t_used) *t_used = t;
  arma::sp_mat P(X.n_cols, X.n_cols);
  for (ClassPairs which : {ClassPairs::Same, ClassPairs::Different}) {
    arma::sp_mat G = class_neighbour_graph(X, labels, n_classes, k, which, opt);
    // Stored values are squared distances; a duplicate's 0 is the smallest positive double.
    const double dmin = G.n_nonzero ? arma::min(arma::vec(arma::nonzeros(G))) : 0.0;
    G.transform([t, dmin](double d2) { return std::exp(-(d2 - dmin) / t); });
    const double z = arma::accu(G);
    if (!(z > 0))
      throw MethodError("dsne: a group of pairs has no similarity (raise 'neighbours')");
    P += G / z;
  }
  return P;
}

DsneBhObjective::DsneBhObjective(const arma::mat& X, const arma::uvec& labels,
                                 arma::uword n_classes, arma::sp_mat P, arma::uword dim,
                                 double theta, unsigned threads)
    : X_(X),
      labels_(labels),
      classes_(n_classes),
      P_(std::move(P)),
      dim_(dim),
      theta_(theta),
      threads_(threads) {
  if (P_.n_rows != X.n_cols || P_.n_cols != X.n_cols || labels.n_elem != X.n_cols)
    throw Error("internal: linear-time DSNE similarities do not match the data");
  if (dim < 1 || dim > 3)
    throw MethodError("dsne: Barnes-Hut works in 1 to 3 dimensions, asked for " +
                      std::to_string(dim) + " (fix: 'gradient: exact' or dims <= 3)");
  P_.sync();
  const arma::vec p = arma::nonzeros(P_);
  p_entropy_ = arma::accu(p % arma::log(p));
}

double DsneBhObjective::evaluate(const arma::vec& a, arma::vec* grad) {
  const arma::mat A(const_cast<double*>(a.memptr()), dim_, X_.n_rows, false, true);
  const arma::mat Y = A * X_;
  const arma::uword n = Y.n_cols;
  const ClassSplitStudentSums s = student_t_sums_by_class(Y, labels_, classes_, theta_, threads_);
  double zs = 0.0, zd = 0.0;
  for (arma::uword i = 0; i < n; ++i) {
    zs += s.z_same(i);
    zd += s.z_diff(i);
  }
  // Attraction over the stored p (column i holds p_.i = p_i. by symmetry): sum p log u and the
  // forces sum_j p_ij u_ij (y_i - y_j), per point, then summed in index order.
  arma::vec plu(n);
  arma::mat Fp(dim_, n);
  sparse_edge_sums(
      P_, Y, threads_,
      [](double p, double d2) {
        const double w = 1.0 / (1.0 + d2);
        return EdgeTerms{p * std::log(w), p * w};
      },
      plu.memptr(), Fp.memptr());
  double p_log_u = 0.0;
  for (arma::uword i = 0; i < n; ++i) p_log_u += plu(i);
  const double E = p_entropy_ - p_log_u + std::log(zs) + std::log(zd);
  if (grad) {
    const arma::mat GY = 4.0 * (Fp - s.f_same / zs - s.f_diff / zd);
    *grad = arma::vectorise(GY * X_.t());
  }
  return E;
}

}  // namespace drbench
