#include "methods/neighbour/dsne/dsne_objective.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>

#include "framework/affinity/weights.hpp"
#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"
#include "methods/neighbour/linear_embedding.hpp"

namespace drbench {

arma::mat dsne_input_similarities(const arma::mat& X, const arma::uvec& labels,
                                  const keywords::KernelWidth& width, double* t_used) {
  const arma::uword n = X.n_cols;
  const ClassPairDistances c = class_pair_distances(X, labels, width, "dsne");
  const double t = c.t;
  if (t_used) *t_used = t;
  arma::mat P(n, n, arma::fill::zeros);
  for (const arma::mat* mask : std::initializer_list<const arma::mat*>{&c.same, &c.different}) {
    const arma::uvec idx = arma::find(*mask);
    const arma::vec d = c.D2.elem(idx);
    const arma::vec k = arma::exp(-(d - d.min()) / t);
    P.elem(idx) = k / arma::accu(k);
  }
  return P;
}

DsneObjective::DsneObjective(const arma::mat& X, const arma::uvec& labels, arma::mat P,
                             arma::uword dim)
    : X_(X), P_(std::move(P)), same_(class_mask(labels, ClassPairs::Same)), dim_(dim) {
  const arma::uvec pos = arma::find(P_ > 0);
  const arma::vec p = P_.elem(pos);
  p_entropy_ = arma::accu(p % arma::log(p));
}

double DsneObjective::evaluate(const arma::vec& a, arma::vec* grad) {
  const arma::mat A(const_cast<double*>(a.memptr()), dim_, X_.n_rows, false, true);
  const arma::mat Y = A * X_;
  const arma::uword n = Y.n_cols;
  // Pairs i > j only (P, U and K are symmetric): u, the group sums Z, and sum p log u.
  arma::mat U(n, n, arma::fill::zeros);
  double zs = 0.0, zd = 0.0, p_log_u = 0.0;
  for (arma::uword j = 0; j < n; ++j) {
    const double* p = P_.colptr(j);
    const double* same = same_.colptr(j);
    double* u = U.colptr(j);
    for (arma::uword i = j + 1; i < n; ++i) {
      const double v = 1.0 / (1.0 + column_sq_distance(Y, i, j));
      u[i] = v;
      (same[i] != 0.0 ? zs : zd) += v;
      if (p[i] > 0) p_log_u += p[i] * std::log(v);
    }
  }
  zs *= 2.0;
  zd *= 2.0;
  // E = sum p log p - sum p log u + log Z_s + log Z_d (each group's p sums to 1).
  const double f = p_entropy_ - 2.0 * p_log_u + std::log(zs) + std::log(zd);
  if (grad) {
    for (arma::uword j = 0; j < n; ++j) {
      const double* p = P_.colptr(j);
      const double* same = same_.colptr(j);
      double* u = U.colptr(j);
      for (arma::uword i = j + 1; i < n; ++i)
        u[i] = (p[i] - u[i] / (same[i] != 0.0 ? zs : zd)) * u[i];  // K = (p - q) u
    }
    mirror_lower(U);
    *grad = arma::vectorise(laplacian_gradient(Y, U, X_));
  }
  return f;
}

}  // namespace drbench
