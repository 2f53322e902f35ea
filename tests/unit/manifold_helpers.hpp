#pragma once
// Synthetic manifolds with known intrinsic coordinates for the manifold-method tests.
#include <armadillo>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "framework/core/method.hpp"
#include "framework/core/rng.hpp"
#include "framework/core/trace.hpp"

namespace drbench::testing {

// Swiss roll (Tenenbaum et al. 2000): t in [1.5 pi, 4.5 pi], height in [0, 21]. `unrolled` gets
// the intrinsic coordinates (arc length along the spiral, height), 2 x n.
inline arma::mat swiss_roll(Rng& rng, arma::uword n, arma::mat& unrolled) {
  arma::mat X(3, n);
  unrolled.set_size(2, n);
  auto arc = [](double t) { return 0.5 * (t * std::sqrt(1 + t * t) + std::asinh(t)); };
  for (arma::uword i = 0; i < n; ++i) {
    const double t = 1.5 * arma::datum::pi * (1 + 2 * rng.uniform());
    const double h = 21 * rng.uniform();
    X(0, i) = t * std::cos(t);
    X(1, i) = h;
    X(2, i) = t * std::sin(t);
    unrolled(0, i) = arc(t);
    unrolled(1, i) = h;
  }
  return X;
}

// A swiss roll of n points and its intrinsic coordinates, as above.
struct Roll {
  arma::mat X, truth;
};

inline Roll swiss_roll(Rng& rng, arma::uword n) {
  Roll r;
  r.X = swiss_roll(rng, n, r.truth);
  return r;
}

// Orthogonal R minimising |R A - B| (both k x n, centred inside) and the residual after it.
inline double procrustes_residual(const arma::mat& A, const arma::mat& B) {
  const arma::mat Ac = A.each_col() - arma::mean(A, 1), Bc = B.each_col() - arma::mean(B, 1);
  arma::mat U, V;
  arma::vec s;
  arma::svd(U, s, V, Bc * Ac.t());
  return arma::abs(U * V.t() * Ac - Bc).max();
}

inline double abs_corr(const arma::rowvec& a, const arma::rowvec& b) {
  return std::abs(arma::as_scalar(arma::cor(a.t(), b.t())));
}

// Y recovers both intrinsic coordinates: |correlation| above `min` row by row.
inline void check_unrolled(const arma::mat& Y, const arma::mat& truth, double min) {
  CHECK(abs_corr(Y.row(0), truth.row(0)) > min);
  CHECK(abs_corr(Y.row(1), truth.row(1)) > min);
}

// m, fitted on the roll (X, truth), unrolls it (check_unrolled at 0.99), maps its training points
// onto its embedding within rel_tol of the embedding's largest entry, and maps n_new new points
// of the roll, drawn from rng, where their intrinsic coordinates say.
inline void check_unrolls_roll(const Method& m, const arma::mat& X, const arma::mat& truth,
                               double rel_tol, Rng& rng, arma::uword n_new) {
  const arma::mat Y = m.embedding();
  check_unrolled(Y, truth, 0.99);
  CHECK(arma::abs(m.transform(X) - Y).max() < rel_tol * arma::abs(Y).max());
  const Roll fresh = swiss_roll(rng, n_new);
  check_unrolled(m.transform(fresh.X), fresh.truth, 0.99);
}

// Fits a method's dense and sparse-path instances on X with the same seed and says whether the
// sparse fit's trace names `eigensolver` as its eigensolver.
template <class M>
bool fit_dense_and_sparse(M& dense, M& sparse, const arma::mat& X, arma::uword dim,
                          const std::string& eigensolver) {
  Rng r1(1), r2(1);
  Trace trace;
  dense.fit(FitInput{X, nullptr, 0, dim, r1, nullptr});
  sparse.fit(FitInput{X, nullptr, 0, dim, r2, &trace});
  bool named = false;
  for (const auto& [k, v] : trace.notes) named = named || (k == "eigensolver" && v == eigensolver);
  return named;
}

}  // namespace drbench::testing
