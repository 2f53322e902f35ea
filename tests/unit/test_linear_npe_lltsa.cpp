// NPE and LLTSA, the linear forms of LLE and LTSA, which have no reference implementation on
// Debian: each equals its generalized eigenproblem built here from the paper's formulas on a
// hand-sized case, and each recovers a plane that the data lie on up to small noise.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "methods/common/linear_method.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;

namespace {

// Indices of the k nearest other columns of X to column i (brute force).
arma::uvec nearest(const arma::mat& X, arma::uword i, arma::uword k, bool self) {
  arma::vec d2 = arma::sum(arma::square(X.each_col() - X.col(i)), 0).t();
  d2(i) = self ? -1.0 : arma::datum::inf;
  const arma::uvec order = arma::sort_index(d2);
  return order.head(k);
}

// The `dim` smallest generalized eigenvectors of (A, S), each scaled to a' S a = 1.
arma::mat smallest_generalized(const arma::mat& A, const arma::mat& S, arma::uword dim,
                               arma::vec& values) {
  arma::cx_vec ev;
  arma::cx_mat V;
  REQUIRE(arma::eig_pair(ev, V, A, S));
  const arma::uvec order = arma::sort_index(arma::real(ev));
  arma::mat out(A.n_rows, dim);
  values.set_size(dim);
  for (arma::uword j = 0; j < dim; ++j) {
    const arma::vec a = arma::real(V.col(order(j)));
    out.col(j) = a / std::sqrt(arma::as_scalar(a.t() * S * a));
    values(j) = std::real(ev(order(j)));
  }
  return out;
}

double max_col_diff_up_to_sign(const arma::mat& A, const arma::mat& B) {
  return drbench::testing::max_diff_up_to_sign(A.t(), B.t());
}

// Points on a plane spanned by the orthonormal columns of Q (6 x 2), plus noise `sigma` in the
// other four directions; T holds the plane coordinates.
arma::mat plane_data(arma::mat& T, double sigma) {
  Rng rng(31);
  arma::mat Q, R;
  arma::qr_econ(Q, R, rng.randn(6, 6));
  T = 4.0 * rng.randu(2, 150);
  return Q.head_cols(2) * T + sigma * Q.tail_cols(4) * rng.randn(4, 150) + 3.0;
}

// Largest residual of the least-squares affine fit of each row of Y on T, relative to that row's
// spread: 0 when Y is an affine image of the plane coordinates.
double affine_residual(const arma::mat& Y, const arma::mat& T) {
  const arma::mat D = arma::join_cols(T, arma::ones(1, T.n_cols)).t();
  double worst = 0;
  for (arma::uword r = 0; r < Y.n_rows; ++r) {
    const arma::vec y = Y.row(r).t();
    const arma::vec res = y - D * arma::solve(D, y);
    worst = std::max(worst, arma::norm(res) / arma::norm(y - arma::mean(y)));
  }
  return worst;
}

}  // namespace

TEST_CASE("npe solves the generalized eigenproblem of LLE's weights", "[linear][npe]") {
  Rng rng(4);
  const arma::mat X = rng.randn(3, 14);
  const arma::uword k = 4, n = X.n_cols;
  const double reg = 1e-3;
  // LLE's weights (Saul & Roweis 2003, eq. 3-4): C w = 1 on the local Gram matrix, normalised.
  arma::mat W(n, n, arma::fill::zeros);
  for (arma::uword i = 0; i < n; ++i) {
    const arma::uvec nb = nearest(X, i, k, false);
    const arma::mat Z = X.cols(nb).eval().each_col() - X.col(i);
    arma::mat C = Z.t() * Z;
    C.diag() += reg * arma::trace(C);
    const arma::vec w = arma::solve(C, arma::ones(k));
    for (arma::uword j = 0; j < k; ++j) W(i, nb(j)) = w(j) / arma::accu(w);
  }
  const arma::mat IW = arma::eye(n, n) - W, M = IW.t() * IW;
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  arma::vec values;
  const arma::mat ref = smallest_generalized(Xc * M * Xc.t(), Xc * Xc.t(), 2, values);
  auto m = fit_method("npe", {{"neighbours", std::int64_t(k)}, {"ridge", reg}}, X, 2);
  const arma::mat& A = dynamic_cast<const LinearMethod&>(*m).projection();
  CHECK(max_col_diff_up_to_sign(A, ref) < 1e-8);
  CHECK(arma::abs(m->transform(X) - m->embedding()).max() < 1e-12);
}

TEST_CASE("lltsa solves the generalized eigenproblem of LTSA's alignment", "[linear][lltsa]") {
  Rng rng(6);
  const arma::mat X = rng.randn(4, 16);
  const arma::uword k = 5, n = X.n_cols, dim = 2;
  // LTSA's alignment (Zhang & Zha 2004, section 4): every patch (the point and its k - 1 nearest)
  // contributes I - G G' with G = [1/sqrt(k), top right singular vectors of the centred patch].
  arma::mat B(n, n, arma::fill::zeros);
  for (arma::uword i = 0; i < n; ++i) {
    const arma::uvec nb = nearest(X, i, k, true);
    const arma::mat P = X.cols(nb).eval().each_col() - arma::mean(X.cols(nb), 1);
    arma::mat U, V;
    arma::vec s;
    arma::svd(U, s, V, P);
    arma::mat G(k, dim + 1);
    G.col(0).fill(1.0 / std::sqrt(double(k)));
    G.cols(1, dim) = V.head_cols(dim);
    B(nb, nb) += arma::eye(k, k) - G * G.t();
  }
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  arma::vec values;
  const arma::mat ref = smallest_generalized(Xc * B * Xc.t(), Xc * Xc.t(), dim, values);
  auto m = fit_method("lltsa", {{"neighbours", std::int64_t(k)}}, X, dim);
  const arma::mat& A = dynamic_cast<const LinearMethod&>(*m).projection();
  CHECK(max_col_diff_up_to_sign(A, ref) < 1e-8);
  CHECK(arma::abs(m->transform(X) - m->embedding()).max() < 1e-12);
}

TEST_CASE("npe and lltsa recover a plane the data lie on", "[linear][npe][lltsa]") {
  arma::mat T;
  const arma::mat X = plane_data(T, 1e-3);
  for (const std::string name : {"npe", "lltsa"}) {
    INFO(name);
    auto m = fit_method(name, {{"neighbours", std::int64_t(10)}}, X, 2);
    // The embedding is an affine image of the plane coordinates: the noise directions, which no
    // neighbourhood reconstructs, are left out.
    CHECK(affine_residual(m->embedding(), T) < 1e-2);
  }
}
