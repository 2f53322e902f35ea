#include "methods/common/lda_start.hpp"

#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/pca.hpp"

namespace drbench {

arma::mat lda_scalings(const arma::mat& X, const arma::uvec& labels, double tol) {
  const arma::uword d = X.n_rows, n = X.n_cols;
  const arma::uvec classes = arma::unique(labels);
  const arma::uword C = classes.n_elem;
  arma::mat means(d, C);
  arma::vec priors(C);
  arma::mat Xc(d, n);
  for (arma::uword c = 0; c < C; ++c) {
    const arma::uvec idx = arma::find(labels == classes(c));
    means.col(c) = arma::mean(X.cols(idx), 1);
    priors(c) = double(idx.n_elem) / double(n);
    const arma::mat Xg = X.cols(idx);
    Xc.cols(idx) = Xg.each_col() - means.col(c);
  }
  // 1) scale each feature by its within-class standard deviation, 2) whiten the within-class
  // scatter by the SVD of the scaled residuals, 3) rotate onto the principal axes of the
  // whitened, prior-weighted class means.
  arma::vec sd = arma::sqrt(arma::mean(arma::square(Xc.each_col() - arma::mean(Xc, 1)), 1));
  sd.elem(arma::find(sd == 0)).ones();
  const arma::mat Z = (std::sqrt(1.0 / double(n - C)) * (Xc.each_col() / sd)).t();  // n x d
  arma::mat U, V;
  arma::vec s;
  arma::svd_econ(U, s, V, Z);
  const arma::uword rank = arma::accu(s > tol);
  if (rank == 0) return arma::mat(d, 0);
  arma::mat scalings = V.cols(0, rank - 1);
  scalings.each_col() /= sd;
  scalings.each_row() /= s.head(rank).t();
  const double fac = C == 1 ? 1.0 : 1.0 / double(C - 1);
  const arma::vec xbar = means * priors;
  arma::mat B = (means.each_col() - xbar).t();  // C x d
  B.each_col() %= arma::sqrt(double(n) * priors * fac);
  arma::mat U2, V2;
  arma::vec s2;
  arma::svd_econ(U2, s2, V2, arma::mat(B * scalings));
  const arma::uword rank2 = s2.is_empty() ? 0 : arma::accu(s2 > tol * s2(0));
  if (rank2 == 0) return arma::mat(d, 0);
  return scalings * V2.cols(0, rank2 - 1);
}

arma::mat lda_start(const arma::mat& X, const arma::uvec& labels, arma::uword dim,
                    const std::string& method) {
  const arma::mat S = lda_scalings(X, labels);
  if (S.n_cols < dim)
    throw MethodError(method + ": init: lda gives " + std::to_string(S.n_cols) +
                      " directions (at most classes - 1), fewer than dims=" + std::to_string(dim) +
                      "; lower 'dims' or choose another 'init'");
  return S.cols(0, dim - 1).t();
}

arma::mat linear_map_start(const std::string& init, const arma::mat& X, const arma::uvec& labels,
                           arma::uword dim, Rng& rng, const std::string& method) {
  if (init == "pca") return pca_basis(X, dim).W.t();
  if (init == "lda") return lda_start(X, labels, dim, method);
  if (init == "identity") return arma::eye(dim, X.n_rows);
  return rng.randn(dim, X.n_rows);
}

}  // namespace drbench
