// The shared affinity module: calibrated rows hit their entropy, joint forms are symmetric
// distributions, the sparse form agrees with the dense one where the mass lies, masks split pairs.
#include <catch2/catch.hpp>
#include <cmath>

#include "framework/affinity/perplexity.hpp"
#include "framework/affinity/weights.hpp"
#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"

using namespace drbench;

TEST_CASE("Dense affinities: every row at the target entropy within 1e-5", "[affinity]") {
  Rng rng(3);
  const arma::mat X = rng.randn(5, 60);
  for (double perp : {2.0, 10.0, 30.0}) {
    const arma::mat Pc = conditional_affinities(X, perp);
    for (arma::uword i = 0; i < X.n_cols; ++i) {
      CHECK(std::abs(row_entropy(Pc.col(i)) - std::log(perp)) < 1e-5);
      CHECK(arma::accu(Pc.col(i)) == Approx(1.0).epsilon(1e-12));
      CHECK(Pc(i, i) == 0.0);
    }
    const arma::mat P = joint_affinities(X, perp);
    CHECK(arma::accu(P) == Approx(1.0).epsilon(1e-12));
    CHECK(arma::abs(P - P.t()).max() == 0.0);
    CHECK(arma::abs(P - (Pc + Pc.t()) / (2.0 * X.n_cols)).max() < 1e-18);
  }
  CHECK_THROWS_AS(conditional_affinities(X, 60.0), MethodError);
  CHECK_THROWS_AS(conditional_affinities(X, 0.5), MethodError);
}

TEST_CASE("Sparse affinities: kNN rows at the target entropy and close to the dense ones",
          "[affinity]") {
  Rng rng(4);
  const arma::mat X = rng.randn(4, 300);
  const double perp = 10.0;
  const arma::sp_mat Pc = sparse_conditional_affinities(X, perp);  // 30 neighbours
  for (arma::uword i = 0; i < X.n_cols; ++i) {
    const arma::vec col(Pc.col(i));
    CHECK(arma::accu(arma::conv_to<arma::vec>::from(col > 0)) == 30);
    CHECK(std::abs(row_entropy(col) - std::log(perp)) < 1e-5);
    CHECK(arma::accu(col) == Approx(1.0).epsilon(1e-12));
    CHECK(col(i) == 0.0);
  }
  const arma::sp_mat P = sparse_joint_affinities(X, perp);
  CHECK(arma::accu(P) == Approx(1.0).epsilon(1e-12));
  CHECK(arma::abs(arma::mat(P - P.t())).max() == 0.0);
  // Beyond 3 x perplexity neighbours the dense rows hold little mass: the two distributions are
  // close in total variation.
  const arma::mat Pd = joint_affinities(X, perp);
  const double tv = 0.5 * arma::accu(arma::abs(arma::mat(P) - Pd));
  INFO("total variation " << tv);
  CHECK(tv < 0.05);
  CHECK_THROWS_AS(sparse_conditional_affinities(X, 20.0, 10), MethodError);
}

TEST_CASE("Gaussian weights and class masks", "[affinity]") {
  const arma::mat D2 = {{0, 1, 4}, {1, 0, 9}, {4, 9, 0}};
  const arma::mat W = gaussian_weights(D2, 2.0);
  CHECK(W(0, 1) == Approx(std::exp(-1.0 / 8.0)));
  CHECK(W(2, 1) == Approx(std::exp(-9.0 / 8.0)));
  CHECK(W(1, 1) == 0.0);
  CHECK_THROWS_AS(gaussian_weights(D2, 0.0), MethodError);
  const arma::uvec y = {0, 0, 1};
  const arma::mat S = class_mask(y, ClassPairs::Same), Df = class_mask(y, ClassPairs::Different);
  CHECK(arma::accu(S) == 2);
  CHECK(S(0, 1) == 1.0);
  CHECK(S(0, 0) == 0.0);
  CHECK(arma::accu(Df) == 4);
  CHECK(arma::accu(S + Df) == 6);  // every off-diagonal pair is in exactly one set
  const arma::mat Wd = mask_pairs(W, y, ClassPairs::Different);
  CHECK(Wd(0, 1) == 0.0);
  CHECK(Wd(0, 2) == W(0, 2));
}
