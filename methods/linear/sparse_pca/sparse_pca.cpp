#include "methods/linear/sparse_pca/sparse_pca.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

namespace {

// The sign rule of scikit-learn's svd_flip: the largest-magnitude entry of each row of `by`
// positive, the matching column of `other` flipped with it.
void flip_rows_by_largest(arma::mat& by, arma::mat& other_cols) {
  for (arma::uword k = 0; k < by.n_rows; ++k) {
    const arma::uword at = arma::index_max(arma::abs(by.row(k)));
    if (by(k, at) < 0) {
      by.row(k) *= -1.0;
      other_cols.col(k) *= -1.0;
    }
  }
}

double objective_of(const arma::mat& Y, const arma::mat& C, const arma::mat& D, double lambda) {
  return 0.5 * arma::accu(arma::square(Y - C * D)) + lambda * arma::accu(arma::abs(C));
}

// Block coordinate descent over the atoms (rows) of D for fixed loadings C, each atom projected
// onto the unit ball (scikit-learn's _update_dict). An atom no feature uses is drawn again from a
// random feature plus 1 % noise, its loadings zeroed.
void update_dictionary(arma::mat& D, arma::mat& C, const arma::mat& Y, Rng& rng) {
  const arma::mat A = C.t() * C, B = Y.t() * C;  // k x k, n x k
  for (arma::uword k = 0; k < D.n_rows; ++k) {
    if (A(k, k) > 1e-6) {
      D.row(k) += (B.col(k).t() - A.row(k) * D) / A(k, k);
    } else {
      const arma::uword pick =
          std::min<arma::uword>(Y.n_rows - 1, arma::uword(rng.uniform() * Y.n_rows));
      const arma::rowvec newd = Y.row(pick);
      double sd = arma::stddev(newd, 1);
      if (sd == 0) sd = 1;
      D.row(k) = newd + 0.01 * sd * rng.randn(1, newd.n_elem);
      C.col(k).zeros();
    }
    D.row(k) /= std::max(arma::norm(D.row(k)), 1.0);
  }
}

}  // namespace

void lasso_gram(const arma::mat& G, const arma::vec& b, double lambda, arma::vec& c) {
  const arma::uword k = b.n_elem;
  for (int sweep = 0; sweep < 100000; ++sweep) {
    double moved = 0, largest = 0;
    for (arma::uword t = 0; t < k; ++t) {
      if (G(t, t) <= 0) {
        c(t) = 0;
        continue;
      }
      const double rho = b(t) - arma::dot(G.col(t), c) + G(t, t) * c(t);
      const double next = (rho > lambda    ? rho - lambda
                           : rho < -lambda ? rho + lambda
                                           : 0.0) /
                          G(t, t);
      moved = std::max(moved, std::abs(next - c(t)));
      largest = std::max(largest, std::abs(next));
      c(t) = next;
    }
    if (moved <= 1e-14 * largest) return;
  }
}

void SparsePca::fit(const FitInput& in) {
  const arma::uword k = in.dim;
  const arma::vec mu = arma::mean(in.X, 1);
  const arma::mat Y = in.X.each_col() - mu;  // d x n: a feature a row
  arma::mat U, V;
  arma::vec S;
  if (!arma::svd_econ(U, S, V, Y)) throw MethodError("sparse_pca: SVD of the data failed");
  arma::mat Ut = U.t();
  flip_rows_by_largest(Ut, V);  // scikit-learn's svd_flip on the start, decided by U
  arma::mat C(Y.n_rows, k, arma::fill::zeros), D(k, Y.n_cols, arma::fill::zeros);
  const arma::uword r = std::min<arma::uword>(k, S.n_elem);
  C.head_cols(r) = Ut.head_rows(r).t();
  D.head_rows(r) = arma::diagmat(S.head(r)) * V.head_cols(r).t();
  const auto t0 = std::chrono::steady_clock::now();
  double previous = 0;
  bool converged = false;
  arma::uword it = 0;
  for (; it < s_.iterations; ++it) {
    check_task_deadline(int(it), it > 0 ? previous : std::nan(""), int(s_.iterations));
    const arma::mat G = D * D.t(), B = D * Y.t();  // k x k, k x d
    for (arma::uword j = 0; j < Y.n_rows; ++j) {
      arma::vec c = C.row(j).t();
      lasso_gram(G, B.col(j), s_.lambda, c);
      C.row(j) = c.t();
    }
    update_dictionary(D, C, Y, in.rng);
    objective_ = objective_of(Y, C, D, s_.lambda);
    if (in.trace)
      in.trace->log(int(it), objective_, 0.0,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (it > 0 && previous - objective_ < s_.tolerance * objective_) {
      converged = true;
      break;
    }
    previous = objective_;
  }
  iterations_run_ = std::min(it + 1, s_.iterations);
  if (in.trace) {
    in.trace->note("iterations_run", std::to_string(iterations_run_));
    if (!converged) in.trace->note("stop_reason", "iterations");
  }
  flip_rows_by_largest(D, C);  // svd_flip decided by the dictionary, as scikit-learn's fit
  components_ = C.t();
  for (arma::uword q = 0; q < k; ++q) {
    const double norm = arma::norm(components_.row(q));
    if (norm > 0) components_.row(q) /= norm;
  }
  const arma::mat R = components_ * components_.t() + s_.ridge * arma::eye(k, k);
  set_projection(in.X, mu, arma::solve(R, components_, arma::solve_opts::likely_sympd).t());
}

namespace {

// The parameters the contract and the budget both read.
struct SparsePcaKeys {
  IntKey iterations = keywords::iterations(1000, 1000000, "(scikit-learn: 1000)");
};

MethodInfo sparse_pca_info() {
  MethodInfo m = describe_method(
      "sparse_pca", "linear",
      "sparse PCA: l1-penalised loadings by dictionary learning; points map by ridge regression",
      "Mairal, Bach, Ponce & Sapiro 2009 (JMLR 11); scikit-learn's SparsePCA (method='lars')");
  const RealKey lambda = keywords::lambda(
      1.0, std::nullopt, false, "the l1 penalty on the loadings (scikit-learn's alpha: 1)");
  const RealKey ridge = keywords::ridge(0.01, 0.0, std::nullopt, false,
                                        "of the transform's regression on the components, absolute "
                                        "(scikit-learn's ridge_alpha: 0.01)");
  const auto [iterations] = SparsePcaKeys{};
  const RealKey tolerance = keywords::tolerance(
      1e-8, std::nullopt,
      "stop when the objective falls by less than this times itself (scikit-learn: 1e-8)");
  m.params = {lambda, ridge, iterations, tolerance};
  m.iterative = true;
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<SparsePca>(
        SparsePcaSetting{lambda(p), ridge(p), arma::uword(iterations(p)), tolerance(p)});
  };
  return m;
}

}  // namespace
// The SVD start, then the dictionary steps. Memory: the centred data, its thin SVD, the
// dictionary (dim x n) and the residual of the objective.
DRBENCH_METHOD(sparse_pca_info, linear_budget(
                                    [keys = SparsePcaKeys{}](const TaskSize& z) {
                                      const double n = z.n, d = z.d, k = z.q;
                                      return std::min(n, d) * n * d +
                                             double(keys.iterations(z.p)) *
                                                 (3.0 * n * d * k + 20.0 * d * k * k);
                                    },
                                    [](const TaskSize& z) {
                                      const double n = z.n, d = z.d, r = std::min(n, d);
                                      return 8.0 * (2.0 * n * d + r * (n + d) + 3.0 * z.q * n);
                                    }))
}  // namespace drbench
