#include "framework/linalg/lars.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "framework/core/error.hpp"

namespace drbench {

LassoSolution lasso_lars_gram(const arma::mat& G, const arma::vec& Xty, double lambda,
                              arma::uword max_nonzeros) {
  const arma::uword p = G.n_rows;
  if (!G.is_square() || Xty.n_elem != p) throw Error("lasso_lars_gram: size mismatch");
  if (lambda < 0) throw Error("lasso_lars_gram: lambda must be >= 0");
  const double inf = std::numeric_limits<double>::infinity();
  LassoSolution out;
  out.beta.zeros(p);
  std::vector<char> active(p, 0);
  std::vector<arma::uword> A;  // active indices
  arma::vec c = Xty;           // correlations X^T (y - X beta)
  double C = arma::abs(c).max();
  out.lambda = C;
  if (C <= lambda || C == 0.0) return out;
  {
    const arma::uword j = arma::index_max(arma::abs(c));
    active[j] = 1;
    A.push_back(j);
  }
  // Ties of |c_j| with C within this tolerance count as already at the boundary.
  const double tiny = 1e-12 * C;
  const arma::uword limit = max_nonzeros ? max_nonzeros : p;
  while (true) {
    const arma::uvec Au(A);
    arma::vec s(A.size());
    for (std::size_t i = 0; i < A.size(); ++i) s(i) = c(A[i]) >= 0 ? 1.0 : -1.0;
    const arma::mat GA = G.submat(Au, Au);
    if (arma::rcond(GA) < 1e-13) break;  // singular active block: rank of X exhausted
    arma::vec w;
    if (!arma::solve(w, GA, s, arma::solve_opts::no_approx) || !w.is_finite()) break;
    // Along the step gamma: beta_A += gamma w, c_j -= gamma a_j, and |c_A| = C - gamma.
    const arma::vec a = G.cols(Au) * w;
    double g_add = inf;
    arma::uword j_add = p;
    for (arma::uword j = 0; j < p; ++j) {
      if (active[j]) continue;
      for (double g : {(C - c(j)) / (1.0 - a(j)), (C + c(j)) / (1.0 + a(j))})
        if (g > tiny && g < g_add) {
          g_add = g;
          j_add = j;
        }
    }
    double g_drop = inf;
    std::size_t i_drop = A.size();
    for (std::size_t i = 0; i < A.size(); ++i) {
      const double g = -out.beta(A[i]) / w(i);
      if (g > tiny && g < g_drop) {
        g_drop = g;
        i_drop = i;
      }
    }
    const double g_target = C - lambda;
    const double gamma = std::min({g_add, g_drop, g_target});
    if (!std::isfinite(gamma)) break;
    for (std::size_t i = 0; i < A.size(); ++i) out.beta(A[i]) += gamma * w(i);
    c -= gamma * a;
    C -= gamma;
    out.lambda = C;
    ++out.steps;
    if (gamma == g_target) break;
    if (gamma == g_drop) {
      out.beta(A[i_drop]) = 0.0;
      active[A[i_drop]] = 0;
      A.erase(A.begin() + static_cast<std::ptrdiff_t>(i_drop));
    } else {
      if (A.size() >= limit) break;  // the next variable would exceed the cardinality
      active[j_add] = 1;
      A.push_back(j_add);
    }
    if (A.empty()) break;
  }
  out.nonzeros = arma::accu(out.beta != 0.0);
  return out;
}

LassoSolution lasso_lars(const arma::mat& X, const arma::vec& y, double lambda,
                         arma::uword max_nonzeros) {
  if (X.n_rows != y.n_elem)
    throw Error("lasso_lars: X has " + std::to_string(X.n_rows) + " rows but y has " +
                std::to_string(y.n_elem));
  return lasso_lars_gram(X.t() * X, X.t() * y, lambda, max_nonzeros);
}

}  // namespace drbench
