#include <catch2/catch.hpp>

#include "framework/core/rng.hpp"
#include "framework/linalg/dense_eigs.hpp"
#include "framework/linalg/kernel_matrix.hpp"

using namespace drbench;

TEST_CASE("rbf gram: the symmetric training path equals the direct formula", "[kernel][linalg]") {
  Rng rng(51);
  const arma::mat X = rng.randn(7, 130);
  KernelSpec k;
  k.type = KernelSpec::Type::Rbf;
  k.sigma = 1.7;
  const arma::mat K = gram(k, X, X);  // same object: syrk, upper triangle, mirrored
  const arma::mat Xcopy = X;
  const arma::mat Kg = gram(k, X, Xcopy);  // general path
  arma::mat ref(130, 130);
  for (arma::uword j = 0; j < 130; ++j)
    for (arma::uword i = 0; i < 130; ++i)
      ref(i, j) = std::exp(-arma::accu(arma::square(X.col(i) - X.col(j))) / (2 * 1.7 * 1.7));
  CHECK(arma::abs(K - ref).max() < 1e-13);
  CHECK(arma::abs(Kg - ref).max() < 1e-13);
  CHECK(arma::abs(K - K.t()).max() == 0.0);
  const arma::mat Kr = gram(k, X.cols(0, 9), X);  // rectangular
  CHECK(arma::abs(Kr - ref.rows(0, 9)).max() < 1e-13);
}

TEST_CASE("extreme_eigs_sym and double_centred_eigs read the upper triangle only",
          "[kernel][linalg]") {
  Rng rng(52);
  const arma::uword n = 900;  // Lanczos path
  const arma::mat G = rng.randn(n, 30);
  const arma::mat A = G * G.t();
  arma::mat Abad = A;
  Abad.diag(-1) += 1e3;  // garbage below the diagonal must not matter
  arma::vec v1, v2;
  arma::mat V1, V2;
  extreme_eigs_sym(v1, V1, A, 3, true);
  extreme_eigs_sym(v2, V2, Abad, 3, true);
  CHECK(arma::abs(v1 - v2).max() < 1e-9 * v1(0));
  const arma::mat P = rng.randn(5, n);
  arma::mat D2(n, n);
  for (arma::uword j = 0; j < n; ++j)
    D2.col(j) = arma::sum(arma::square(P.each_col() - P.col(j)), 0).t();
  arma::mat D2bad = D2;
  D2bad.diag(-2) -= 7.0;
  double_centred_eigs(v1, V1, D2, 2);
  double_centred_eigs(v2, V2, D2bad, 2);
  CHECK(arma::abs(v1 - v2).max() < 1e-9 * v1(0));
}
