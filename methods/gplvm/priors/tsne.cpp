#include "methods/gplvm/priors/tsne.hpp"

#include <cmath>
#include <string>

#include "framework/affinity/perplexity.hpp"
#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

arma::mat tsne_joint_affinities(const arma::mat& Y, double perplexity, double tol, int max_steps) {
  PerplexityOptions opt;
  opt.tol = tol;
  opt.max_steps = max_steps;
  return joint_affinities(Y, perplexity, opt);
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
