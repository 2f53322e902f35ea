#include "methods/gplvm/priors/tsne.hpp"

#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

arma::mat tsne_joint_affinities(const arma::mat& Y, double perplexity, double tol, int max_steps) {
  const arma::uword n = Y.n_cols;
  if (!(perplexity >= 1.0) || perplexity > static_cast<double>(n - 1))
    throw MethodError("t-SNE prior: 'perplexity' must be in [1, n-1] = [1, " +
                      std::to_string(n - 1) + "] for " + std::to_string(n) +
                      " training points, got " + std::to_string(perplexity));
  const arma::mat D = sq_distances(Y);
  const double target = std::log(perplexity);
  arma::mat Pc(n, n, arma::fill::zeros);
  arma::vec row(n);
  for (arma::uword i = 0; i < n; ++i) {
    // Shift by the nearest other point's distance so that exp() cannot underflow everywhere;
    // the shift cancels in the normalised row.
    arma::vec d = D.col(i);
    d(i) = arma::datum::inf;
    d -= d.min();
    d(i) = 0.0;  // its weight is forced to 0 below
    double beta = 1.0, lo = 0.0, hi = arma::datum::inf;
    for (int step = 0; step < max_steps; ++step) {
      row = arma::exp(-beta * d);
      row(i) = 0.0;
      const double s = arma::accu(row);
      const double H = std::log(s) + beta * arma::dot(row, d) / s;  // entropy of row / s
      if (std::abs(H - target) < tol) break;
      if (H > target) {
        lo = beta;
        beta = std::isinf(hi) ? beta * 2.0 : 0.5 * (beta + hi);
      } else {
        hi = beta;
        beta = 0.5 * (beta + lo);
      }
    }
    row = arma::exp(-beta * d);
    row(i) = 0.0;
    Pc.col(i) = row / arma::accu(row);  // column i holds p_{.|i}
  }
  arma::mat P = (Pc + Pc.t()) / (2.0 * static_cast<double>(n));
  return P;
}

TsnePrior::TsnePrior(arma::mat P, double lambda) : P_(std::move(P)), lambda_(lambda) {
  if (!(lambda > 0))
    throw MethodError("t-SNE prior: 'alpha' (the KL weight lambda) must be > 0, got " +
                      std::to_string(lambda));
  if (P_.n_rows != P_.n_cols) throw Error("internal: t-SNE prior needs a square P");
  p_log_p_ = 0.0;
  for (double p : P_)
    if (p > 0) p_log_p_ += p * std::log(p);
}

double TsnePrior::value_grad(const arma::mat& X, arma::mat* gX) const {
  if (X.n_cols != P_.n_rows)
    throw Error("internal: t-SNE prior built for " + std::to_string(P_.n_rows) + " points, got " +
                std::to_string(X.n_cols));
  arma::mat num = 1.0 / (1.0 + sq_distances(X));
  num.diag().zeros();
  const double Z = arma::accu(num);
  // KL = sum p ln p - sum p ln num + ln Z (sum p = 1).
  double cross = 0.0;
  for (arma::uword k = 0; k < P_.n_elem; ++k)
    if (P_(k) > 0) cross += P_(k) * std::log(num(k));
  const double kl = p_log_p_ - cross + std::log(Z) * arma::accu(P_);
  if (gX) {
    const arma::mat M = (P_ - num / Z) % num;  // symmetric, zero diagonal
    *gX = (4.0 * lambda_) * (X.each_row() % arma::sum(M, 0) - X * M);
  }
  return lambda_ * kl;
}

}  // namespace drbench
